import { useEffect, useRef, useState } from 'react'
import type { WorkflowGraph as Graph } from '../../../contracts/settings'
import * as styles from './graph.css'
import { layoutGraph, NODE_WIDTH } from './layout'
import { WorkflowGraphSvg } from './workflow-graph-svg'

type VisModule = typeof import('vis-network/standalone')
type Status = 'static' | 'drawing' | 'interactive'

/** Theme colours as the browser resolved them, for the canvas (which cannot read CSS variables). */
function themeColors(element: HTMLElement) {
  const probe = (property: 'color' | 'backgroundColor' | 'borderColor', className: string) => {
    const node = document.createElement('span')
    node.className = className
    element.appendChild(node)
    const value = getComputedStyle(node)[property]
    node.remove()
    return value
  }
  return {
    text: getComputedStyle(element).color,
    step: probe('color', styles.swatchStep),
    onStep: probe('color', styles.swatchOnStep),
    terminal: probe('color', styles.swatchTerminal),
    surface: probe('color', styles.swatchSurface),
    muted: probe('color', styles.swatchMuted),
  }
}

/**
 * The agent workflow graph. The server-rendered SVG is the picture without JavaScript and until vis-network has
 * loaded (it is imported only in the browser, only on this screen); then the same nodes, in the same places,
 * become an interactive network that can be dragged, zoomed and explored with the keyboard.
 */
export function WorkflowGraph({ graph, title, descriptionId }: { graph: Graph; title: string; descriptionId?: string }) {
  const containerRef = useRef<HTMLDivElement>(null)
  const visRef = useRef<VisModule | null>(null)
  const [status, setStatus] = useState<Status>('static')

  useEffect(() => {
    let isCancelled = false
    import('vis-network/standalone')
      .then((vis) => {
        if (isCancelled) return
        visRef.current = vis
        setStatus('drawing')
      })
      // Without vis-network the SVG stays: nothing is lost.
      .catch(() => {})
    return () => {
      isCancelled = true
    }
  }, [])

  useEffect(() => {
    const vis = visRef.current
    const container = containerRef.current
    if (status === 'static' || !vis || !container) return
    const layout = layoutGraph(graph)
    const colors = themeColors(container)
    const nodeColor = (group: string) =>
      group === 'step'
        ? { background: colors.step, border: colors.step, font: colors.onStep }
        : group === 'start' || group === 'end'
        ? { background: colors.terminal, border: colors.terminal, font: colors.onStep }
        : { background: colors.surface, border: group === 'agent' ? colors.step : colors.muted, font: colors.text }
    const network = new vis.Network(
      container,
      {
        nodes: layout.nodes.map((node) => {
          const color = nodeColor(node.group)
          return {
            id: node.id,
            label: node.label,
            title: node.title ? `${node.label}: ${node.title}` : node.label,
            x: node.x + NODE_WIDTH / 2,
            y: node.y,
            shape: 'box',
            shapeProperties: { borderDashes: node.group === 'tool' ? [4, 3] : false },
            color: { background: color.background, border: color.border, highlight: { background: color.background, border: colors.text } },
            font: { color: color.font },
            widthConstraint: { minimum: 100, maximum: NODE_WIDTH },
            margin: { top: 10, bottom: 10, left: 10, right: 10 },
          }
        }),
        edges: layout.edges.map((edge, index) => ({
          id: `${edge.from}->${edge.to}-${index}`,
          from: edge.from,
          to: edge.to,
          label: edge.label && edge.label.length > 16 ? `${edge.label.slice(0, 15)}…` : edge.label,
          title: edge.label,
          dashes: edge.dashes ?? false,
          arrows: 'to',
          color: { color: colors.muted, highlight: colors.text },
          font: { size: 11, color: colors.muted, strokeWidth: 0 },
          smooth: edge.isBack ? { enabled: true, type: 'curvedCW', roundness: 0.35 } : { enabled: true, type: 'cubicBezier', roundness: 0.4 },
        })),
      },
      {
        physics: false,
        interaction: { hover: true, keyboard: { enabled: true, bindToWindow: false }, navigationButtons: true, tooltipDelay: 150 },
      },
    )
    network.once('afterDrawing', () => setStatus('interactive'))
    network.fit()
    return () => network.destroy()
  }, [graph, status === 'static'])

  return (
    <div className={styles.frame}>
      <div
        ref={containerRef}
        className={styles.interactive}
        style={{ display: status === 'static' ? 'none' : undefined }}
        role="group"
        aria-label={`${title} (interactive: drag to move, scroll to zoom, arrow keys to pan)`}
        aria-describedby={descriptionId}
        tabIndex={status === 'interactive' ? 0 : -1}
        data-testid="workflow-graph-interactive"
        data-status={status}
      />
      {status === 'interactive' ? null : (
        <div style={status === 'drawing' ? { position: 'absolute', visibility: 'hidden' } : undefined}>
          <WorkflowGraphSvg graph={graph} title={title} />
        </div>
      )}
    </div>
  )
}
