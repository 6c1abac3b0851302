import type { AgentSettings } from '../../../contracts/settings'
import type { Composer } from '../answering/composer'
import { ExtractiveComposer } from '../answering/extractive-composer'
import { LexicalPlanner } from './lexical-planner'
import type { Planner } from './planner'

export type { Planner } from './planner'
export type { Composer, ComposeRequest } from '../answering/composer'

/** The planner that decides what to look for and the composer that writes from what was found. */
export interface Reasoning {
  planner: Planner
  composer: Composer
}

/**
 * The planner and composer the agents use. The agents do not use a language model yet, so whatever llm_model
 * says, this is the deterministic pair; a model planner and composer plug in here, chosen by the same settings.
 */
export function createReasoning(_settings: AgentSettings, dependencies: { weightOf: (stem: string) => number }): Reasoning {
  return { planner: new LexicalPlanner(), composer: new ExtractiveComposer(dependencies.weightOf) }
}
