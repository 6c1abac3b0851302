import type { AgentSettings } from '../../../contracts/settings'
import type { PassageScreen } from '../answering/model-composer'
import { passageForModel } from '../answering/prompt'
import { LlmError, type ChatMessage, type ToolDefinition } from '../llm/provider'
import type { Evidence, SubQuestion, ToolCall } from './agent-state'
import { keyOf } from './evidence'
import { chooseToolCalls, newSubQuestion, sectionQueryOf, subjectOf, type LexicalPlanner } from './lexical-planner'
import type { ModelSession } from './model-session'
import type { Planner } from './planner'
import type { AgentTool } from './tools/agent-tool'
import { agentOf, type WorkflowVariant } from './workflow-definition'

/** Calls of one model turn that are made; any more are not answered (nor sent back). */
export const MAX_CALLS_PER_ROUND = 4
/** Longest passage text handed back to the planning model, in characters; the composer reads them whole. */
const PASSAGE_CHARACTERS = 700
const MAX_INPUT_CHARACTERS = 500

/** The argument each built-in tool takes; a tool not listed here takes `input`, and date_time none. */
const TOOL_ARGUMENTS: Record<string, { name: string; description: string } | null> = {
  knowledge_search: { name: 'query', description: 'What to search the published articles for, in a few words' },
  article_lookup: { name: 'title', description: 'The title of the published article to read' },
  arithmetic: { name: 'expression', description: 'The arithmetic expression to work out, such as (4 - 1) * 2.5 or 15% * 80' },
  date_time: null,
}
const argumentOf = (tool: string) => (tool in TOOL_ARGUMENTS ? TOOL_ARGUMENTS[tool] : { name: 'input', description: `What to ask ${tool}` })

const RULES = [
  'You gather the evidence a knowledge-base assistant answers from. Call the tools to find what the request needs;',
  'after their results, call them again only for what is still missing. When the results are enough, or nothing more',
  'can be found, reply with the single word DONE. Do not write the answer: it is written from what the tools found.',
].join(' ')

const quote = (text: string) => `“${text.length > 100 ? `${text.slice(0, 97)}…` : text}”`
const describeCalls = (calls: ToolCall[]) =>
  calls.map((call) => (call.input ? `${call.tool} ${quote(call.input)}` : call.tool)).join(' and ')

export interface ModelPlannerOptions {
  session: ModelSession
  /** Agent settings: the tools' descriptions and the agent's instructions. */
  settings: AgentSettings
  variant: WorkflowVariant
  /** Plans when the model fails; the run keeps to it from then on. */
  lexical: LexicalPlanner
  /** The firewall's screen for passages about to reach the model. */
  screenPassage?: PassageScreen
}

/**
 * Plans with a language model through tool calls: the model is offered the agent's tools, described as Agent
 * settings describe them, with the agent's instructions as its system prompt, and the calls it asks for become the
 * retrieve step's calls. After a weak grade it gets the results back and may ask for more, one round per loop, so
 * max_iteration bounds the rounds. A failure (time-out, 429, 5xx, a cut answer, arguments that do not parse, a tool
 * it was not offered) hands the run to the lexical planner, with a trace note.
 */
export class ModelPlanner implements Planner {
  /** The conversation of each sub-question (by keyOf), kept while the run lives in this process. */
  private readonly conversations = new Map<string, ChatMessage[]>()

  constructor(private readonly options: ModelPlannerOptions) {}

  get name(): string {
    return this.options.session.failure ? this.options.lexical.name : 'model'
  }

  async planCommand(command: string, tools: AgentTool[]): Promise<SubQuestion[]> {
    const { session, lexical } = this.options
    if (session.failure) return lexical.planCommand(command, tools)
    try {
      const question = newSubQuestion(command, command, null, [])
      const conversation: ChatMessage[] = [this.systemMessage(), { role: 'user', content: command }]
      const calls = await this.askForCalls(conversation, tools)
      this.conversations.set(keyOf(question), conversation)
      return [{ ...question, toolCalls: await this.callsOrDefault(calls, command, command, tools) }]
    } catch (error) {
      this.failed(error, 'the command is planned from its words instead')
      return lexical.planCommand(command, tools)
    }
  }

  async planSections(command: string, sections: { title: string; instructions: string }[], tools: AgentTool[]): Promise<SubQuestion[]> {
    const { session, lexical } = this.options
    if (session.failure) return lexical.planSections(command, sections, tools)
    const subject = subjectOf(command)
    try {
      const planned: SubQuestion[] = []
      for (const [index, section] of sections.entries()) {
        const question = newSubQuestion(section.title, sectionQueryOf(subject, section), index, [])
        const request = [`Document: ${command}`, `Section to write: ${section.title}`, section.instructions.trim() ? `What it holds: ${section.instructions.trim()}` : '']
        const conversation: ChatMessage[] = [this.systemMessage(), { role: 'user', content: request.filter(Boolean).join('\n') }]
        const calls = await this.askForCalls(conversation, tools, `for the section “${section.title}”`)
        this.conversations.set(keyOf(question), conversation)
        planned.push({ ...question, toolCalls: await this.callsOrDefault(calls, subject, question.query, tools) })
      }
      return planned
    } catch (error) {
      this.failed(error, 'the sections are planned from their words instead')
      return lexical.planSections(command, sections, tools)
    }
  }

  async widen(subQuestions: SubQuestion[], tools: AgentTool[], evidence: Evidence[]): Promise<SubQuestion[]> {
    const { session, lexical } = this.options
    if (session.failure) return lexical.widen(subQuestions, tools)
    try {
      const widened: SubQuestion[] = []
      for (const question of subQuestions) {
        if (question.isSettled) {
          widened.push({ ...question, toolCalls: [] })
          continue
        }
        const key = keyOf(question)
        const conversation = this.conversations.get(key) ?? this.restartedConversation(question)
        // The retrieve step records one piece of evidence per call, in order: the last ones answer the last calls.
        const found = question.toolCalls.length > 0 ? evidence.filter((item) => item.question === key).slice(-question.toolCalls.length) : []
        conversation.push(...this.resultMessages(conversation, question.toolCalls, found))
        this.conversations.set(key, conversation)
        const calls = await this.askForCalls(conversation, tools, question.section !== null ? `for the section “${question.text}”` : '')
        if (calls.length > 0) {
          widened.push({ ...question, toolCalls: calls })
          continue
        }
        // The model has what it needs: the question is settled, and grading will not send it back. Unless nothing at all
        // was found for it yet: then the searches its own words call for, with the tools not tried yet (a title lookup
        // that found no such title is not the knowledge base having no answer).
        const untried = this.untriedSearches(question, tools, evidence)
        widened.push(untried.length > 0 ? { ...question, toolCalls: untried } : { ...question, toolCalls: [], isSettled: true })
      }
      return widened
    } catch (error) {
      this.failed(error, 'the next searches are planned from the words instead')
      return lexical.widen(subQuestions, tools)
    }
  }

  private failed(error: unknown, instead: string): void {
    if (this.options.session.signal?.aborted) throw error
    this.options.session.recordFailure(error, instead, true)
  }

  /** The agent's instructions (Agent settings), then the rules of planning. */
  private systemMessage(): ChatMessage {
    const instructions = agentOf(this.options.variant, this.options.settings)?.instructions?.trim()
    return { role: 'system', content: [instructions, RULES].filter(Boolean).join('\n\n') }
  }

  /** The tools offered: the agent's, each described by Agent settings. */
  private definitionsOf(tools: AgentTool[]): ToolDefinition[] {
    return tools.map((tool) => {
      const configured = this.options.settings.tools.find((candidate) => candidate.name === tool.name)?.description.trim()
      const argument = argumentOf(tool.name)
      return {
        name: tool.name,
        description: configured || `The ${tool.name} tool`,
        parameters: argument
          ? { type: 'object', properties: { [argument.name]: { type: 'string', description: argument.description } }, required: [argument.name], additionalProperties: false }
          : { type: 'object', properties: {}, additionalProperties: false },
      }
    })
  }

  /** One model turn: the calls it asks for, checked, with the turn added to the conversation. */
  private async askForCalls(conversation: ChatMessage[], tools: AgentTool[], purpose = ''): Promise<ToolCall[]> {
    const { session } = this.options
    const model = await session.model()
    const result = await session.provider.chat({ model, messages: conversation, tools: this.definitionsOf(tools), temperature: 0, maxTokens: 400, signal: session.signal })
    const asked = result.toolCalls.slice(0, MAX_CALLS_PER_ROUND)
    const offered = new Map(tools.map((tool) => [tool.name, tool]))
    const calls = asked.map((call): ToolCall => {
      if (!offered.has(call.name)) throw new LlmError(`The model asked for ${call.name}, a tool it was not offered`, 'bad_response', false)
      let parsed: unknown
      try {
        parsed = JSON.parse(call.arguments.trim() || '{}')
      } catch {
        throw new LlmError(`The model called ${call.name} with arguments that are not JSON`, 'bad_response', false)
      }
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new LlmError(`The model called ${call.name} with arguments that are not an object`, 'bad_response', false)
      const argument = argumentOf(call.name)
      if (!argument) return { tool: call.name, input: '', id: call.id }
      const value = (parsed as Record<string, unknown>)[argument.name]
      if (typeof value !== 'string' || !value.trim()) throw new LlmError(`The model called ${call.name} without a ${argument.name}`, 'bad_response', false)
      return { tool: call.name, input: value.trim().slice(0, MAX_INPUT_CHARACTERS), id: call.id }
    })
    conversation.push({ role: 'assistant', content: result.text, ...(asked.length > 0 ? { toolCalls: asked } : {}) })
    const what = purpose ? ` ${purpose}` : ''
    session.note({
      status: 'done',
      detail: calls.length > 0 ? `Asked the model (${model}) what to look for${what}; it asked for ${describeCalls(calls)}.` : `Asked the model (${model}) what else to look for${what}; it said it had enough.`,
    })
    return calls
  }

  /** The model's calls, or when it asked for none at first, the searches the words of the request call for. */
  private async callsOrDefault(calls: ToolCall[], question: string, query: string, tools: AgentTool[]): Promise<ToolCall[]> {
    if (calls.length > 0) return calls
    const chosen = chooseToolCalls(question, query, tools)
    this.options.session.note({ status: 'done', detail: `The model asked for no search; ${chosen.length ? `searching for the request's own words (${describeCalls(chosen)})` : 'no tool applies to the request'}.` })
    return chosen
  }

  /**
   * When nothing was found for a question (no passage, no fact) by the tools the model chose, the searches the
   * question's own words call for with the tools not tried for it yet; otherwise none.
   */
  private untriedSearches(question: SubQuestion, tools: AgentTool[], evidence: Evidence[]): ToolCall[] {
    const found = evidence.filter((item) => item.question === keyOf(question))
    if (found.some((item) => item.chunks.length > 0 || item.statement)) return []
    const tried = new Set([...found.map((item) => item.tool), ...question.toolCalls.map((call) => call.tool)])
    const untried = chooseToolCalls(question.text, question.query, tools).filter((call) => !tried.has(call.tool))
    if (untried.length > 0) {
      this.options.session.note({ status: 'done', detail: `Nothing was found for the request yet; searching for its own words (${describeCalls(untried)}).` })
    }
    return untried
  }

  /** A conversation lost in a restart: the request again; the last results follow as a message of their own. */
  private restartedConversation(question: SubQuestion): ChatMessage[] {
    const request = question.section !== null ? `Section to write: ${question.text}\nSearch for: ${question.query}` : question.text
    return [this.systemMessage(), { role: 'user', content: request }]
  }

  /**
   * The last round's results: the answer to each call of the model's last turn (every call of a turn is answered),
   * and in one message of their own the results of calls it did not ask for in that turn (the request's own words,
   * or a turn lost in a restart).
   */
  private resultMessages(conversation: ChatMessage[], calls: ToolCall[], found: Evidence[]): ChatMessage[] {
    const last = conversation.at(-1)
    const asked = last?.role === 'assistant' ? (last.toolCalls ?? []) : []
    const texts = calls.map((_call, index) => this.resultText(found[index]))
    const answers: ChatMessage[] = asked.map((call) => {
      const index = calls.findIndex((made) => made.id === call.id)
      return { role: 'tool', toolCallId: call.id, content: index >= 0 ? texts[index] : 'This call was not made.' }
    })
    const others = calls.flatMap((call, index) => (asked.some((turn) => turn.id === call.id) ? [] : [{ call, text: texts[index] }]))
    if (asked.length > 0 && others.length === 0) return answers
    return [...answers, this.summaryMessage(others.map((other) => other.call), others.map((other) => other.text))]
  }

  private summaryMessage(calls: ToolCall[], texts: string[]): ChatMessage {
    const body = calls.length > 0 ? calls.map((call, index) => `${describeCalls([call])}:\n${texts[index]}`).join('\n\n') : 'No search was made.'
    return { role: 'user', content: `What the searches found so far:\n\n${body}\n\nCall the tools again for anything still missing, or reply DONE.` }
  }

  private resultText(item: Evidence | undefined): string {
    if (!item) return 'No result.'
    if (item.failure) return `The tool failed: ${item.failure}`
    const parts: string[] = []
    if (item.statement) parts.push(item.statement)
    for (const chunk of item.chunks) {
      const screened = this.options.screenPassage ? this.options.screenPassage(chunk.text).text : chunk.text
      // As prose, like the passages the answer is written from: its headings' marks are no words of it.
      const text = passageForModel(screened, chunk.title)
      if (!text.trim()) continue
      const short = text.length > PASSAGE_CHARACTERS ? `${text.slice(0, PASSAGE_CHARACTERS - 1)}…` : text
      parts.push(`“${chunk.title}”: ${short.replace(/\s+/g, ' ').trim()}`)
    }
    return parts.length > 0 ? parts.join('\n') : 'Nothing was found.'
  }
}
