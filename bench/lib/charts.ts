import * as vega from 'vega'
import { compile, type TopLevelSpec } from 'vega-lite'

/** Renders a Vega-Lite spec to SVG text with Vega's headless renderer (no canvas needed). */
export async function renderSvg(spec: TopLevelSpec): Promise<string> {
  const view = new vega.View(vega.parse(compile(spec).spec), { renderer: 'none' })
  try {
    return await view.toSVG()
  } finally {
    view.finalize()
  }
}

export interface EngineBar {
  engine: string
  ndcgAt10: number
  queriesPerSecond: number
  isProduct: boolean
}

/** Two bar charts side by side: nDCG@10 and queries per second (log scale), the product's bars highlighted. */
export function createComparisonChart(title: string, bars: EngineBar[]): TopLevelSpec {
  const color = { field: 'isProduct', type: 'nominal', scale: { domain: [true, false], range: ['#d9480f', '#868e96'] }, legend: null } as const
  const y = { field: 'engine', type: 'nominal', sort: { field: 'ndcgAt10', order: 'descending' }, title: null, axis: { labelLimit: 360 } } as const
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
    title,
    data: { values: bars },
    hconcat: [
      {
        width: 260,
        layer: [
          { mark: 'bar', encoding: { y, x: { field: 'ndcgAt10', type: 'quantitative', title: 'nDCG@10', scale: { domain: [0, 1] } }, color } },
          { mark: { type: 'text', align: 'left', dx: 3 }, encoding: { y, x: { field: 'ndcgAt10', type: 'quantitative' }, text: { field: 'ndcgAt10', type: 'quantitative', format: '.3f' } } },
        ],
      },
      {
        width: 260,
        layer: [
          { mark: 'bar', encoding: { y: { ...y, axis: null }, x: { field: 'queriesPerSecond', type: 'quantitative', title: 'queries per second (log)', scale: { type: 'log' } }, color } },
          { mark: { type: 'text', align: 'left', dx: 3 }, encoding: { y: { ...y, axis: null }, x: { field: 'queriesPerSecond', type: 'quantitative' }, text: { field: 'queriesPerSecond', type: 'quantitative', format: ',.0f' } } },
        ],
      },
    ],
  } as TopLevelSpec
}

export interface ScalePoint {
  chunks: number
  milliseconds: number
  series: string
}

/** Log-log lines of latency against corpus size, one per series, with a dashed linear-growth reference. */
export function createScaleChart(title: string, points: ScalePoint[]): TopLevelSpec {
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
    title,
    width: 420,
    height: 300,
    data: { values: points },
    mark: { type: 'line', point: true },
    encoding: {
      x: { field: 'chunks', type: 'quantitative', scale: { type: 'log' }, title: 'chunks in the index (log)' },
      y: { field: 'milliseconds', type: 'quantitative', scale: { type: 'log' }, title: 'milliseconds (log)' },
      color: { field: 'series', type: 'nominal', title: null },
      strokeDash: { condition: { test: "indexof(datum.series, 'linear') >= 0", value: [4, 4] }, value: [1, 0] },
    },
  } as TopLevelSpec
}
