import type { WorkflowGraph } from '../../../contracts/settings'

type GraphNode = WorkflowGraph['nodes'][number]
type GraphEdge = WorkflowGraph['edges'][number]

export interface PlacedNode extends GraphNode {
  layer: number
  x: number
  y: number
}

export interface PlacedEdge extends GraphEdge {
  /** An edge that goes back to an earlier (or the same) layer, such as grade → plan; drawn as an arc. */
  isBack: boolean
}

export interface GraphLayout {
  nodes: PlacedNode[]
  edges: PlacedEdge[]
  width: number
  height: number
}

export const NODE_WIDTH = 150
export const NODE_HEIGHT = 44
const LAYER_GAP = 84
const ROW_GAP = 26
const MARGIN = 24
// Room above the first row for arcs of back edges.
const ARC_SPACE = 56

const GROUP_ORDER: Record<GraphNode['group'], number> = { start: 0, step: 1, end: 2, agent: 3, tool: 4 }

/**
 * A simple layered layout, the same for the same graph: edges that close a cycle (found by a depth-first walk in
 * node order from the nodes nothing points to) are set aside, every other node goes one layer right of its
 * furthest predecessor, and each layer stacks its nodes by group, then in the graph's order. A node only the
 * start may have no predecessor; any other such node sits just left of its nearest successor. Nodes nothing
 * connects to (a tool no agent uses) go in the layer of their group's other members, else the last layer.
 */
export function layoutGraph(graph: WorkflowGraph): GraphLayout {
  const ids = graph.nodes.map((node) => node.id)
  const known = new Set(ids)
  const edges = graph.edges.filter((edge) => known.has(edge.from) && known.has(edge.to))
  const outgoing = new Map<string, GraphEdge[]>(ids.map((id) => [id, []]))
  const incoming = new Map<string, number>(ids.map((id) => [id, 0]))
  for (const edge of edges) {
    outgoing.get(edge.from)!.push(edge)
    incoming.set(edge.to, incoming.get(edge.to)! + 1)
  }

  // Depth-first from the roots (then from anything left) to tell back edges from forward ones.
  const backEdges = new Set<GraphEdge>()
  const state = new Map<string, 'visiting' | 'done'>()
  const visit = (id: string) => {
    state.set(id, 'visiting')
    for (const edge of outgoing.get(id)!) {
      const next = state.get(edge.to)
      if (next === 'visiting') backEdges.add(edge)
      else if (!next) visit(edge.to)
    }
    state.set(id, 'done')
  }
  for (const id of ids) if (incoming.get(id) === 0 && !state.has(id)) visit(id)
  for (const id of ids) if (!state.has(id)) visit(id)

  // Longest path over the forward edges (a DAG now), in a topological order.
  const forward = edges.filter((edge) => !backEdges.has(edge))
  const remaining = new Map<string, number>(ids.map((id) => [id, 0]))
  for (const edge of forward) remaining.set(edge.to, remaining.get(edge.to)! + 1)
  const layer = new Map<string, number>(ids.map((id) => [id, 0]))
  const queue = ids.filter((id) => remaining.get(id) === 0)
  while (queue.length) {
    const id = queue.shift()!
    for (const edge of forward.filter((candidate) => candidate.from === id)) {
      layer.set(edge.to, Math.max(layer.get(edge.to)!, layer.get(id)! + 1))
      remaining.set(edge.to, remaining.get(edge.to)! - 1)
      if (remaining.get(edge.to) === 0) queue.push(edge.to)
    }
  }

  // A node nothing leads to, other than the start (an agent of the other variant), sits just left of what it
  // points to rather than in the first layer.
  for (const id of [...ids].reverse()) {
    const node = graph.nodes.find((candidate) => candidate.id === id)!
    const successors = forward.filter((edge) => edge.from === id).map((edge) => layer.get(edge.to)!)
    if (node.group !== 'start' && incoming.get(id) === 0 && successors.length) layer.set(id, Math.max(0, Math.min(...successors) - 1))
  }

  const connected = new Set(edges.flatMap((edge) => [edge.from, edge.to]))
  const lastLayer = Math.max(0, ...ids.filter((id) => connected.has(id)).map((id) => layer.get(id)!))
  for (const node of graph.nodes) {
    if (connected.has(node.id)) continue
    const peers = graph.nodes.filter((other) => other.group === node.group && connected.has(other.id)).map((other) => layer.get(other.id)!)
    layer.set(node.id, peers.length ? Math.max(...peers) : lastLayer)
  }

  const layers = new Map<number, GraphNode[]>()
  for (const node of graph.nodes) {
    const index = layer.get(node.id)!
    layers.set(index, [...(layers.get(index) ?? []), node])
  }
  const order = new Map(ids.map((id, index) => [id, index]))
  const placed: PlacedNode[] = []
  let maxRows = 1
  for (const [index, members] of [...layers.entries()].sort(([a], [b]) => a - b)) {
    members.sort((a, b) => GROUP_ORDER[a.group] - GROUP_ORDER[b.group] || order.get(a.id)! - order.get(b.id)!)
    maxRows = Math.max(maxRows, members.length)
    members.forEach((node, row) => {
      placed.push({ ...node, layer: index, x: MARGIN + index * (NODE_WIDTH + LAYER_GAP), y: MARGIN + ARC_SPACE + row * (NODE_HEIGHT + ROW_GAP) })
    })
  }
  const layerCount = Math.max(0, ...placed.map((node) => node.layer)) + 1
  return {
    nodes: placed,
    edges: edges.map((edge) => ({ ...edge, isBack: backEdges.has(edge) || layer.get(edge.to)! <= layer.get(edge.from)! })),
    width: MARGIN * 2 + layerCount * NODE_WIDTH + (layerCount - 1) * LAYER_GAP,
    height: MARGIN * 2 + ARC_SPACE + maxRows * NODE_HEIGHT + (maxRows - 1) * ROW_GAP,
  }
}
