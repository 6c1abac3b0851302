import { describe, expect, it } from 'vitest'
import type { WorkflowGraph } from '../../../contracts/settings'
import { layoutGraph } from './layout'

const graph: WorkflowGraph = {
  nodes: [
    { id: 'start', label: 'Start', group: 'start', title: '' },
    { id: 'step:plan', label: 'plan', group: 'step', title: '' },
    { id: 'step:retrieve', label: 'retrieve', group: 'step', title: '' },
    { id: 'step:grade', label: 'grade', group: 'step', title: '' },
    { id: 'end', label: 'End', group: 'end', title: '' },
    { id: 'tool:search', label: 'search', group: 'tool', title: '' },
    { id: 'tool:unused', label: 'unused', group: 'tool', title: '' },
    { id: 'agent:general', label: 'general', group: 'agent', title: '' },
    { id: 'agent:other', label: 'other', group: 'agent', title: '' },
  ],
  edges: [
    { from: 'start', to: 'step:plan' },
    { from: 'step:plan', to: 'step:retrieve' },
    { from: 'step:retrieve', to: 'step:grade' },
    { from: 'step:grade', to: 'end' },
    { from: 'step:grade', to: 'step:plan', label: 'grade too low', dashes: true },
    { from: 'step:retrieve', to: 'agent:general', label: 'delegates', dashes: true },
    { from: 'agent:general', to: 'tool:search', label: 'uses' },
    { from: 'agent:other', to: 'tool:search', label: 'uses' },
  ],
}

describe('layoutGraph', () => {
  const layout = layoutGraph(graph)
  const layerOf = (id: string) => layout.nodes.find((node) => node.id === id)!.layer

  it('puts each step one layer right of the one before it', () => {
    expect(['start', 'step:plan', 'step:retrieve', 'step:grade', 'end'].map(layerOf)).toEqual([0, 1, 2, 3, 4])
  })

  it('sets aside the edge that closes the loop, and marks it to be drawn as an arc', () => {
    expect(layout.edges.find((edge) => edge.from === 'step:grade' && edge.to === 'step:plan')?.isBack).toBe(true)
    expect(layout.edges.filter((edge) => edge.isBack)).toHaveLength(1)
  })

  it('places an agent nothing leads to just left of the tools it uses, and an unused tool with the other tools', () => {
    expect(layerOf('agent:general')).toBe(3)
    expect(layerOf('agent:other')).toBe(layerOf('tool:search') - 1)
    expect(layerOf('tool:unused')).toBe(layerOf('tool:search'))
  })

  it('stacks a layer by group, steps first, and never puts two nodes in one place', () => {
    const grade = layout.nodes.find((node) => node.id === 'step:grade')!
    const general = layout.nodes.find((node) => node.id === 'agent:general')!
    expect(grade.y).toBeLessThan(general.y)
    const places = new Set(layout.nodes.map((node) => `${node.x},${node.y}`))
    expect(places.size).toBe(layout.nodes.length)
    for (const node of layout.nodes) {
      expect(node.x).toBeGreaterThanOrEqual(0)
      expect(node.x).toBeLessThan(layout.width)
      expect(node.y).toBeLessThan(layout.height)
    }
  })

  it('lays out the same graph the same way every time', () => {
    expect(layoutGraph(graph)).toEqual(layout)
  })

  it('ignores an edge to a node that is not in the graph', () => {
    const broken = layoutGraph({ ...graph, edges: [...graph.edges, { from: 'step:plan', to: 'tool:missing' }] })
    expect(broken.edges).toHaveLength(graph.edges.length)
  })
})
