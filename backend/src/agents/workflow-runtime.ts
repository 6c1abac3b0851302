import type { AgentTraceEntry } from '../../../contracts/agents'
import type { AgentCheckpoint, AgentState } from './agent-state'
import type { Reasoning } from './reasoning'
import type { ToolRegistry } from './tools/agent-tool'
import { WORKFLOW_STEPS, isTransitionAllowed, type WorkflowStepId, type WorkflowTarget } from './workflow-definition'

/** max_iteration 0 in Agent settings means this many loops. */
export const DEFAULT_MAX_ITERATION = 3

/** The loop limit a run keeps to. */
export const effectiveMaxIteration = (maxIteration: number) => (maxIteration > 0 ? maxIteration : DEFAULT_MAX_ITERATION)

/** Why a run stopped before its end: cancelled by someone, or the backend is shutting down (it resumes later). */
export type StopReason = 'cancelled' | 'shutdown'

/** What the steps of one run may use; none of it is persisted, so a resumed run gets it afresh. */
export interface StepContext {
  signal: AbortSignal
  reasoning: Reasoning
  tools: ToolRegistry
  /** The tools Agent settings let this variant call. */
  allowedTools: string[]
  weightOf(stem: string): number
  timezone: string
  /** Bot settings' num_sources_k: passages per search in the first loop, widened by as much on each further loop. */
  sourcesPerSearch: number
  scoreThreshold: number
  /** The government agent's template name, for the document's title. */
  templateName: string | null
  /** The government agent's template instructions: how its whole document is written (a model reads them). */
  templateInstructions?: string | null
  now(): Date
}

export type StepHandler = (state: AgentState, context: StepContext) => Promise<{ state: AgentState; next: WorkflowTarget }>

export interface RunHooks {
  /** Checked between steps: a run cancelled by another process stops at its next step. */
  isCancelled(): Promise<boolean>
  /** Persists the checkpoint after every step, so that a restart resumes from there. */
  save(checkpoint: AgentCheckpoint): Promise<void>
}

export type RunOutcome = { kind: 'ended'; state: AgentState } | { kind: 'stopped'; reason: StopReason; state: AgentState }

// A guard against a step that never hands over to the end: far more steps than max_iteration (at most 50) allows.
const MAX_STEPS_PER_RUN = 500

/** Adds a trace entry, timed from `startedAt` (performance.now()). */
export function traceEntry(
  context: Pick<StepContext, 'now'>,
  entry: Omit<AgentTraceEntry, 'duration_ms' | 'at' | 'tool' | 'input' | 'error'> & Partial<Pick<AgentTraceEntry, 'tool' | 'input' | 'error'>>,
  startedAt: number,
): AgentTraceEntry {
  return {
    tool: null,
    input: null,
    error: null,
    ...entry,
    duration_ms: Math.max(0, Math.round(performance.now() - startedAt)),
    at: context.now().toISOString(),
  }
}

const stopReasonOf = (signal: AbortSignal): StopReason => (signal.reason === 'cancelled' ? 'cancelled' : 'shutdown')

/**
 * Walks the workflow graph from a checkpoint: runs the step it names, checks that the step hands over along a
 * transition of WORKFLOW_TRANSITIONS, saves the new checkpoint, and goes on until the end. A cancellation or a
 * shutdown (the context's signal, or isCancelled) stops it between steps, or inside a tool that listens.
 */
export async function runWorkflow(
  checkpoint: AgentCheckpoint,
  handlers: Record<WorkflowStepId, StepHandler>,
  context: StepContext,
  hooks: RunHooks,
): Promise<RunOutcome> {
  let { state, next } = checkpoint
  const variantSteps: readonly string[] = WORKFLOW_STEPS[state.variant].map((step) => step.id)
  for (let count = 0; next !== 'end'; count++) {
    if (count >= MAX_STEPS_PER_RUN) throw new Error(`The ${state.variant} workflow ran ${MAX_STEPS_PER_RUN} steps without ending`)
    if (context.signal.aborted) return { kind: 'stopped', reason: stopReasonOf(context.signal), state }
    if (await hooks.isCancelled()) return { kind: 'stopped', reason: 'cancelled', state }
    const step: WorkflowStepId = next
    if (!variantSteps.includes(step)) throw new Error(`The ${state.variant} workflow has no step ${step}`)
    let outcome: Awaited<ReturnType<StepHandler>>
    try {
      outcome = await handlers[step](state, context)
    } catch (error) {
      if (context.signal.aborted) return { kind: 'stopped', reason: stopReasonOf(context.signal), state }
      throw error
    }
    if (!isTransitionAllowed(state.variant, step, outcome.next)) throw new Error(`Step ${step} may not hand over to ${outcome.next}`)
    ;({ state, next } = outcome)
    await hooks.save({ state, next })
  }
  return { kind: 'ended', state }
}
