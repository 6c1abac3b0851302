/**
 * The language-model seam: what the answering code and the agents need from a model, whatever serves it.
 * One implementation (`openai-compatible.ts`) speaks the OpenAI-compatible wire protocol, which OpenAI, Azure
 * OpenAI, Ollama, vLLM, llama.cpp's server, LM Studio and OpenRouter all accept.
 */

export type ChatRole = 'system' | 'user' | 'assistant' | 'tool'

export interface ToolCall {
  id: string
  name: string
  /** The arguments as the model wrote them (JSON text; may be malformed: the caller validates). */
  arguments: string
}

export interface ChatMessage {
  role: ChatRole
  content: string
  /** On an assistant message that asked for tools. */
  toolCalls?: ToolCall[]
  /** On a tool message: the call it answers. */
  toolCallId?: string
}

export interface ToolDefinition {
  name: string
  description: string
  /** JSON Schema of the arguments. */
  parameters: Record<string, unknown>
}

export interface ChatRequest {
  /** A model id; undefined means the provider's default (the first of LLM_MODELS). */
  model?: string
  messages: ChatMessage[]
  tools?: ToolDefinition[]
  temperature?: number
  maxTokens?: number
  signal?: AbortSignal
}

export interface Usage {
  promptTokens: number
  completionTokens: number
}

/** One piece of a streamed answer. */
export type ChatChunk = { type: 'text'; text: string } | { type: 'done'; result: ChatResult }

export interface ChatResult {
  model: string
  text: string
  toolCalls: ToolCall[]
  finishReason: string | null
  /** Undefined when the server reports none. */
  usage?: Usage
}

/**
 * Why a model call failed; `retryable` failures may be tried again before the first word. `model_not_found`: the
 * endpoint does not offer the model asked for (named in `model`), such as a misspelt LLM_MODELS entry.
 */
export class LlmError extends Error {
  constructor(
    message: string,
    readonly kind: 'timeout' | 'rate_limited' | 'server' | 'connection' | 'bad_response' | 'refused' | 'interrupted' | 'model_not_found',
    readonly retryable: boolean,
    readonly status?: number,
    /** The model asked for, when the failure is about it (`model_not_found`). */
    readonly model?: string,
  ) {
    super(message)
    this.name = 'LlmError'
  }
}

export interface LlmProvider {
  /** Models a question may use: LLM_MODELS, or the endpoint's /v1/models when that is unset. The first is the default. */
  listModels(): Promise<string[]>
  defaultModel(): Promise<string>
  /** A whole answer (tool calls included). Retries with backoff on retryable failures. */
  chat(request: ChatRequest): Promise<ChatResult>
  /**
   * A streamed answer: text chunks as the model writes them, then one `done` chunk. Retries with backoff only
   * before the first text chunk; a failure after partial output throws an `LlmError` of kind `interrupted`.
   */
  stream(request: ChatRequest): AsyncIterable<ChatChunk>
  /**
   * LLM_MODELS entries the endpoint's model list lacks, with the models it offers; undefined when there is nothing
   * to compare (no LLM_MODELS, or an endpoint that cannot list its models, such as Azure OpenAI's). Throws when the
   * endpoint cannot be asked.
   */
  unavailableModels?(): Promise<{ missing: string[]; offered: string[] } | undefined>
}

export interface EmbeddingsProvider {
  readonly model: string
  /** One vector per input, in order. */
  embed(inputs: string[], signal?: AbortSignal): Promise<number[][]>
}
