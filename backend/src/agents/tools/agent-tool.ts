import type { CitableChunk } from '../../answering/citations'

/** What a tool call may use besides its input. */
export interface ToolContext {
  /** Aborted when the run is cancelled or the backend stops; a long tool gives up when it fires. */
  signal: AbortSignal
  /** The asker's IANA time zone (e.g. Europe/Paris); UTC when the request named none. */
  timezone: string
  /** How many passages a knowledge tool may bring back (widened on each loop of the workflow). */
  limit: number
  /** Passages scoring below this are not evidence (Bot settings' score_threshold). */
  scoreThreshold: number
  now(): Date
}

/** What a tool found: passages with their sources, and/or a statement of fact (a sum, today's date). */
export interface ToolResult {
  chunks: CitableChunk[]
  statement: string | null
  /** One line for the step trace. */
  summary: string
}

/**
 * A generic tool an agent can call. `knowledge` tools bring passages of the knowledge base, which become cited
 * sources; `fact` tools state a result that needs no source. With no LLM configured, the lexical planner
 * decides from a question's words whether a tool applies (`inputFor`); the model planner offers the tools to the
 * model with the descriptions Agent settings give them.
 */
export interface AgentTool {
  name: string
  kind: 'knowledge' | 'fact'
  /** What this tool would be asked for a question, read from its words; undefined when it has nothing to offer. */
  inputFor(question: string): string | undefined
  /** Throws with a readable message when it fails; the run records the failure and goes on. */
  run(input: string, context: ToolContext): Promise<ToolResult>
}

/** The tools this backend can run, by name. Agent settings decide which of them an agent may call. */
export class ToolRegistry {
  private readonly tools = new Map<string, AgentTool>()

  constructor(tools: AgentTool[] = []) {
    for (const tool of tools) this.register(tool)
  }

  /** Adds a tool (or replaces the one of the same name): the way a deployment or a test plugs one in. */
  register(tool: AgentTool): void {
    this.tools.set(tool.name, tool)
  }

  get(name: string): AgentTool | undefined {
    return this.tools.get(name)
  }

  /** The named tools that exist here, in the order given. */
  pick(names: string[]): AgentTool[] {
    return names.flatMap((name) => this.tools.get(name) ?? [])
  }
}
