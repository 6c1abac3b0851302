import { parseWithZod } from '@conform-to/zod/v4'
import { describe, expect, it } from 'vitest'
import type { AgentSettings } from '../../../contracts/settings'
import { agentFieldLabel, AgentSettingsForm, applyAgentIntent, checkAgentDraft, readAgentDraft, toAgentDraft, toAgentFormErrors } from './agent-settings-form'

const settings: AgentSettings = {
  llm_model: 'Use default model',
  max_iteration: 2,
  toggle_debug: true,
  semantic_firewall: false,
  query_shortcut_1_query: 'one',
  query_shortcut_1_enabled: true,
  query_shortcut_2_query: 'two',
  query_shortcut_2_enabled: false,
  query_shortcut_3_query: '',
  query_shortcut_3_enabled: false,
  tools: [
    { name: 'search', description: 'Searches' },
    { name: 'clock', description: 'Tells the time' },
  ],
  agents: [{ name: 'general', description: 'Answers', general_tools: 'search, clock' }],
}

/** The form as a browser posts it: switches as a hidden 'false' and, when on, a 'true'. */
function post(entries: [string, string][]) {
  const form = new FormData()
  for (const [key, value] of entries) form.append(key, value)
  return form
}

const posted: [string, string][] = [
  ['llm_model', ''],
  ['max_iteration', '3'],
  ['toggle_debug', 'false'],
  ['toggle_debug', 'true'],
  ['semantic_firewall', 'false'],
  ['query_shortcut_1_query', 'one'],
  ['query_shortcut_1_enabled', 'false'],
  ['query_shortcut_1_enabled', 'true'],
  ['query_shortcut_2_query', ''],
  ['query_shortcut_2_enabled', 'false'],
  ['query_shortcut_3_query', ''],
  ['query_shortcut_3_enabled', 'false'],
  ['tool_0_name', 'search'],
  ['tool_0_description', 'Searches'],
  ['tool_1_name', ''],
  ['tool_1_description', ''],
  ['tool_2_name', ' clock '],
  ['tool_2_description', 'Tells the time'],
  ['agent_0_name', 'general'],
  ['agent_0_description', ''],
  ['agent_0_general_tools', 'search,clock'],
  ['agent_0__new_field', 'tone'],
  ['agent_0__new_value', 'friendly'],
]

describe('the agent-settings form', () => {
  it('shows the stored settings with an empty tool row and the default model as the empty choice', () => {
    const draft = toAgentDraft(settings)
    expect(draft.llm_model).toBe('')
    expect(draft.tools).toHaveLength(3)
    expect(draft.tools[2]).toEqual({ name: '', description: '' })
    expect(draft.agents[0]).toEqual({
      fields: [
        ['name', 'general'],
        ['description', 'Answers'],
        ['general_tools', 'search, clock'],
      ],
      newField: { name: '', value: '' },
    })
  })

  it("turns the posted form into the backend's update: no blank rows, no blank agent fields, a new field added", () => {
    const submission = parseWithZod(post(posted), { schema: AgentSettingsForm })
    expect(submission.status).toBe('success')
    if (submission.status !== 'success') return
    expect(submission.value).toMatchObject({
      llm_model: 'Use default model',
      max_iteration: 3,
      toggle_debug: 'true',
      semantic_firewall: 'false',
      query_shortcut_1_enabled: 'true',
      query_shortcut_2_query: '',
      tools: [
        { name: 'search', description: 'Searches' },
        { name: 'clock', description: 'Tells the time' },
      ],
      agents: [{ name: 'general', general_tools: 'search, clock', tone: 'friendly' }],
    })
  })

  it('names the form field of each problem', () => {
    const draft = readAgentDraft(
      Object.fromEntries(
        posted.map(([key, value]) =>
          key === 'agent_0_general_tools'
            ? [key, 'search, teleport']
            : key === 'tool_2_name'
            ? [key, 'search']
            : key === 'max_iteration'
            ? [key, '99']
            : [key, value],
        ),
      ),
    )
    const { errors } = checkAgentDraft(draft)
    expect(Object.keys(errors).sort()).toEqual(['agent_0_general_tools', 'max_iteration', 'tool_2_name'])
    expect(errors.agent_0_general_tools[0]).toMatch(/Unknown tool teleport/)
  })

  it('keeps a refused new field in its boxes, with the problem beside it, and adds nothing to the agent', () => {
    const withNewField = (name: string, value: string) =>
      readAgentDraft(
        Object.fromEntries(
          posted.map(([key, posted]) => (key === 'agent_0__new_field' ? [key, name] : key === 'agent_0__new_value' ? [key, value] : [key, posted])),
        ),
      )
    const badName = withNewField('Bad Name!', 'some value')
    expect(badName.agents[0].fields.map(([field]) => field)).toEqual(['name', 'description', 'general_tools'])
    expect(badName.agents[0].newField).toEqual({ name: 'Bad Name!', value: 'some value' })
    expect(checkAgentDraft(badName).errors).toEqual({ agent_0__new_field: [expect.stringMatching(/lower-case letters/)] })
    expect(checkAgentDraft(withNewField('description', 'again')).errors).toEqual({ agent_0__new_field: ['This agent already has a field "description"'] })
    expect(checkAgentDraft(withNewField('tone', ' ')).errors).toEqual({ agent_0__new_value: ['Please enter a value for the new field'] })
    expect(Object.keys(checkAgentDraft(withNewField('extra_tools', 'teleport')).errors)).toEqual(['agent_0__new_value'])
    expect(toAgentFormErrors({ 'agents.general.tone': ['too long'] }, withNewField('tone', 'x'))).toEqual({ agent_0__new_value: ['too long'] })
  })

  it('adds and removes rows without saving, always keeping an empty tool row', () => {
    const draft = toAgentDraft(settings)
    expect(applyAgentIntent(draft, 'add-tool').tools).toHaveLength(4)
    const withoutSearch = applyAgentIntent(draft, 'remove-tool:0')
    expect(withoutSearch.tools.map((tool) => tool.name)).toEqual(['clock', ''])
    expect(applyAgentIntent(applyAgentIntent(draft, 'remove-tool:2'), 'remove-tool:1').tools.at(-1)).toEqual({ name: '', description: '' })
    const withAgent = applyAgentIntent(draft, 'add-agent')
    expect(withAgent.agents).toHaveLength(2)
    expect(applyAgentIntent(withAgent, 'remove-agent:0').agents[0].fields[0]).toEqual(['name', ''])
  })

  it("puts the backend's field errors on the form's fields, counting rows as the form shows them", () => {
    const draft = readAgentDraft(Object.fromEntries(posted))
    const errors = toAgentFormErrors(
      { 'agents.general.general_tools': ['Unknown tool x'], 'tools.1.name': ['bad'], max_iteration: ['too big'], something: ['?'] },
      draft,
    )
    expect(errors).toEqual({ agent_0_general_tools: ['Unknown tool x'], tool_2_name: ['bad'], max_iteration: ['too big'], '': ['?'] })
  })
})

describe('agentFieldLabel', () => {
  it('names each field as the screen labels it, in the order of the page', () => {
    const names = ['agent_1_tools', 'tool_4_name', 'agent_0__new_field', 'max_iteration', 'query_shortcut_2_query', 'agent_0_instructions', 'llm_model']
    const labelled = names.map((name) => agentFieldLabel(name)).sort((a, b) => a.order - b.order)
    expect(labelled.map((field) => field.label)).toEqual([
      'LLM model',
      'Max iterations',
      'Shortcut 2 query',
      'Tool 5 name',
      'Agent 1 instructions',
      'Agent 1 new field name',
      'Agent 2 tools',
    ])
  })
})
