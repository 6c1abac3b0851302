import { describe, expect, it } from 'vitest'
import { defaultAgentSettings } from '../modules/settings/settings.defaults'
import { WORKFLOW_HANDLERS } from './workflow-steps'
import { AGENT_STATE_FIELDS, WORKFLOW_STEPS, WORKFLOW_TRANSITIONS, allowedToolsOf, buildWorkflowGraph, runnableVariantsOf, type WorkflowVariant } from './workflow-definition'

const VARIANTS: WorkflowVariant[] = ['general', 'government']

describe('the workflow definition', () => {
  it.each(VARIANTS)('has a handler for every %s step, and transitions only between its steps', (variant) => {
    const ids: string[] = WORKFLOW_STEPS[variant].map((step) => step.id)
    for (const id of ids) expect(WORKFLOW_HANDLERS).toHaveProperty(id)
    for (const transition of WORKFLOW_TRANSITIONS[variant]) {
      expect(ids).toContain(transition.from)
      expect([...ids, 'end']).toContain(transition.to)
    }
  })

  it.each(VARIANTS)('draws the %s graph from the transitions the runtime follows', (variant) => {
    const graph = buildWorkflowGraph(variant, defaultAgentSettings)
    const node = (target: string) => (target === 'end' ? 'end' : `step:${target}`)
    for (const transition of WORKFLOW_TRANSITIONS[variant]) {
      expect(graph.edges).toContainEqual(expect.objectContaining({ from: node(transition.from), to: node(transition.to) }))
    }
    expect(graph.edges).toContainEqual({ from: 'step:grade', to: 'step:plan', label: 'grade too low', dashes: true })
    expect(graph.edges).toContainEqual({ from: 'step:retrieve', to: `agent:${variant}`, label: 'delegates', dashes: true })
    const stepEdges = graph.edges.filter((edge) => edge.from.startsWith('step:') && edge.to.startsWith('step:'))
    expect(stepEdges).toHaveLength(WORKFLOW_TRANSITIONS[variant].filter((transition) => transition.to !== 'end').length)
  })

  it('lets a variant use its agent’s tools, and none when no agent is named after it', () => {
    expect(allowedToolsOf('government', defaultAgentSettings)).toEqual(['knowledge_search', 'article_lookup', 'date_time'])
    expect(allowedToolsOf('general', { ...defaultAgentSettings, agents: [] })).toEqual([])
    const onlyGeneral = { ...defaultAgentSettings, agents: defaultAgentSettings.agents.filter((agent) => agent.name === 'general') }
    expect(allowedToolsOf('government', onlyGeneral)).toEqual([])
    expect(runnableVariantsOf(onlyGeneral)).toEqual(['general'])
    expect(runnableVariantsOf(defaultAgentSettings)).toEqual(['general', 'government'])
  })

  it('draws no tool in use for a variant whose agent was removed', () => {
    const graph = buildWorkflowGraph('government', { ...defaultAgentSettings, agents: defaultAgentSettings.agents.filter((agent) => agent.name === 'general') })
    expect(graph.edges.filter((edge) => edge.from === 'step:retrieve' && edge.to !== 'step:grade')).toEqual([])
    expect(graph.edges.filter((edge) => edge.to.startsWith('tool:')).every((edge) => edge.from === 'agent:general')).toBe(true)
  })

  it('lists the state fields the runtime state has', () => {
    expect(AGENT_STATE_FIELDS).toContain('current_grade')
    expect(new Set(AGENT_STATE_FIELDS).size).toBe(AGENT_STATE_FIELDS.length)
  })
})
