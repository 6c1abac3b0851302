import { z } from 'zod'
import { USE_DEFAULT_MODEL, type AgentSettings } from '../../../contracts/settings'
import { humanize } from '~/utils/labels'

/**
 * The agent-settings form works on flat, prefixed keys (SEED.md §3): `query_shortcut_N_query`/`_enabled`,
 * `tool_{row}_name`/`_description` and `agent_{row}_{field}`, plus `agent_{row}__new_field`/`__new_value` to give
 * an agent another field. A draft is what the form shows; adding or removing rows edits the draft on the server,
 * so it works without JavaScript.
 */
export interface AgentRowDraft {
  /** The agent's fields in order, as [field, value] pairs. */
  fields: [string, string][]
  /** What is typed in the New field name / value boxes: kept there until saved, so a refused one is not lost. */
  newField: { name: string; value: string }
}

export interface AgentDraft {
  /** '' stands for 'Use default model', which is not in the clean model list. */
  llm_model: string
  max_iteration: string
  toggle_debug: boolean
  semantic_firewall: boolean
  shortcuts: { query: string; enabled: boolean }[]
  tools: { name: string; description: string }[]
  agents: AgentRowDraft[]
}

/** Empty tool rows shown after the configured tools, so one can be added without a round trip. */
export const EMPTY_TOOL_ROWS = 1
export const SHORTCUT_COUNT = 3
const FIELD_NAME = /^[a-z][a-z0-9_]*$/
const NEW_AGENT_FIELDS: [string, string][] = [
  ['name', ''],
  ['description', ''],
  ['instructions', ''],
  ['agent_tools', ''],
]

const blankTool = () => ({ name: '', description: '' })
const blankNewField = () => ({ name: '', value: '' })
const blankAgentRow = (): AgentRowDraft => ({ fields: [], newField: blankNewField() })
const isBlankTool = (tool: { name: string; description: string }) => !tool.name.trim() && !tool.description.trim()

export function toAgentDraft(settings: AgentSettings): AgentDraft {
  return {
    llm_model: settings.llm_model === USE_DEFAULT_MODEL ? '' : settings.llm_model,
    max_iteration: String(settings.max_iteration),
    toggle_debug: settings.toggle_debug,
    semantic_firewall: settings.semantic_firewall,
    shortcuts: ([1, 2, 3] as const).map((n) => ({ query: settings[`query_shortcut_${n}_query`], enabled: settings[`query_shortcut_${n}_enabled`] })),
    tools: [...settings.tools.map((tool) => ({ ...tool })), ...Array.from({ length: EMPTY_TOOL_ROWS }, blankTool)],
    agents: settings.agents.map((agent) => ({ fields: Object.entries(agent), newField: blankNewField() })),
  }
}

const lastString = (value: unknown): string => {
  const last = Array.isArray(value) ? value[value.length - 1] : value
  return typeof last === 'string' ? last : ''
}

/** Reads a posted form (or conform's parsed payload) back into a draft, without judging it. */
export function readAgentDraft(raw: Record<string, unknown>): AgentDraft {
  const tools: AgentDraft['tools'] = []
  const agents: AgentDraft['agents'] = []
  for (const [key, value] of Object.entries(raw)) {
    const tool = /^tool_(\d+)_(name|description)$/.exec(key)
    if (tool) {
      const row = Number(tool[1])
      if (row > 200) continue
      tools[row] ??= blankTool()
      tools[row][tool[2] as 'name' | 'description'] = lastString(value)
      continue
    }
    const added = /^agent_(\d+)__new_(field|value)$/.exec(key)
    if (added) {
      const row = Number(added[1])
      if (row > 100) continue
      agents[row] ??= blankAgentRow()
      agents[row].newField[added[2] === 'field' ? 'name' : 'value'] = lastString(value)
      continue
    }
    const agent = /^agent_(\d+)_([a-z][a-z0-9_]*)$/.exec(key)
    if (agent) {
      const row = Number(agent[1])
      if (row > 100) continue
      ;(agents[row] ??= blankAgentRow()).fields.push([agent[2], lastString(value)])
    }
  }
  const denseAgents = Array.from(agents, (agent) => agent ?? blankAgentRow())
  const denseTools = Array.from(tools, (tool) => tool ?? blankTool())
  return {
    llm_model: lastString(raw.llm_model),
    max_iteration: lastString(raw.max_iteration),
    toggle_debug: lastString(raw.toggle_debug) === 'true',
    semantic_firewall: lastString(raw.semantic_firewall) === 'true',
    shortcuts: Array.from({ length: SHORTCUT_COUNT }, (_, index) => ({
      query: lastString(raw[`query_shortcut_${index + 1}_query`]),
      enabled: lastString(raw[`query_shortcut_${index + 1}_enabled`]) === 'true',
    })),
    tools: denseTools,
    agents: denseAgents,
  }
}

/** The row edits the form's submit buttons ask for (`intent`), applied to a draft. */
export function applyAgentIntent(draft: AgentDraft, intent: string): AgentDraft {
  const [verb, arg] = intent.split(':')
  const index = Number(arg)
  switch (verb) {
    case 'add-tool':
      return { ...draft, tools: [...draft.tools, blankTool()] }
    case 'remove-tool': {
      const tools = draft.tools.filter((_, row) => row !== index)
      return { ...draft, tools: tools.some(isBlankTool) ? tools : [...tools, blankTool()] }
    }
    case 'add-agent':
      return { ...draft, agents: [...draft.agents, { fields: NEW_AGENT_FIELDS.map(([field, value]) => [field, value]), newField: blankNewField() }] }
    case 'remove-agent':
      return { ...draft, agents: draft.agents.filter((_, row) => row !== index) }
    default:
      return draft
  }
}

/** The flat form name of a tool's or an agent's field. */
export const toolFieldName = (row: number, field: 'name' | 'description') => `tool_${row}_${field}`
export const agentFieldName = (row: number, field: string) => `agent_${row}_${field}`

const FIXED_FIELD_LABELS: Record<string, string> = { llm_model: 'LLM model', max_iteration: 'Max iterations' }

/**
 * A field of the form by the label the screen gives it, and where it stands on the screen (for the error summary, in
 * the order of the page): "tool_4_name" is "Tool 5 name", "agent_1_tools" "Agent 2 tools".
 */
export function agentFieldLabel(name: string): { label: string; order: number } {
  const shortcut = /^query_shortcut_(\d+)_(query|enabled)$/.exec(name)
  if (shortcut) return { label: `Shortcut ${shortcut[1]} ${shortcut[2]}`, order: 100 + Number(shortcut[1]) }
  const tool = /^tool_(\d+)_(name|description)$/.exec(name)
  if (tool) return { label: `Tool ${Number(tool[1]) + 1} ${tool[2]}`, order: 1_000 + Number(tool[1]) * 10 + (tool[2] === 'name' ? 0 : 1) }
  const agent = /^agent_(\d+)_(.+)$/.exec(name)
  if (agent) {
    const field = agent[2] === '_new_field' ? 'new field name' : agent[2] === '_new_value' ? 'new field value' : humanize(agent[2]).toLowerCase()
    return { label: `Agent ${Number(agent[1]) + 1} ${field}`, order: 100_000 + Number(agent[1]) * 1_000 + (agent[2].startsWith('_new') ? 999 : 0) }
  }
  return { label: FIXED_FIELD_LABELS[name] ?? humanize(name), order: Object.keys(FIXED_FIELD_LABELS).indexOf(name) + 1 }
}

const MaxIteration = z.coerce
  .number({ error: 'Please enter a whole number from 0 to 50' })
  .int('Please enter a whole number from 0 to 50')
  .min(0, 'Please enter a whole number from 0 to 50')
  .max(50, 'Please enter a whole number from 0 to 50')

export interface CheckedAgentSettings {
  update: {
    llm_model: string
    max_iteration: number
    toggle_debug: 'true' | 'false'
    semantic_firewall: 'true' | 'false'
    query_shortcut_1_query: string
    query_shortcut_1_enabled: 'true' | 'false'
    query_shortcut_2_query: string
    query_shortcut_2_enabled: 'true' | 'false'
    query_shortcut_3_query: string
    query_shortcut_3_enabled: 'true' | 'false'
    tools: { name: string; description: string }[]
    agents: Record<string, string>[]
  }
  /** Form errors keyed by flat form name; '' for the whole form. */
  errors: Record<string, string[]>
}

/**
 * Judges a draft as the backend would (and a little more: unique tool names, tools an agent uses must exist),
 * naming the form field of each problem. Blank tool rows are left out; an agent field left blank is removed.
 */
export function checkAgentDraft(draft: AgentDraft): CheckedAgentSettings {
  const errors: Record<string, string[]> = {}
  const fail = (name: string, message: string) => (errors[name] ??= []).push(message)
  const maxIteration = MaxIteration.safeParse(draft.max_iteration.trim() === '' ? undefined : draft.max_iteration)
  if (!maxIteration.success) fail('max_iteration', maxIteration.error.issues[0].message)
  draft.shortcuts.forEach((shortcut, index) => {
    if (shortcut.query.length > 500) fail(`query_shortcut_${index + 1}_query`, 'A shortcut is at most 500 characters')
  })

  const tools: { name: string; description: string }[] = []
  const seen = new Set<string>()
  draft.tools.forEach((tool, row) => {
    if (isBlankTool(tool)) return
    const name = tool.name.trim()
    if (!name) fail(toolFieldName(row, 'name'), 'A tool needs a name')
    else if (name.length > 100) fail(toolFieldName(row, 'name'), 'A tool name is at most 100 characters')
    else if (seen.has(name)) fail(toolFieldName(row, 'name'), `Another tool is already named "${name}"`)
    if (tool.description.length > 2000) fail(toolFieldName(row, 'description'), 'A description is at most 2000 characters')
    seen.add(name)
    tools.push({ name, description: tool.description.trim() })
  })

  const agents: Record<string, string>[] = []
  const agentNames = new Set<string>()
  draft.agents.forEach(({ fields, newField }, row) => {
    const agent: Record<string, string> = {}
    // Each value with the form name its problems are shown at; a new field's is its New field value box.
    const entries: [field: string, value: string, formName: string][] = fields.map(([field, value]) => [field, value, agentFieldName(row, field)])
    const added = newField.name.trim()
    if (added || newField.value.trim()) {
      if (!FIELD_NAME.test(added)) fail(agentFieldName(row, '_new_field'), 'A field name is lower-case letters, digits and _ and starts with a letter')
      else if (fields.some(([field]) => field === added)) fail(agentFieldName(row, '_new_field'), `This agent already has a field "${added}"`)
      else if (!newField.value.trim()) fail(agentFieldName(row, '_new_value'), 'Please enter a value for the new field')
      else entries.push([added, newField.value, agentFieldName(row, '_new_value')])
    }
    for (const [field, value, formName] of entries) {
      if (field !== 'name' && !value.trim()) continue
      if (value.length > 10000) fail(formName, 'A field is at most 10000 characters')
      if (field.endsWith('_tools')) {
        const unknown = value
          .split(',')
          .map((name) => name.trim())
          .filter((name) => name && !seen.has(name))
        if (unknown.length) fail(formName, `Unknown tool ${unknown.join(', ')}; list tools from the Tools section, separated by commas`)
        agent[field] = value
          .split(',')
          .map((name) => name.trim())
          .filter(Boolean)
          .join(', ')
      } else agent[field] = field === 'name' ? value.trim() : value
    }
    if (!agent.name) fail(agentFieldName(row, 'name'), 'An agent needs a name')
    else if (agentNames.has(agent.name)) fail(agentFieldName(row, 'name'), `Another agent is already named "${agent.name}"`)
    agentNames.add(agent.name)
    agents.push(agent)
  })
  if (tools.length > 50) fail('', 'An agent setup has at most 50 tools')
  if (agents.length > 20) fail('', 'An agent setup has at most 20 agents')

  const flag = (value: boolean) => (value ? 'true' : 'false') as 'true' | 'false'
  return {
    errors,
    update: {
      llm_model: draft.llm_model || USE_DEFAULT_MODEL,
      max_iteration: maxIteration.success ? maxIteration.data : 0,
      toggle_debug: flag(draft.toggle_debug),
      semantic_firewall: flag(draft.semantic_firewall),
      query_shortcut_1_query: draft.shortcuts[0].query,
      query_shortcut_1_enabled: flag(draft.shortcuts[0].enabled),
      query_shortcut_2_query: draft.shortcuts[1].query,
      query_shortcut_2_enabled: flag(draft.shortcuts[1].enabled),
      query_shortcut_3_query: draft.shortcuts[2].query,
      query_shortcut_3_enabled: flag(draft.shortcuts[2].enabled),
      tools,
      agents,
    },
  }
}

/** The schema conform validates the form with, on the client and the server; errors carry the flat form names. */
export const AgentSettingsForm = z.record(z.string(), z.unknown()).transform((raw, context) => {
  const checked = checkAgentDraft(readAgentDraft(raw))
  for (const [name, messages] of Object.entries(checked.errors)) {
    for (const message of messages) context.addIssue({ code: 'custom', message, path: name ? [name] : [] })
  }
  return Object.keys(checked.errors).length ? z.NEVER : checked.update
})

/**
 * Backend field names as form names: `agents.{name}.{field}` (an unknown tool) and `agents.{row}.{field}` become
 * `agent_{row}_{field}`; `tools.{row}.name` becomes `tool_{row}_name` (rows counted without blank tool rows).
 */
export function toAgentFormErrors(fieldErrors: Record<string, string[]>, draft: AgentDraft): Record<string, string[]> {
  const errors: Record<string, string[]> = {}
  const toolRows = draft.tools.flatMap((tool, row) => (isBlankTool(tool) ? [] : [row]))
  const agentRow = (key: string) => {
    if (/^\d+$/.test(key)) return Number(key)
    return draft.agents.findIndex(({ fields }) => fields.some(([field, value]) => field === 'name' && value.trim() === key))
  }
  // A field the agent does not show yet is the one typed in its New field boxes.
  const agentFormName = (row: number, field: string) =>
    draft.agents[row]?.fields.some(([shown]) => shown === field) || draft.agents[row]?.newField.name.trim() !== field
      ? agentFieldName(row, field)
      : agentFieldName(row, '_new_value')
  for (const [field, messages] of Object.entries(fieldErrors)) {
    let name = field
    const tool = /^tools\.(\d+)(?:\.(name|description))?$/.exec(field)
    const agent = /^agents\.(.+?)(?:\.([a-z][a-z0-9_]*))?$/.exec(field)
    if (tool) name = toolFieldName(toolRows[Number(tool[1])] ?? 0, (tool[2] as 'name' | 'description') ?? 'name')
    else if (agent && agentRow(agent[1]) >= 0) name = agentFormName(agentRow(agent[1]), agent[2] ?? 'name')
    else if (/^query_shortcut_\d_(query|enabled)$|^(llm_model|max_iteration|toggle_debug|semantic_firewall)$/.test(field)) name = field
    else name = ''
    ;(errors[name] ??= []).push(...messages)
  }
  return errors
}
