import type { WorkflowGraph } from '../../../contracts/settings'
import * as styles from './graph.css'
import { layoutGraph, NODE_HEIGHT, NODE_WIDTH, type PlacedNode } from './layout'

const GROUP_CLASS: Record<PlacedNode['group'], string> = {
  start: styles.terminal,
  end: styles.terminal,
  step: styles.step,
  agent: styles.agent,
  tool: styles.tool,
}

const MAX_LABEL = 19
const MAX_EDGE_LABEL = 14
const shorten = (text: string, max = MAX_LABEL) => (text.length > max ? `${text.slice(0, max - 1)}…` : text)

function edgePath(from: PlacedNode, to: PlacedNode, isBack: boolean) {
  if (isBack) {
    // An arc over the nodes, from the top of one to the top of the other.
    const x1 = from.x + NODE_WIDTH / 2
    const x2 = to.x + NODE_WIDTH / 2
    const top = Math.min(from.y, to.y)
    const lift = top - 40
    return { d: `M ${x1} ${from.y} C ${x1} ${lift}, ${x2} ${lift}, ${x2} ${to.y}`, labelX: (x1 + x2) / 2, labelY: lift + 8 }
  }
  if (to.layer === from.layer) {
    const x = from.x + NODE_WIDTH / 2
    return { d: `M ${x} ${from.y + NODE_HEIGHT} L ${x} ${to.y}`, labelX: x + 6, labelY: (from.y + NODE_HEIGHT + to.y) / 2 }
  }
  const x1 = from.x + NODE_WIDTH
  const y1 = from.y + NODE_HEIGHT / 2
  const x2 = to.x
  const y2 = to.y + NODE_HEIGHT / 2
  const bend = (x2 - x1) / 2
  return { d: `M ${x1} ${y1} C ${x1 + bend} ${y1}, ${x2 - bend} ${y2}, ${x2} ${y2}`, labelX: (x1 + x2) / 2, labelY: (y1 + y2) / 2 - 6 }
}

/**
 * The workflow drawn on the server as SVG (no JavaScript needed), laid out in layers from left to right. Each node
 * carries its description as a tooltip (<title>); the text list beside it says the same for screen readers.
 */
export function WorkflowGraphSvg({ graph, title }: { graph: WorkflowGraph; title: string }) {
  const layout = layoutGraph(graph)
  const byId = new Map(layout.nodes.map((node) => [node.id, node]))
  return (
    <svg
      className={styles.svg}
      // Scales down to the frame's width (never up), keeping its proportions.
      style={{ width: '100%', maxWidth: layout.width, height: 'auto' }}
      viewBox={`0 0 ${layout.width} ${layout.height}`}
      role="img"
      aria-label={title}
      data-testid="workflow-graph-svg"
    >
      <defs>
        <marker id="workflow-arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="8" markerHeight="8" orient="auto-start-reverse">
          <path d="M 0 0 L 10 5 L 0 10 z" className={styles.arrow} />
        </marker>
      </defs>
      <g>
        {layout.edges.map((edge, index) => {
          const from = byId.get(edge.from)
          const to = byId.get(edge.to)
          if (!from || !to) return null
          const path = edgePath(from, to, edge.isBack)
          return (
            <g key={`${edge.from}->${edge.to}-${index}`} data-edge={`${edge.from}->${edge.to}`}>
              {edge.label ? <title>{edge.label}</title> : null}
              <path d={path.d} className={`${styles.edge} ${edge.dashes ? styles.dashed : ''}`} markerEnd="url(#workflow-arrow)" />
              {edge.label ? (
                <text x={path.labelX} y={path.labelY} textAnchor="middle" className={styles.edgeLabel}>
                  {shorten(edge.label, MAX_EDGE_LABEL)}
                </text>
              ) : null}
            </g>
          )
        })}
      </g>
      <g>
        {layout.nodes.map((node) => {
          const isFilled = node.group === 'step' || node.group === 'start' || node.group === 'end'
          return (
            <g key={node.id} data-node={node.id}>
              <title>{node.title ? `${node.label}: ${node.title}` : node.label}</title>
              <rect
                x={node.x}
                y={node.y}
                width={NODE_WIDTH}
                height={NODE_HEIGHT}
                rx={node.group === 'start' || node.group === 'end' ? NODE_HEIGHT / 2 : 8}
                className={`${styles.node} ${GROUP_CLASS[node.group]}`}
              />
              <text
                x={node.x + NODE_WIDTH / 2}
                y={node.y + NODE_HEIGHT / 2}
                dominantBaseline="central"
                textAnchor="middle"
                className={`${styles.label} ${isFilled ? styles.labelOnFill : ''}`}
              >
                {shorten(node.label)}
              </text>
            </g>
          )
        })}
      </g>
    </svg>
  )
}
