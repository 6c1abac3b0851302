import type { Evidence, SubQuestion } from './agent-state'
import type { AgentTool } from './tools/agent-tool'

/**
 * Decides what to look for: the sub-questions of a command or of a template's sections, and the tool calls
 * that answer each. The lexical planner works from the words alone; a model planner implements the same
 * interface and leaves the rest of the workflow as it is.
 */
export interface Planner {
  readonly name: string
  planCommand(command: string, tools: AgentTool[]): Promise<SubQuestion[]>
  planSections(command: string, sections: { title: string; instructions: string }[], tools: AgentTool[]): Promise<SubQuestion[]>
  /**
   * The next loop's plan after a weak grade: new tool calls for the unsettled sub-questions only. `evidence` is
   * everything found so far, the last loop's results last (a model planner hands them back to the model).
   */
  widen(subQuestions: SubQuestion[], tools: AgentTool[], evidence: Evidence[]): Promise<SubQuestion[]>
}
