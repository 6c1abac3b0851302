import type { AgentSettings } from '../../../contracts/settings'
import type { Composer } from '../answering/composer'
import { ExtractiveComposer } from '../answering/extractive-composer'
import type { PassageScreen } from '../answering/model-composer'
import type { PromptSettings } from '../answering/prompt'
import type { LlmProvider } from '../llm/provider'
import { LexicalPlanner } from './lexical-planner'
import { ModelPlanner } from './model-planner'
import { ModelSession, SessionComposer, type ReasoningNote, type WritingReport } from './model-session'
import type { Planner } from './planner'
import type { WorkflowVariant } from './workflow-definition'

export type { Planner } from './planner'
export type { Composer, ComposeRequest } from '../answering/composer'
export type { ReasoningNote, WritingReport } from './model-session'

/** The planner that decides what to look for and the composer that writes from what was found. */
export interface Reasoning {
  planner: Planner
  composer: Composer
  /** What the model did, or why it was not used, since the last call: plain sentences for the run's trace. */
  takeNotes?(): ReasoningNote[]
  /** With a model: how the answer was written (which model; why parts quote the sources instead). */
  writingReport?(): WritingReport
}

export interface ReasoningDependencies {
  weightOf: (stem: string) => number
  /** The index's reading of a misspelt word (KnowledgeService.correctTerm). */
  correctTerm?: (stem: string) => string | undefined
  /** The configured language model; without one, the deterministic pair plans and writes. */
  llm?: LlmProvider
  /** Bot settings: the voice of model-written parts (template_bot_* for template sections). */
  promptSettings?: PromptSettings
  variant?: WorkflowVariant
  /** The firewall's screen for passages about to reach the model. */
  screenPassage?: PassageScreen
  /** The run's signal: a cancellation is not a model failure. */
  signal?: AbortSignal
}

/**
 * The planner and composer the agents use. With a language model, the model plans through tool calls and writes
 * with grounded citations (Agent settings' llm_model, tool descriptions and instructions), and the deterministic
 * pair takes over when it fails; without one, the lexical planner and the extractive composer do it all.
 */
export function createReasoning(settings: AgentSettings, dependencies: ReasoningDependencies): Reasoning {
  const lexical = new LexicalPlanner()
  const extractive = new ExtractiveComposer(dependencies.weightOf, dependencies.correctTerm)
  const { llm, promptSettings } = dependencies
  if (!llm || !promptSettings) return { planner: lexical, composer: extractive }
  const variant = dependencies.variant ?? 'general'
  const session = new ModelSession(llm, settings.llm_model, dependencies.signal)
  return {
    planner: new ModelPlanner({ session, settings, variant, lexical, screenPassage: dependencies.screenPassage }),
    composer: new SessionComposer({
      session,
      settings: promptSettings,
      termWeight: dependencies.weightOf,
      screenPassage: dependencies.screenPassage,
      fallback: extractive,
      // A template's sections fall back one by one; the general agent's answer, with the rest of its run.
      isFailureForTheRun: variant === 'general',
    }),
    takeNotes: () => session.takeNotes(),
    writingReport: () => session.report(),
  }
}
