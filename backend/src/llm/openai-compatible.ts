import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError, AzureOpenAI } from 'openai'
import type {
  ChatCompletion,
  ChatCompletionChunk,
  ChatCompletionCreateParamsBase,
  ChatCompletionMessageParam,
  ChatCompletionTool,
} from 'openai/resources/chat/completions'
import {
  LlmError,
  type ChatChunk,
  type ChatMessage,
  type ChatRequest,
  type ChatResult,
  type EmbeddingsProvider,
  type LlmProvider,
  type ToolCall,
  type Usage,
} from './provider'
import { DEFAULT_RETRY_POLICY, abortReason, retryAfterMs, retryDelay, sleep, type RetryPolicy } from './retry'

/**
 * The language model behind any OpenAI-compatible endpoint (OpenAI, Azure OpenAI, Ollama, vLLM, llama.cpp's
 * server, LM Studio, OpenRouter…), through the official `openai` client with its own retries off: ours retry a
 * stream only before its first word, honour `Retry-After`, and treat a stalled stream as a time-out.
 */

export interface EndpointOptions {
  /** The `/v1` base (for Azure deployments: `https://<resource>.openai.azure.com/openai` with `apiVersion`). */
  baseUrl: string
  /** Sent as `Authorization: Bearer` (Azure: `api-key`); local servers need none. */
  apiKey?: string
  /** Azure OpenAI's `api-version`: requests go to `/deployments/<model>/…?api-version=…` with the `api-key` header. */
  apiVersion?: string
  /** A whole answer's time limit, and a stream's longest silence (waiting for the first chunk included). */
  timeoutMs?: number
  retry?: Partial<RetryPolicy>
}

export interface OpenAiCompatibleOptions extends EndpointOptions {
  /** LLM_MODELS: the models on offer, the first the default; empty means "ask the endpoint's /v1/models". */
  models?: string[]
  /** How long the endpoint's model list is kept (default five minutes). */
  modelsCacheMs?: number
  /** Ask for token usage at the end of a stream (`stream_options.include_usage`); on by default. */
  streamUsage?: boolean
}

export interface OpenAiCompatibleEmbeddingsOptions extends EndpointOptions {
  model: string
  /** Inputs per request (default 64). */
  batchSize?: number
  /** Ask for shorter vectors, where the model allows it. */
  dimensions?: number
}

export const DEFAULT_TIMEOUT_MS = 60_000
const DEFAULT_MODELS_CACHE_MS = 5 * 60_000
/** Stand-in key for endpoints that need none: the client insists on one, and local servers ignore it. */
const NO_KEY = 'no-key'
/** Ids in an endpoint's model list that are not chat models. */
const NOT_CHAT_MODEL = /embed/i

function createClient(options: EndpointOptions): OpenAI {
  const shared = {
    timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    maxRetries: 0,
    logLevel: 'off' as const,
    // Everything is passed explicitly so the client reads nothing from the environment.
    organization: null,
    project: null,
    webhookSecret: null,
    adminAPIKey: null,
  }
  if (options.apiVersion !== undefined) {
    if (!options.apiKey) throw new Error('An Azure OpenAI endpoint (with an api-version) needs an API key.')
    return new AzureOpenAI({ ...shared, baseURL: options.baseUrl, apiKey: options.apiKey, apiVersion: options.apiVersion })
  }
  return new OpenAI({ ...shared, baseURL: options.baseUrl, apiKey: options.apiKey || NO_KEY })
}

/** One try's time limit, linked to the caller's signal; `timedOut` tells our abort from the caller's. */
class Deadline {
  readonly controller = new AbortController()
  timedOut = false
  private timer: ReturnType<typeof setTimeout> | undefined
  private readonly unlink: () => void

  constructor(
    private readonly ms: number,
    outer?: AbortSignal,
  ) {
    const onAbort = () => this.controller.abort(outer?.reason)
    if (outer?.aborted) onAbort()
    outer?.addEventListener('abort', onAbort, { once: true })
    this.unlink = () => outer?.removeEventListener('abort', onAbort)
  }

  get signal(): AbortSignal {
    return this.controller.signal
  }

  /** (Re)starts the clock. */
  start(): void {
    this.pause()
    this.timer = setTimeout(() => {
      this.timedOut = true
      this.controller.abort(new Error('timeout'))
    }, this.ms)
  }

  pause(): void {
    if (this.timer !== undefined) clearTimeout(this.timer)
    this.timer = undefined
  }

  dispose(): void {
    this.pause()
    this.unlink()
  }
}

/** The server's requested wait, kept beside the error it came with. */
const retryAfterOf = new WeakMap<LlmError, number>()

function describe(error: APIError): string {
  const text = error.message.replace(/^\d{3}\s+/, '').trim()
  return text || 'no details'
}

/** Words with which endpoints say a model is unknown (vLLM, Ollama, llama.cpp's server, LM Studio…). */
const UNKNOWN_MODEL_WORDS = /not found|does not exist|doesn't exist|not exist|unknown|not available|no such|not loaded|not served|invalid model/i

/**
 * Whether a 404 or 400 says the model asked for does not exist: OpenAI's `model_not_found` code, or (other
 * OpenAI-compatible servers) a message naming the model as unknown.
 */
function isUnknownModel(error: APIError, model: string): boolean {
  if (error.status !== 404 && error.status !== 400) return false
  if (error.code === 'model_not_found') return true
  const text = error.message
  return text.includes(model) && UNKNOWN_MODEL_WORDS.test(text)
}

/**
 * Any failure of a try, as an `LlmError` (the caller's own abort is rethrown as is by the callers). `model`, the
 * model asked for, lets a refusal that names it as unknown be told apart (kind `model_not_found`).
 */
export function toLlmError(error: unknown, deadline?: Deadline, timeoutMs = DEFAULT_TIMEOUT_MS, model?: string): LlmError {
  if (error instanceof LlmError) return error
  if (deadline?.timedOut || error instanceof APIConnectionTimeoutError) {
    return new LlmError(`The model endpoint did not answer within ${timeoutMs} ms.`, 'timeout', true)
  }
  if (error instanceof APIUserAbortError) return new LlmError('The request to the model endpoint was aborted.', 'connection', true)
  if (error instanceof APIConnectionError) {
    return new LlmError(`Could not reach the model endpoint: ${error.cause instanceof Error ? error.cause.message : error.message}`, 'connection', true)
  }
  if (error instanceof APIError) {
    const status = error.status
    if (status === undefined) return new LlmError(`The model endpoint reported an error mid-answer: ${describe(error)}`, 'server', true)
    if (status === 429) {
      if (error.code === 'insufficient_quota') return new LlmError(`The model endpoint refused: quota exhausted (${describe(error)})`, 'refused', false, status)
      const failure = new LlmError(`The model endpoint is rate limiting: ${describe(error)}`, 'rate_limited', true, status)
      const wait = retryAfterMs(error.headers)
      if (wait !== undefined) retryAfterOf.set(failure, wait)
      return failure
    }
    if (model !== undefined && isUnknownModel(error, model)) {
      return new LlmError(`The model endpoint does not offer the model "${model}" (${status}): ${describe(error)}`, 'model_not_found', false, status, model)
    }
    if (status === 408) return new LlmError('The model endpoint timed out the request.', 'timeout', true, status)
    if (status === 409 || status >= 500) return new LlmError(`The model endpoint failed (${status}): ${describe(error)}`, 'server', true, status)
    if (status === 401 || status === 403) return new LlmError(`The model endpoint refused the credentials (${status}).`, 'refused', false, status)
    return new LlmError(`The model endpoint refused the request (${status}): ${describe(error)}`, 'refused', false, status)
  }
  if (error instanceof SyntaxError) return new LlmError(`The model endpoint sent a malformed answer: ${error.message}`, 'bad_response', false)
  // fetch's "terminated" / "fetch failed" (a reset or closed connection) and socket errors.
  if (error instanceof TypeError || (error instanceof Error && typeof (error as NodeJS.ErrnoException).code === 'string')) {
    return new LlmError(`The connection to the model endpoint failed: ${error.message}`, 'connection', true)
  }
  return new LlmError(`The model call failed: ${error instanceof Error ? error.message : String(error)}`, 'bad_response', false)
}

/** Runs `attempt` until it succeeds, fails for good, runs out of tries, or the caller aborts. */
async function withRetries<T>(policy: RetryPolicy, signal: AbortSignal | undefined, attempt: () => Promise<T>): Promise<T> {
  for (let tried = 1; ; tried++) {
    try {
      return await attempt()
    } catch (error) {
      if (signal?.aborted) throw abortReason(signal)
      if (!(error instanceof LlmError) || !error.retryable || tried >= policy.attempts) throw error
      const wait = retryDelay(policy, tried, retryAfterOf.get(error))
      if (wait === undefined) throw error
      await sleep(wait, signal)
    }
  }
}

function toWireMessage(message: ChatMessage): ChatCompletionMessageParam {
  switch (message.role) {
    case 'system':
      return { role: 'system', content: message.content }
    case 'user':
      return { role: 'user', content: message.content }
    case 'assistant':
      if (message.toolCalls && message.toolCalls.length > 0) {
        return {
          role: 'assistant',
          content: message.content === '' ? null : message.content,
          tool_calls: message.toolCalls.map((call) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } })),
        }
      }
      return { role: 'assistant', content: message.content }
    case 'tool':
      if (!message.toolCallId) throw new Error('A tool message needs the id of the tool call it answers (toolCallId).')
      return { role: 'tool', content: message.content, tool_call_id: message.toolCallId }
  }
}

function toUsage(usage: { prompt_tokens?: number | null; completion_tokens?: number | null } | null | undefined): Usage | undefined {
  if (!usage) return undefined
  return { promptTokens: usage.prompt_tokens ?? 0, completionTokens: usage.completion_tokens ?? 0 }
}

export class OpenAiCompatibleProvider implements LlmProvider {
  private readonly client: OpenAI
  private readonly timeoutMs: number
  private readonly policy: RetryPolicy
  private readonly configuredModels: string[]
  private readonly modelsCacheMs: number
  private readonly streamUsage: boolean
  private modelsCache: { at: number; models: string[] } | undefined
  private modelsInFlight: Promise<string[]> | undefined
  private readonly isAzure: boolean

  constructor(options: OpenAiCompatibleOptions) {
    this.client = createClient(options)
    this.isAzure = options.apiVersion !== undefined
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
    this.policy = { ...DEFAULT_RETRY_POLICY, ...options.retry }
    this.configuredModels = [...new Set((options.models ?? []).map((model) => model.trim()).filter(Boolean))]
    this.modelsCacheMs = options.modelsCacheMs ?? DEFAULT_MODELS_CACHE_MS
    this.streamUsage = options.streamUsage ?? true
  }

  async listModels(): Promise<string[]> {
    if (this.configuredModels.length > 0) return [...this.configuredModels]
    return this.endpointModels()
  }

  async unavailableModels(): Promise<{ missing: string[]; offered: string[] } | undefined> {
    // Azure OpenAI's deployments cannot be listed through the endpoint.
    if (this.configuredModels.length === 0 || this.isAzure) return undefined
    const offered = await this.endpointModels()
    return { missing: this.configuredModels.filter((model) => !offered.includes(model)), offered }
  }

  /** The endpoint's chat models (GET /models), kept for modelsCacheMs; concurrent callers share one request. */
  private async endpointModels(): Promise<string[]> {
    if (this.modelsCache && Date.now() - this.modelsCache.at < this.modelsCacheMs) return [...this.modelsCache.models]
    this.modelsInFlight ??= this.fetchModels()
      .then((models) => {
        this.modelsCache = { at: Date.now(), models }
        return models
      })
      .finally(() => {
        this.modelsInFlight = undefined
      })
    return [...(await this.modelsInFlight)]
  }

  async defaultModel(): Promise<string> {
    const [first] = await this.listModels()
    if (!first) throw new LlmError('The model endpoint lists no chat models; name them in LLM_MODELS.', 'bad_response', false)
    return first
  }

  async chat(request: ChatRequest): Promise<ChatResult> {
    const model = request.model ?? (await this.defaultModel())
    const params = { ...this.params(request, model), stream: false as const }
    return withRetries(this.policy, request.signal, async () => {
      const deadline = new Deadline(this.timeoutMs, request.signal)
      deadline.start()
      try {
        const completion = await this.client.chat.completions.create(params, { signal: deadline.signal, maxRetries: 0, timeout: this.timeoutMs })
        return this.toResult(completion, model)
      } catch (error) {
        if (request.signal?.aborted) throw abortReason(request.signal)
        throw toLlmError(error, deadline, this.timeoutMs, model)
      } finally {
        deadline.dispose()
      }
    })
  }

  async *stream(request: ChatRequest): AsyncGenerator<ChatChunk, void, undefined> {
    const model = request.model ?? (await this.defaultModel())
    const params = {
      ...this.params(request, model),
      stream: true as const,
      ...(this.streamUsage ? { stream_options: { include_usage: true } } : {}),
    }
    for (let tried = 1; ; tried++) {
      const deadline = new Deadline(this.timeoutMs, request.signal)
      let text = ''
      try {
        deadline.start()
        const stream = await this.client.chat.completions.create(params, { signal: deadline.signal, maxRetries: 0, timeout: this.timeoutMs })
        const calls = new Map<number, ToolCall>()
        let finishReason: string | null = null
        let usage: Usage | undefined
        for await (const chunk of stream as AsyncIterable<ChatCompletionChunk>) {
          deadline.pause()
          usage = toUsage(chunk.usage) ?? usage
          const choice = chunk.choices?.[0]
          if (choice) {
            if (choice.finish_reason) finishReason = choice.finish_reason
            choice.delta?.tool_calls?.forEach((delta, position) => {
              const index = delta.index ?? position
              const call = calls.get(index) ?? { id: '', name: '', arguments: '' }
              if (delta.id) call.id = delta.id
              if (delta.function?.name) call.name ||= delta.function.name
              if (delta.function?.arguments) call.arguments += delta.function.arguments
              calls.set(index, call)
            })
            const piece = choice.delta?.content
            if (piece) {
              text += piece
              // The clock stops while the caller handles the piece: only the endpoint's silence counts.
              yield { type: 'text', text: piece }
            }
          }
          deadline.start()
        }
        deadline.pause()
        if (request.signal?.aborted) throw abortReason(request.signal)
        if (deadline.timedOut) throw toLlmError(undefined, deadline, this.timeoutMs)
        if (finishReason === null) {
          throw new LlmError('The model endpoint ended the stream before the answer was finished.', 'connection', true)
        }
        const toolCalls = [...calls.entries()]
          .sort(([a], [b]) => a - b)
          .map(([index, call]) => ({ ...call, id: call.id || `call_${index}` }))
        yield { type: 'done', result: { model, text, toolCalls, finishReason, usage } }
        return
      } catch (error) {
        if (request.signal?.aborted) throw abortReason(request.signal)
        const failure = toLlmError(error, deadline, this.timeoutMs, model)
        if (text !== '') {
          throw new LlmError(`The model stopped mid-answer: ${failure.message}`, 'interrupted', false, failure.status)
        }
        if (!failure.retryable || tried >= this.policy.attempts) throw failure
        const wait = retryDelay(this.policy, tried, retryAfterOf.get(failure))
        if (wait === undefined) throw failure
        await sleep(wait, request.signal)
      } finally {
        deadline.dispose()
      }
    }
  }

  private params(request: ChatRequest, model: string): ChatCompletionCreateParamsBase {
    const tools: ChatCompletionTool[] | undefined = request.tools?.map((tool) => ({
      type: 'function',
      function: { name: tool.name, description: tool.description, parameters: tool.parameters },
    }))
    return {
      model,
      messages: request.messages.map(toWireMessage),
      ...(tools && tools.length > 0 ? { tools } : {}),
      ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
      ...(request.maxTokens !== undefined ? { max_tokens: request.maxTokens } : {}),
    }
  }

  private toResult(completion: ChatCompletion, model: string): ChatResult {
    const choice = completion.choices?.[0]
    if (!choice?.message) throw new LlmError('The model endpoint answered without a message.', 'bad_response', false)
    const toolCalls = (choice.message.tool_calls ?? []).flatMap((call, index) =>
      call.type === 'function' ? [{ id: call.id || `call_${index}`, name: call.function.name, arguments: call.function.arguments ?? '' }] : [],
    )
    return {
      model,
      text: choice.message.content ?? '',
      toolCalls,
      finishReason: choice.finish_reason ?? null,
      usage: toUsage(completion.usage),
    }
  }

  private fetchModels(): Promise<string[]> {
    return withRetries(this.policy, undefined, async () => {
      const deadline = new Deadline(this.timeoutMs)
      deadline.start()
      try {
        const page = await this.client.models.list({ signal: deadline.signal, maxRetries: 0, timeout: this.timeoutMs })
        const ids = (page.data ?? []).map((model) => model.id).filter((id) => typeof id === 'string' && id !== '' && !NOT_CHAT_MODEL.test(id))
        return [...new Set(ids)]
      } catch (error) {
        throw toLlmError(error, deadline, this.timeoutMs)
      } finally {
        deadline.dispose()
      }
    })
  }
}

export class OpenAiCompatibleEmbeddings implements EmbeddingsProvider {
  readonly model: string
  private readonly client: OpenAI
  private readonly timeoutMs: number
  private readonly policy: RetryPolicy
  private readonly batchSize: number
  private readonly dimensions: number | undefined

  constructor(options: OpenAiCompatibleEmbeddingsOptions) {
    this.model = options.model
    this.client = createClient(options)
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
    this.policy = { ...DEFAULT_RETRY_POLICY, ...options.retry }
    this.batchSize = Math.max(1, options.batchSize ?? 64)
    this.dimensions = options.dimensions
  }

  async embed(inputs: string[], signal?: AbortSignal): Promise<number[][]> {
    const vectors: number[][] = []
    for (let start = 0; start < inputs.length; start += this.batchSize) {
      const batch = inputs.slice(start, start + this.batchSize)
      vectors.push(...(await withRetries(this.policy, signal, () => this.embedBatch(batch, signal))))
    }
    const size = vectors[0]?.length
    if (vectors.some((vector) => vector.length !== size)) {
      throw new LlmError('The embeddings endpoint answered vectors of different lengths.', 'bad_response', false)
    }
    return vectors
  }

  private async embedBatch(batch: string[], signal: AbortSignal | undefined): Promise<number[][]> {
    const deadline = new Deadline(this.timeoutMs, signal)
    deadline.start()
    try {
      const response = await this.client.embeddings.create(
        { model: this.model, input: batch, encoding_format: 'float', ...(this.dimensions !== undefined ? { dimensions: this.dimensions } : {}) },
        { signal: deadline.signal, maxRetries: 0, timeout: this.timeoutMs },
      )
      const data = [...(response.data ?? [])].sort((a, b) => a.index - b.index)
      const valid =
        data.length === batch.length &&
        data.every((item, position) => item.index === position && Array.isArray(item.embedding) && item.embedding.every((value) => typeof value === 'number'))
      if (!valid) throw new LlmError(`The embeddings endpoint answered ${data.length} vectors for ${batch.length} inputs.`, 'bad_response', false)
      return data.map((item) => item.embedding)
    } catch (error) {
      if (signal?.aborted) throw abortReason(signal)
      throw toLlmError(error, deadline, this.timeoutMs)
    } finally {
      deadline.dispose()
    }
  }
}
