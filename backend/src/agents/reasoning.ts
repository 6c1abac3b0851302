import type { AgentSettings } from '../../../contracts/settings'
import type { CitableChunk, CitationList } from '../modules/ask/cited-answer'
import type { SubQuestion } from './agent-state'
import { ExtractiveComposer } from './extractive-composer'
import { LexicalPlanner } from './lexical-planner'
import type { AgentTool } from './tools/agent-tool'

/**
 * Decides what to look for: the sub-questions of a command or of a template's sections, and the tool calls
 * that answer each. The lexical planner works from the words alone; an LLM planner (a later issue) would
 * implement the same interface and leave the rest of the workflow as it is.
 */
export interface Planner {
  readonly name: string
  planCommand(command: string, tools: AgentTool[]): Promise<SubQuestion[]>
  planSections(command: string, sections: { title: string; instructions: string }[], tools: AgentTool[]): Promise<SubQuestion[]>
  /** The next loop's plan after a weak grade: new tool calls for the unsettled sub-questions only. */
  widen(subQuestions: SubQuestion[], tools: AgentTool[]): Promise<SubQuestion[]>
}

export interface ComposeRequest {
  question: string
  /** Words that say what to write (a template section's title and instructions), not what to find. */
  focus?: string
  /** Passages, most relevant first. */
  chunks: CitableChunk[]
  citations: CitationList
}

/** Writes one part of an answer from passages, citing them into the shared list; null when they say nothing about it. */
export interface Composer {
  readonly name: string
  composePart(request: ComposeRequest): Promise<{ text: string; citedChunkIds: number[] } | null>
}

export interface Reasoning {
  planner: Planner
  composer: Composer
}

/**
 * The planner and composer the agents use. No LLM provider is wired into the backend yet, so whatever
 * llm_model says, this is the deterministic pair; the LLM-backed pair plugs in here, chosen by the same settings.
 */
export function createReasoning(_settings: AgentSettings, dependencies: { weightOf: (stem: string) => number }): Reasoning {
  return { planner: new LexicalPlanner(), composer: new ExtractiveComposer(dependencies.weightOf) }
}
