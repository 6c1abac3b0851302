import type { AgentSettings, WorkflowGraph } from '../../../contracts/settings'

/** Fields of the agent's typed state; the graph screen hides the two that change every step. */
export const AGENT_STATE_FIELDS = [
  'command',
  'variant',
  'sub_questions',
  'evidence',
  'current_grade',
  'current_answer',
  'source_list',
  'iteration',
  'max_iteration',
  'template_id',
  'sections',
  'steps',
  'error',
] as const

export type AgentStateField = (typeof AGENT_STATE_FIELDS)[number]

export const HIDDEN_STATE_FIELDS = ['current_answer', 'current_grade']

/** The steps of each workflow variant, in order; `grade` may loop back to `plan`. */
export const WORKFLOW_STEPS = {
  general: [
    { id: 'plan', description: 'Plan the command into sub-questions' },
    { id: 'retrieve', description: 'Retrieve evidence for each sub-question from the knowledge base' },
    { id: 'grade', description: 'Grade the evidence (current_grade); loop while too low, up to max_iteration' },
    { id: 'compose', description: 'Compose the answer with its sources (current_answer)' },
  ],
  government: [
    { id: 'plan', description: 'Plan each template section into sub-questions' },
    { id: 'retrieve', description: 'Retrieve evidence for each section from the knowledge base' },
    { id: 'grade', description: 'Grade each section’s evidence (current_grade); loop while too low, up to max_iteration' },
    { id: 'fill_template', description: 'Fill the template section by section, each with its sources' },
  ],
} as const

export type WorkflowVariant = keyof typeof WORKFLOW_STEPS
export type WorkflowStepId = (typeof WORKFLOW_STEPS)[WorkflowVariant][number]['id']
/** Where a step may hand over to: another step, or the end of the run. */
export type WorkflowTarget = WorkflowStepId | 'end'

export interface WorkflowTransition {
  from: WorkflowStepId
  to: WorkflowTarget
  /** Why this way is taken, when a step has more than one way out. */
  when?: string
}

/**
 * Every way from one step to the next. The runtime refuses a transition that is not listed here and the graph
 * is drawn from this list, so what the Settings screen shows is what runs.
 */
export const WORKFLOW_TRANSITIONS: Record<WorkflowVariant, readonly WorkflowTransition[]> = {
  general: [
    { from: 'plan', to: 'retrieve' },
    { from: 'plan', to: 'end', when: 'the command names no subject' },
    { from: 'retrieve', to: 'grade' },
    { from: 'grade', to: 'plan', when: 'grade too low' },
    { from: 'grade', to: 'compose', when: 'grade high enough, or max_iteration reached' },
    { from: 'compose', to: 'end' },
  ],
  government: [
    { from: 'plan', to: 'retrieve' },
    { from: 'retrieve', to: 'grade' },
    { from: 'grade', to: 'plan', when: 'grade too low' },
    { from: 'grade', to: 'fill_template', when: 'grade high enough, or max_iteration reached' },
    { from: 'fill_template', to: 'end' },
  ],
}

/** The step that calls the tools, where the graph attaches the agent and its tools. */
export const TOOL_STEP: WorkflowStepId = 'retrieve'

export const firstStepOf = (variant: WorkflowVariant): WorkflowStepId => WORKFLOW_STEPS[variant][0].id

export const isTransitionAllowed = (variant: WorkflowVariant, from: WorkflowStepId, to: WorkflowTarget): boolean =>
  WORKFLOW_TRANSITIONS[variant].some((transition) => transition.from === from && transition.to === to)

/** Tool names listed in an agent's *_tools fields (comma-separated), in order, without repeats. */
export function toolNamesOf(agent: Record<string, string>): string[] {
  const names = Object.entries(agent)
    .filter(([field]) => field.endsWith('_tools'))
    .flatMap(([, value]) => value.split(',').map((name) => name.trim()))
    .filter(Boolean)
  return [...new Set(names)]
}

/** The configured agent that runs a variant: the agent named after it, if there is one. */
export const agentOf = (variant: WorkflowVariant, settings: AgentSettings): Record<string, string> | undefined =>
  settings.agents.find((agent) => agent.name?.trim().toLowerCase() === variant)

/**
 * The variants that run: each has an agent named after it. Removing a variant's agent turns that variant off
 * (ADR 280): new runs are refused and its screen says so.
 */
export const runnableVariantsOf = (settings: AgentSettings): WorkflowVariant[] =>
  (Object.keys(WORKFLOW_STEPS) as WorkflowVariant[]).filter((variant) => agentOf(variant, settings) !== undefined)

/**
 * The configured tools a variant may call: the ones its agent lists, and none when no agent is named after the
 * variant (a run queued before its agent was removed gets nothing, not everything).
 */
export function allowedToolsOf(variant: WorkflowVariant, settings: AgentSettings): string[] {
  const agent = agentOf(variant, settings)
  if (!agent) return []
  const configuredNames = new Set(settings.tools.map((tool) => tool.name))
  return toolNamesOf(agent).filter((name) => configuredNames.has(name))
}

/** Nodes and edges of the configured workflow (steps, agents, tools) for the Settings graph. */
export function buildWorkflowGraph(variant: WorkflowVariant, settings: AgentSettings): WorkflowGraph {
  const steps = WORKFLOW_STEPS[variant]
  const stepIds: readonly string[] = steps.map((step) => step.id)
  const nodeOf = (target: WorkflowTarget) => (target === 'end' ? 'end' : `step:${target}`)
  const positionOf = (target: WorkflowTarget) => (target === 'end' ? stepIds.length : stepIds.indexOf(target))
  const nodes: WorkflowGraph['nodes'] = [
    { id: 'start', label: 'Start', group: 'start', title: 'The command arrives' },
    ...steps.map((step) => ({ id: `step:${step.id}`, label: step.id, group: 'step' as const, title: step.description })),
    { id: 'end', label: 'End', group: 'end', title: 'The answer is returned' },
  ]
  const edges: WorkflowGraph['edges'] = [
    { from: 'start', to: nodeOf(firstStepOf(variant)) },
    ...WORKFLOW_TRANSITIONS[variant].map((transition) => ({
      from: nodeOf(transition.from),
      to: nodeOf(transition.to),
      ...(transition.when ? { label: transition.when } : {}),
      // A way back (the grade loop) is drawn dashed so the main path reads from start to end.
      ...(positionOf(transition.to) <= positionOf(transition.from) ? { dashes: true } : {}),
    })),
  ]
  const toolNames = new Set(settings.tools.map((tool) => tool.name))
  for (const tool of settings.tools) nodes.push({ id: `tool:${tool.name}`, label: tool.name, group: 'tool', title: tool.description })
  const runningAgent = agentOf(variant, settings)
  for (const agent of settings.agents) {
    const agentId = `agent:${agent.name}`
    nodes.push({ id: agentId, label: agent.name, group: 'agent', title: agent.description ?? '' })
    if (agent === runningAgent) edges.push({ from: `step:${TOOL_STEP}`, to: agentId, label: 'delegates', dashes: true })
    for (const name of toolNamesOf(agent).filter((name) => toolNames.has(name))) edges.push({ from: agentId, to: `tool:${name}`, label: 'uses' })
  }
  // Without an agent named after the variant, the variant is off and its tool step uses no tool.
  return { nodes, edges }
}
