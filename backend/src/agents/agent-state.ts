import type { AgentTraceEntry } from '../../../contracts/agents'
import type { Source } from '../../../contracts/ask'
import type { CitableChunk } from '../answering/citations'
import type { AgentStateField, WorkflowTarget, WorkflowVariant } from './workflow-definition'

export interface ToolCall {
  tool: string
  input: string
  /** The id a model gave the call, so that its result can be handed back as the answer to it. */
  id?: string
}

/** A question the planner made of the command (or, for the government agent, of one template section). */
export interface SubQuestion {
  text: string
  /** What the knowledge tools search for: the text, with the context a pronoun refers to. */
  query: string
  /** The template section it fills (government agent); null for the general agent. */
  section: number | null
  /** The calls the next retrieve step makes for it; empty once it is settled. */
  toolCalls: ToolCall[]
  /** Share of its weighted words the evidence covers (0..1); null before the first grade. */
  grade: number | null
  /** Its words the evidence does not contain yet, which a wider plan searches for. */
  missingWords: string[]
  /** Graded well enough (or answered by a fact tool): later loops leave it alone. */
  isSettled: boolean
}

/** What one tool call brought for one sub-question, or why it failed. */
export interface Evidence {
  question: string
  tool: string
  chunks: CitableChunk[]
  statement: string | null
  failure: string | null
}

/** A section of the chosen template, and once filled its text and the source numbers it cites. */
export interface SectionState {
  title: string
  instructions: string
  answer: string | null
  sourceNumbers: number[]
}

/** The typed state every workflow step reads and returns; its fields are AGENT_STATE_FIELDS. */
export interface AgentState {
  command: string
  variant: WorkflowVariant
  sub_questions: SubQuestion[]
  evidence: Evidence[]
  current_grade: number | null
  current_answer: string | null
  source_list: Source[]
  /** Loops started so far (1 after the first plan). */
  iteration: number
  /** The loop limit in force: Agent settings' max_iteration, or the default limit when that is 0. */
  max_iteration: number
  template_id: number | null
  sections: SectionState[]
  steps: AgentTraceEntry[]
  error: string | null
}

// The state's fields and AGENT_STATE_FIELDS (what the graph screen lists) must be the same names.
type SameKeys<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
const stateMatchesFields: SameKeys<keyof AgentState, AgentStateField> = true
void stateMatchesFields

/** What a run persists after every step, so that a restart resumes at `next` with this state. */
export interface AgentCheckpoint {
  state: AgentState
  next: WorkflowTarget
}

/** The state a run starts from. */
export function createInitialState(input: {
  command: string
  variant: WorkflowVariant
  maxIteration: number
  template: { id: number; sections: { title: string; instructions: string }[] } | null
}): AgentState {
  return {
    command: input.command,
    variant: input.variant,
    sub_questions: [],
    evidence: [],
    current_grade: null,
    current_answer: null,
    source_list: [],
    iteration: 0,
    max_iteration: input.maxIteration,
    template_id: input.template?.id ?? null,
    sections: (input.template?.sections ?? []).map((section) => ({ title: section.title, instructions: section.instructions, answer: null, sourceNumbers: [] })),
    steps: [],
    error: null,
  }
}
