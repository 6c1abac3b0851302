import { APIError } from 'openai'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { startOpenAiFixture, type OpenAiFixture } from '../../../tests/fixtures/openai-fixture'
import { loadConfig } from '../config'
import { createEmbeddingsProvider, createLlmProvider } from './index'
import { OpenAiCompatibleEmbeddings, OpenAiCompatibleProvider, toLlmError, type OpenAiCompatibleOptions } from './openai-compatible'
import { LlmError, type ChatChunk, type ChatMessage, type ChatRequest, type ToolDefinition } from './provider'

const SYSTEM = 'Answer only from the numbered sources and cite them as [n].'
const SOURCES = [
  '[1] Pruning apple trees',
  'Prune apple trees in late winter while they are dormant. Remove crossing branches first.',
  '',
  '[2] Watering tomatoes',
  'Tomato plants need deep watering twice a week. Water the soil at the base of the plant, never the leaves.',
].join('\n')

function ask(question: string): ChatMessage[] {
  return [
    { role: 'system', content: SYSTEM },
    { role: 'user', content: `Sources:\n${SOURCES}\n\nQuestion: ${question}` },
  ]
}

const SEARCH_TOOL: ToolDefinition = {
  name: 'knowledge_search',
  description: 'Search the knowledge base for passages about a topic.',
  parameters: { type: 'object', properties: { query: { type: 'string' }, limit: { type: 'integer', minimum: 1 } }, required: ['query'] },
}
const WEATHER_TOOL: ToolDefinition = {
  name: 'weather_forecast',
  description: 'Tell the weather forecast for a city.',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
}

async function collect(stream: AsyncIterable<ChatChunk>): Promise<{ pieces: string[]; chunks: ChatChunk[]; error?: unknown }> {
  const pieces: string[] = []
  const chunks: ChatChunk[] = []
  try {
    for await (const chunk of stream) {
      chunks.push(chunk)
      if (chunk.type === 'text') pieces.push(chunk.text)
    }
  } catch (error) {
    return { pieces, chunks, error }
  }
  return { pieces, chunks }
}

async function failure(promise: Promise<unknown>): Promise<LlmError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  )
  expect(error).toBeInstanceOf(LlmError)
  return error as LlmError
}

describe('OpenAiCompatibleProvider against the OpenAI-compatible fixture', () => {
  let fixture: OpenAiFixture
  const provider = (options: Partial<OpenAiCompatibleOptions> = {}) =>
    new OpenAiCompatibleProvider({
      baseUrl: fixture.baseUrl,
      timeoutMs: 5_000,
      retry: { attempts: 3, baseDelayMs: 1, maxDelayMs: 500 },
      ...options,
    })
  const chatLog = () => fixture.log.filter((entry) => entry.path.endsWith('/chat/completions'))

  beforeAll(async () => {
    fixture = await startOpenAiFixture()
  })
  afterAll(async () => {
    await fixture?.close()
  })
  beforeEach(() => fixture.reset())

  describe('models', () => {
    it('offers LLM_MODELS in order, the first as the default, without asking the endpoint', async () => {
      const llm = provider({ models: ['fixture-mini', ' fixture-chat ', 'fixture-mini'] })
      expect(await llm.listModels()).toEqual(['fixture-mini', 'fixture-chat'])
      expect(await llm.defaultModel()).toBe('fixture-mini')
      expect(fixture.log).toEqual([])
      await llm.chat({ messages: ask('When should I prune apple trees?') })
      expect(fixture.requests[0].model).toBe('fixture-mini')
    })

    it('reads /v1/models when LLM_MODELS is unset, leaves out embedding models, and keeps the list', async () => {
      const llm = provider()
      expect(await llm.listModels()).toEqual(['fixture-chat', 'fixture-mini'])
      expect(await llm.defaultModel()).toBe('fixture-chat')
      await llm.listModels()
      expect(fixture.log.filter((entry) => entry.path === '/v1/models')).toHaveLength(1)
    })

    it('names the LLM_MODELS entries the endpoint does not list, with those it does, asking once', async () => {
      const llm = provider({ models: ['fixture-model', 'fixture-mini'] })
      expect(await llm.unavailableModels()).toEqual({ missing: ['fixture-model'], offered: ['fixture-chat', 'fixture-mini'] })
      expect(await llm.unavailableModels()).toEqual({ missing: ['fixture-model'], offered: ['fixture-chat', 'fixture-mini'] })
      expect(fixture.log.filter((entry) => entry.path === '/v1/models')).toHaveLength(1)
      // LLM_MODELS stays what was configured: the default is not silently another model.
      expect(await llm.listModels()).toEqual(['fixture-model', 'fixture-mini'])
      expect(await provider({ models: ['fixture-chat'] }).unavailableModels()).toEqual({ missing: [], offered: ['fixture-chat', 'fixture-mini'] })
      // Nothing to compare without LLM_MODELS, nor for Azure deployments, which cannot be listed.
      expect(await provider().unavailableModels()).toBeUndefined()
      expect(await provider({ models: ['gpt'], apiKey: 'k', apiVersion: '2024-10-21', baseUrl: `${fixture.origin}/openai` }).unavailableModels()).toBeUndefined()
    })

    it('retries a failed model list and does not keep a failure', async () => {
      fixture.script('server-error=503', { endpoint: 'models', times: 3 })
      const llm = provider()
      expect((await failure(llm.listModels())).kind).toBe('server')
      expect(await llm.listModels()).toEqual(['fixture-chat', 'fixture-mini'])
      expect(fixture.log.map((entry) => entry.status)).toEqual([503, 503, 503, 200])
    })
  })

  describe('answers', () => {
    it('writes a whole answer, cited from the prompt, with usage', async () => {
      const result = await provider().chat({ messages: ask('How often do tomato plants need watering?'), temperature: 0.2, maxTokens: 200 })
      expect(result.text).toBe('Tomato plants need deep watering twice a week [2].')
      expect(result).toMatchObject({ model: 'fixture-chat', finishReason: 'stop', toolCalls: [] })
      expect(result.usage?.promptTokens).toBeGreaterThan(20)
      expect(result.usage?.completionTokens).toBeGreaterThan(5)
      const body = fixture.requests[0]
      expect(body).toMatchObject({ model: 'fixture-chat', temperature: 0.2, max_tokens: 200 })
      expect(body.messages).toEqual([
        { role: 'system', content: SYSTEM },
        { role: 'user', content: expect.stringContaining('Question: How often') },
      ])
      expect(body.stream).toBe(false)
      expect(body.stream_options).toBeUndefined()
    })

    it('streams the answer piece by piece, then the whole result with usage', async () => {
      const { pieces, chunks, error } = await collect(provider().stream({ messages: ask('When should I prune apple trees?'), model: 'fixture-mini' }))
      expect(error).toBeUndefined()
      expect(pieces.length).toBeGreaterThan(5)
      const done = chunks.at(-1)
      expect(done?.type).toBe('done')
      if (done?.type !== 'done') return
      expect(done.result.text).toBe(pieces.join(''))
      expect(done.result.text).toBe('Prune apple trees in late winter while they are dormant [1].')
      expect(done.result).toMatchObject({ model: 'fixture-mini', finishReason: 'stop' })
      expect(done.result.usage?.completionTokens).toBe(pieces.length)
      expect(fixture.requests[0]).toMatchObject({ stream: true, stream_options: { include_usage: true } })
    })

    it('streams without usage from a server that sends none', async () => {
      const { chunks } = await collect(provider({ streamUsage: false }).stream({ messages: ask('When should I prune apple trees?') }))
      const done = chunks.at(-1)
      expect(done?.type === 'done' && done.result.usage).toBeUndefined()
      expect(done?.type === 'done' && done.result.text).toContain('[1]')
      expect(fixture.requests[0].stream_options).toBeUndefined()
    })

    it('tells a model the endpoint does not have, naming it, without retrying', async () => {
      const error = await failure(provider().chat({ model: 'no-such-model', messages: ask('Anything?') }))
      expect(error).toMatchObject({ kind: 'model_not_found', model: 'no-such-model', status: 404, retryable: false })
      expect(error.message).toContain('"no-such-model"')
      expect(chatLog()).toHaveLength(1)
      // A misspelt LLM_MODELS entry, the default model, streamed as the Ask screen asks.
      const { error: streamed, pieces } = await collect(provider({ models: ['fixture-model'] }).stream({ messages: ask('Anything?') }))
      expect(pieces).toEqual([])
      expect(streamed).toMatchObject({ kind: 'model_not_found', model: 'fixture-model', status: 404 })
      expect(chatLog()).toHaveLength(2)
    })
  })

  describe('tool calls', () => {
    it('maps tools out and the call back, then answers from the tool result', async () => {
      const llm = provider()
      const question: ChatMessage = { role: 'user', content: 'Search the knowledge base: how should I water tomatoes?' }
      const first = await llm.chat({ messages: [question], tools: [WEATHER_TOOL, SEARCH_TOOL] })
      expect(first.finishReason).toBe('tool_calls')
      expect(first.text).toBe('')
      expect(first.toolCalls).toHaveLength(1)
      expect(first.toolCalls[0].name).toBe('knowledge_search')
      expect(JSON.parse(first.toolCalls[0].arguments)).toEqual({ query: question.content })
      expect(fixture.requests[0].tools).toEqual([
        { type: 'function', function: { name: 'weather_forecast', description: WEATHER_TOOL.description, parameters: WEATHER_TOOL.parameters } },
        { type: 'function', function: { name: 'knowledge_search', description: SEARCH_TOOL.description, parameters: SEARCH_TOOL.parameters } },
      ])

      const second = await llm.chat({
        messages: [
          question,
          { role: 'assistant', content: '', toolCalls: first.toolCalls },
          { role: 'tool', content: SOURCES, toolCallId: first.toolCalls[0].id },
        ],
        tools: [WEATHER_TOOL, SEARCH_TOOL],
      })
      expect(second.toolCalls).toEqual([])
      expect(second.text).toContain('[2]')
      expect(fixture.requests[1].messages.slice(1)).toEqual([
        { role: 'assistant', content: null, tool_calls: [{ id: first.toolCalls[0].id, type: 'function', function: { name: 'knowledge_search', arguments: first.toolCalls[0].arguments } }] },
        { role: 'tool', content: SOURCES, tool_call_id: first.toolCalls[0].id },
      ])
    })

    it('puts a streamed tool call back together', async () => {
      const { pieces, chunks } = await collect(
        provider().stream({ messages: [{ role: 'user', content: 'What is the weather forecast for Lyon?' }], tools: [SEARCH_TOOL, WEATHER_TOOL] }),
      )
      expect(pieces).toEqual([])
      const done = chunks.at(-1)
      if (done?.type !== 'done') throw new Error('no result')
      expect(done.result.finishReason).toBe('tool_calls')
      expect(done.result.toolCalls).toEqual([{ id: expect.stringMatching(/^call_/), name: 'weather_forecast', arguments: JSON.stringify({ city: 'What is the weather forecast for Lyon?' }) }])
    })

    it('passes malformed arguments through for the caller to judge', async () => {
      const result = await provider().chat({ messages: [{ role: 'user', content: 'Search for compost #fixture:bad-tool-args' }], tools: [SEARCH_TOOL] })
      expect(() => JSON.parse(result.toolCalls[0].arguments)).toThrow()
    })
  })

  describe('failures', () => {
    it('retries after a 429, waiting as the server asks, then answers', async () => {
      fixture.script('rate-limit=20')
      const result = await provider().chat({ messages: ask('When should I prune apple trees?') })
      expect(result.text).toContain('[1]')
      expect(chatLog().map((entry) => entry.status)).toEqual([429, 200])
    })

    it('does not wait for a Retry-After beyond the cap', async () => {
      fixture.script('rate-limit=60000')
      const error = await failure(provider().chat({ messages: ask('When should I prune apple trees?') }))
      expect(error).toMatchObject({ kind: 'rate_limited', status: 429, retryable: true })
      expect(chatLog()).toHaveLength(1)
    })

    it('retries a stream after a 500 before its first word, then streams', async () => {
      fixture.script('server-error=500')
      const { pieces, chunks, error } = await collect(provider().stream({ messages: ask('How often do tomato plants need watering?') }))
      expect(error).toBeUndefined()
      expect(pieces.join('')).toBe('Tomato plants need deep watering twice a week [2].')
      expect(chunks.at(-1)?.type).toBe('done')
      expect(chatLog().map((entry) => entry.status)).toEqual([500, 200])
    })

    it('retries a stream cut off before its first word', async () => {
      fixture.script('cut-off=0')
      const { pieces, error } = await collect(provider().stream({ messages: ask('When should I prune apple trees?') }))
      expect(error).toBeUndefined()
      expect(pieces.join('')).toContain('[1]')
      expect(chatLog()).toHaveLength(2)
    })

    it('gives up after the last try, with the last failure', async () => {
      fixture.script('server-error=502', { times: 5 })
      const error = await failure(provider().chat({ messages: ask('When should I prune apple trees?') }))
      expect(error).toMatchObject({ kind: 'server', status: 502, retryable: true })
      expect(chatLog()).toHaveLength(3)
    })

    it('does not retry a stream cut off mid-way: the words so far, then interrupted', async () => {
      fixture.script('cut-off=4')
      const { pieces, chunks, error } = await collect(provider().stream({ messages: ask('How often do tomato plants need watering?') }))
      expect(pieces).toEqual(['Tomato', ' plants', ' need', ' deep'])
      expect(chunks.some((chunk) => chunk.type === 'done')).toBe(false)
      expect(error).toBeInstanceOf(LlmError)
      expect(error).toMatchObject({ kind: 'interrupted', retryable: false })
      expect(chatLog()).toHaveLength(1)
    })

    it('does not retry a stream that reports an error mid-way', async () => {
      const { pieces, error } = await collect(provider().stream({ messages: ask('How often do tomato plants need watering? #fixture:stream-error=2') }))
      expect(pieces).toEqual(['Tomato', ' plants'])
      expect(error).toMatchObject({ kind: 'interrupted' })
      expect(chatLog()).toHaveLength(1)
    })

    it('times out an endpoint that never answers, on every try', async () => {
      fixture.script('hang', { times: 2 })
      const error = await failure(provider({ timeoutMs: 200, retry: { attempts: 2, baseDelayMs: 1 } }).chat({ messages: ask('Anything?') }))
      expect(error).toMatchObject({ kind: 'timeout', retryable: true })
      expect(chatLog()).toHaveLength(2)
    })

    it('times out a whole answer whose body stops half-way', async () => {
      fixture.script('stall')
      const error = await failure(provider({ timeoutMs: 200, retry: { attempts: 1 } }).chat({ messages: ask('When should I prune apple trees?') }))
      expect(error.kind).toBe('timeout')
    })

    it('times out a stream that never starts, and retries it', async () => {
      fixture.script('hang')
      const { pieces, error } = await collect(provider({ timeoutMs: 1500 }).stream({ messages: ask('When should I prune apple trees?') }))
      expect(error).toBeUndefined()
      expect(pieces.join('')).toContain('[1]')
      expect(chatLog()).toHaveLength(2)
    })

    it('treats a stream gone silent after some words as interrupted by a time-out', async () => {
      fixture.script('stall=3')
      const { pieces, error } = await collect(provider({ timeoutMs: 1500 }).stream({ messages: ask('How often do tomato plants need watering?') }))
      expect(pieces).toEqual(['Tomato', ' plants', ' need'])
      expect(error).toMatchObject({ kind: 'interrupted' })
      expect((error as Error).message).toMatch(/did not answer within 1500 ms/)
      expect(chatLog()).toHaveLength(1)
    })

    it('does not count the caller’s own time between pieces as silence', async () => {
      const pieces: string[] = []
      for await (const chunk of provider({ timeoutMs: 1500 }).stream({ messages: ask('When should I prune apple trees?') })) {
        if (chunk.type !== 'text') continue
        pieces.push(chunk.text)
        if (pieces.length === 2) await new Promise((resolve) => setTimeout(resolve, 2500))
      }
      expect(pieces.join('')).toContain('[1]')
      expect(chatLog()).toHaveLength(1)
    })

    it('stops at once when the caller aborts, with the caller’s reason and no retry', async () => {
      fixture.script('hang')
      const controller = new AbortController()
      const request: ChatRequest = { messages: ask('Anything?'), signal: controller.signal }
      const pending = collect(provider().stream(request))
      while (chatLog().length === 0) await new Promise((resolve) => setTimeout(resolve, 5))
      controller.abort(new Error('the asker left'))
      const { error } = await pending
      expect(error).toEqual(new Error('the asker left'))
      expect(chatLog()).toHaveLength(1)
    })
  })

  describe('keys', () => {
    let guarded: OpenAiFixture
    beforeAll(async () => {
      guarded = await startOpenAiFixture({ apiKey: 'sk-fixture-right-key' })
    })
    afterAll(async () => {
      await guarded?.close()
    })

    it('sends the key, and does not retry a 401 for a wrong one', async () => {
      const right = new OpenAiCompatibleProvider({ baseUrl: guarded.baseUrl, apiKey: 'sk-fixture-right-key', models: ['fixture-chat'], retry: { baseDelayMs: 1 } })
      expect((await right.chat({ messages: ask('When should I prune apple trees?') })).text).toContain('[1]')
      const wrong = new OpenAiCompatibleProvider({ baseUrl: guarded.baseUrl, apiKey: 'sk-fixture-wrong-key', models: ['fixture-chat'], retry: { baseDelayMs: 1 } })
      const error = await failure(wrong.chat({ messages: ask('When should I prune apple trees?') }))
      expect(error).toMatchObject({ kind: 'refused', status: 401, retryable: false })
      expect(error.message).not.toContain('sk-fixture')
      const { error: streamed } = await collect(wrong.stream({ messages: ask('When should I prune apple trees?') }))
      expect(streamed).toMatchObject({ kind: 'refused', status: 401 })
      expect(guarded.log.map((entry) => [entry.path, entry.auth, entry.status])).toEqual([
        ['/v1/chat/completions', 'bearer', 200],
        ['/v1/chat/completions', 'bearer', 401],
        ['/v1/chat/completions', 'bearer', 401],
      ])
      await expect(new OpenAiCompatibleProvider({ baseUrl: guarded.baseUrl, apiKey: 'sk-fixture-wrong-key' }).listModels()).rejects.toMatchObject({ kind: 'refused', status: 401 })
    })

    it('speaks to Azure deployments: the model in the path, api-version and the api-key header', async () => {
      const azure = new OpenAiCompatibleProvider({
        baseUrl: `${guarded.origin}/openai`,
        apiKey: 'sk-fixture-right-key',
        apiVersion: '2024-10-21',
        models: ['fixture-chat'],
      })
      const { pieces } = await collect(azure.stream({ messages: ask('When should I prune apple trees?') }))
      expect(pieces.join('')).toContain('[1]')
      expect(guarded.log.at(-1)).toMatchObject({
        method: 'POST',
        path: '/openai/deployments/fixture-chat/chat/completions',
        query: { 'api-version': '2024-10-21' },
        auth: 'api-key',
        status: 200,
      })
    })
  })
})

describe('OpenAiCompatibleEmbeddings against the fixture', () => {
  let fixture: OpenAiFixture
  const embeddings = (batchSize?: number) =>
    new OpenAiCompatibleEmbeddings({ baseUrl: fixture.baseUrl, model: 'fixture-embed', batchSize, retry: { baseDelayMs: 1 } })
  const cosine = (a: number[], b: number[]) => a.reduce((sum, value, index) => sum + value * b[index], 0)

  beforeAll(async () => {
    fixture = await startOpenAiFixture()
  })
  afterAll(async () => {
    await fixture?.close()
  })
  beforeEach(() => fixture.reset())

  it('answers one normalised vector per input, in order, the same for the same text', async () => {
    const texts = ['Watering tomato plants twice a week', 'How often should tomatoes be watered?', 'Pruning apple trees in winter']
    const vectors = await embeddings().embed(texts)
    expect(vectors).toHaveLength(3)
    for (const vector of vectors) {
      expect(vector).toHaveLength(256)
      expect(Math.hypot(...vector)).toBeCloseTo(1, 6)
    }
    expect(cosine(vectors[0], vectors[1])).toBeGreaterThan(cosine(vectors[0], vectors[2]))
    const again = await embeddings().embed([texts[2], texts[0]])
    expect(again).toEqual([vectors[2], vectors[0]])
    expect(fixture.requests[0]).toEqual({ model: 'fixture-embed', input: texts, encoding_format: 'float' })
  })

  it('sends large inputs in batches and asks nothing for no input', async () => {
    const vectors = await embeddings(2).embed(['one apple', 'two pears', 'three plums', 'four figs', 'five limes'])
    expect(vectors).toHaveLength(5)
    expect(fixture.requests.map((body) => body.input)).toEqual([['one apple', 'two pears'], ['three plums', 'four figs'], ['five limes']])
    expect(await embeddings().embed([])).toEqual([])
    expect(fixture.requests).toHaveLength(3)
  })

  it('retries a rate-limited batch, and refuses an unknown model without retrying', async () => {
    fixture.script('rate-limit=5', { endpoint: 'embeddings' })
    expect(await embeddings().embed(['compost heap'])).toHaveLength(1)
    expect(fixture.log.map((entry) => entry.status)).toEqual([429, 200])
    const unknown = new OpenAiCompatibleEmbeddings({ baseUrl: fixture.baseUrl, model: 'no-such-embedder', retry: { baseDelayMs: 1 } })
    expect(await failure(unknown.embed(['compost heap']))).toMatchObject({ kind: 'refused', status: 404 })
    expect(fixture.log).toHaveLength(3)
  })
})

describe('toLlmError', () => {
  const refusal = (status: number, body: object) => APIError.generate(status, body, undefined, new Headers())

  it('tells an unknown model as OpenAI, Ollama, vLLM and llama.cpp report it, and nothing else', () => {
    const cases: Array<[number, object, string]> = [
      [404, { error: { code: 'model_not_found', message: 'The model `fixture-model` does not exist', type: 'invalid_request_error' } }, 'fixture-model'],
      [404, { error: 'model "llama3" not found, try pulling it first' }, 'llama3'],
      [404, { error: { message: 'The model `qwen2.5` does not exist.', type: 'NotFoundError', code: 404 } }, 'qwen2.5'],
      [400, { error: { message: 'model not found: mistral-7b', type: 'invalid_request_error' } }, 'mistral-7b'],
    ]
    for (const [status, body, model] of cases) {
      expect(toLlmError(refusal(status, body), undefined, undefined, model), JSON.stringify(body)).toMatchObject({ kind: 'model_not_found', model, status, retryable: false })
    }
    // Other refusals stay refusals: a wrong path, a bad parameter, or no model to compare with (embeddings).
    expect(toLlmError(refusal(404, { error: { message: 'Resource not found' } }), undefined, undefined, 'fixture-chat').kind).toBe('refused')
    expect(toLlmError(refusal(400, { error: { message: "Invalid 'temperature' for fixture-chat: expected a number between 0 and 2." } }), undefined, undefined, 'fixture-chat').kind).toBe('refused')
    expect(toLlmError(refusal(404, { error: { code: 'model_not_found', message: 'The model `x` does not exist' } })).kind).toBe('refused')
  })
})

describe('createLlmProvider and createEmbeddingsProvider', () => {
  const config = (environment: Record<string, string>) => loadConfig({ API_KEY: 'test-key-123', ...environment })

  it('give nothing when no endpoint is configured', () => {
    expect(createLlmProvider(config({}))).toBeUndefined()
    expect(createEmbeddingsProvider(config({ LLM_BASE_URL: 'http://127.0.0.1:11434/v1' }))).toBeUndefined()
  })

  it('build providers from the settings', async () => {
    const settings = config({ LLM_BASE_URL: 'http://127.0.0.1:11434/v1', LLM_MODELS: 'llama3.1, qwen2.5', LLM_TIMEOUT_MS: '1500', EMBEDDINGS_MODEL: 'nomic-embed-text' })
    const llm = createLlmProvider(settings)
    expect(llm).toBeInstanceOf(OpenAiCompatibleProvider)
    expect(await llm?.listModels()).toEqual(['llama3.1', 'qwen2.5'])
    expect(createEmbeddingsProvider(settings)?.model).toBe('nomic-embed-text')
  })

  it('refuse settings that cannot work', () => {
    expect(() => config({ LLM_BASE_URL: 'not a url' })).toThrow(/LLM_BASE_URL/)
    expect(() => createLlmProvider(config({ LLM_BASE_URL: 'https://example.openai.azure.com/openai', LLM_API_VERSION: '2024-10-21', LLM_API_KEY: 'k' }))).toThrow(/LLM_MODELS/)
    expect(() => createLlmProvider(config({ LLM_BASE_URL: 'https://example.openai.azure.com/openai', LLM_API_VERSION: '2024-10-21', LLM_MODELS: 'gpt' }))).toThrow(/LLM_API_KEY/)
    expect(() => createEmbeddingsProvider(config({ EMBEDDINGS_MODEL: 'embedder' }))).toThrow(/EMBEDDINGS_BASE_URL/)
    expect(() => createEmbeddingsProvider(config({ EMBEDDINGS_BASE_URL: 'http://127.0.0.1:8080/v1' }))).toThrow(/EMBEDDINGS_MODEL/)
  })

  it('never send the model key to a separate embeddings endpoint', async () => {
    const fixture = await startOpenAiFixture({ apiKey: 'sk-model-key' })
    try {
      const shared = createEmbeddingsProvider(config({ LLM_BASE_URL: fixture.baseUrl, LLM_API_KEY: 'sk-model-key', EMBEDDINGS_MODEL: 'fixture-embed' }))
      expect(await shared?.embed(['compost'])).toHaveLength(1)
      const separate = createEmbeddingsProvider(
        config({ LLM_BASE_URL: 'http://127.0.0.1:9/v1', LLM_API_KEY: 'sk-model-key', EMBEDDINGS_BASE_URL: fixture.baseUrl, EMBEDDINGS_MODEL: 'fixture-embed' }),
      )
      expect(await failure(separate!.embed(['compost']))).toMatchObject({ kind: 'refused', status: 401 })
      expect(fixture.log.map((entry) => entry.status)).toEqual([200, 401])
    } finally {
      await fixture.close()
    }
  })
})
