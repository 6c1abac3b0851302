import { spawn } from 'node:child_process'
import { createServer } from 'node:net'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { fixtureEmbedding, parseSources, startOpenAiFixture, type OpenAiFixture } from '../../../tests/fixtures/openai-fixture'

/** The test fixture speaks the wire protocol as OpenAI does: these checks keep it honest for every test that uses it. */

const PROMPT = [
  'Use only these sources.',
  '[1] Pruning apple trees',
  'Prune apple trees in late winter while they are dormant. Remove crossing branches first.',
  '[2] Watering tomatoes',
  'Tomato plants need deep watering twice a week. Water the soil at the base of the plant, never the leaves.',
  '',
  'Question: Should I water the leaves or the soil?',
].join('\n')

describe('the OpenAI-compatible fixture', () => {
  let fixture: OpenAiFixture
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${fixture.baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    })
  const answer = async (content: string, extra: Record<string, unknown> = {}) => {
    const response = await post('/chat/completions', { model: 'fixture-chat', messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content }], ...extra })
    expect(response.status).toBe(200)
    return ((await response.json()) as any).choices[0].message.content as string
  }

  beforeAll(async () => {
    fixture = await startOpenAiFixture()
  })
  afterAll(async () => {
    await fixture?.close()
  })
  beforeEach(() => fixture.reset())

  it('quotes the source sentence that best matches the question and cites it', async () => {
    expect(await answer(PROMPT)).toBe('Water the soil at the base of the plant, never the leaves [2].')
    expect(await answer(PROMPT.replace('Should I water the leaves or the soil?', 'When do I prune apple trees?'))).toBe(
      'Prune apple trees in late winter while they are dormant [1].',
    )
    // A question touching two sources gets a sentence from each, the closer source first.
    expect(await answer(PROMPT.replace('Should I water the leaves or the soil?', 'Do tomato plants need watering while I prune the apple trees in winter?'))).toBe(
      'Prune apple trees in late winter while they are dormant [1]. Tomato plants need deep watering twice a week [2].',
    )
    expect(await answer(PROMPT.replace('Should I water the leaves or the soil?', 'What is the capital of France?'))).toBe('The sources do not answer this question.')
    expect(await answer('What is the capital of France?')).toBe('I could not find any sources to answer from.')
  })

  it('misbehaves on a marker in the question', async () => {
    expect(await answer(`${PROMPT} #fixture:bad-citations`)).toBe('Water the soil at the base of the plant, never the leaves [9].')
    const twoSources = PROMPT.replace('Should I water the leaves or the soil?', 'Do tomato plants need watering while I prune the apple trees in winter?')
    expect(await answer(`${twoSources} #fixture:bad-citations`)).toMatch(/^Prune .* \[9\]\. Tomato .* \[0\]\.$/)
    expect(await answer(`${PROMPT} #fixture:no-citations`)).not.toMatch(/\[\d+\]/)
    expect(await answer(`${PROMPT} #fixture:echo-system`)).toBe('Be brief.')
    expect(await answer(`${PROMPT} #fixture:empty`)).toBe('')
    const limited = await post('/chat/completions', { model: 'fixture-chat', messages: [{ role: 'user', content: `${PROMPT} #fixture:rate-limit=1500` }] })
    expect(limited.status).toBe(429)
    expect(limited.headers.get('retry-after')).toBe('2')
    expect(limited.headers.get('retry-after-ms')).toBe('1500')
    expect(((await limited.json()) as any).error.code).toBe('rate_limit_exceeded')
  })

  it('misbehaves on the next scripted requests, then behaves again', async () => {
    fixture.script(['server-error=503'], { times: 2 })
    fixture.script('no-citations')
    const statuses = []
    for (let index = 0; index < 4; index++) {
      const response = await post('/chat/completions', { model: 'fixture-chat', messages: [{ role: 'user', content: PROMPT }] })
      statuses.push(response.status)
      if (response.status === 200) expect(((await response.json()) as any).choices[0].message.content).toMatch(index === 2 ? /leaves\.$/ : /\[2\]/)
    }
    expect(statuses).toEqual([503, 503, 200, 200])
    expect(() => fixture.script('nonsense' as never)).toThrow(/Unknown fixture mode/)
  })

  it('streams chat.completion.chunk events, usage in a last chunk, then [DONE]', async () => {
    const response = await post('/chat/completions', {
      model: 'fixture-mini',
      messages: [{ role: 'user', content: PROMPT }],
      stream: true,
      stream_options: { include_usage: true },
    })
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/)
    const events = (await response.text()).split('\n\n').filter(Boolean)
    expect(events.at(-1)).toBe('data: [DONE]')
    const chunks = events.slice(0, -1).map((event) => {
      expect(event.startsWith('data: ')).toBe(true)
      return JSON.parse(event.slice(6))
    })
    expect(chunks[0]).toMatchObject({ object: 'chat.completion.chunk', model: 'fixture-mini', choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }], usage: null })
    const text = chunks.flatMap((chunk) => chunk.choices.map((choice: any) => choice.delta.content ?? '')).join('')
    expect(text).toMatch(/never the leaves \[2\]\./)
    // A citation reaches the client in several pieces, as tokenisers split it.
    expect(chunks.some((chunk) => chunk.choices[0]?.delta.content === '[')).toBe(true)
    expect(chunks.at(-2).choices[0]).toMatchObject({ delta: {}, finish_reason: 'stop' })
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: expect.any(Number), completion_tokens: expect.any(Number) } })
  })

  it('stops at max_tokens with finish_reason length', async () => {
    const response = await post('/chat/completions', { model: 'fixture-chat', messages: [{ role: 'user', content: PROMPT }], max_tokens: 3 })
    const body = (await response.json()) as any
    expect(body.choices[0]).toMatchObject({ message: { content: 'Water the soil' }, finish_reason: 'length' })
    expect(body.usage.completion_tokens).toBe(3)
  })

  it('answers malformed requests with 400 and an OpenAI error body', async () => {
    const cases: Array<[unknown, RegExp, string | null]> = [
      ['{not json', /could not parse the JSON body/, null],
      [{ messages: [{ role: 'user', content: 'hi' }] }, /must provide a model/, null],
      [{ model: 'fixture-chat' }, /Missing required parameter: 'messages'/, 'messages'],
      [{ model: 'fixture-chat', messages: 'hi' }, /expected an array/, 'messages'],
      [{ model: 'fixture-chat', messages: [] }, /empty array/, 'messages'],
      [{ model: 'fixture-chat', messages: [{ role: 'robot', content: 'hi' }] }, /Invalid value: 'robot'/, 'messages[0].role'],
      [{ model: 'fixture-chat', messages: [{ role: 'user', content: 42 }] }, /messages\[0\]\.content/, 'messages[0].content'],
      [{ model: 'fixture-chat', messages: [{ role: 'user', content: 'hi' }], stream_options: { include_usage: true } }, /only allowed when 'stream' is enabled/, 'stream_options'],
      [{ model: 'fixture-chat', messages: [{ role: 'user', content: 'hi' }, { role: 'tool', content: 'x', tool_call_id: 'call_1' }] }, /preceeding message with 'tool_calls'/, 'messages[1].role'],
      [{ model: 'fixture-chat', messages: [{ role: 'user', content: 'hi' }], tools: [{ type: 'function', function: { name: 'bad name!' } }] }, /tools\[0\]/, 'tools[0]'],
      [{ model: 'fixture-chat', messages: [{ role: 'user', content: 'hi' }], temperature: 3 }, /temperature/, 'temperature'],
    ]
    for (const [body, message, param] of cases) {
      const response = await post('/chat/completions', body)
      expect(response.status, JSON.stringify(body)).toBe(400)
      const { error } = (await response.json()) as any
      expect(error.message).toMatch(message)
      expect(error).toMatchObject({ type: 'invalid_request_error', param })
    }
    const unknown = await post('/chat/completions', { model: 'gpt-nope', messages: [{ role: 'user', content: 'hi' }] })
    expect(unknown.status).toBe(404)
    expect(((await unknown.json()) as any).error.code).toBe('model_not_found')
    expect((await post('/embeddings', { model: 'fixture-embed', input: [] })).status).toBe(400)
    expect((await post('/embeddings', { model: 'fixture-embed', input: 'x', encoding_format: 'hex' })).status).toBe(400)
    expect((await fetch(`${fixture.baseUrl}/completions`, { method: 'POST' })).status).toBe(404)
  })

  it('embeds as floats or base64, with the requested dimensions', async () => {
    const floats = (await (await post('/embeddings', { model: 'fixture-embed', input: 'raised beds', dimensions: 64 })).json()) as any
    expect(floats).toMatchObject({ object: 'list', model: 'fixture-embed', data: [{ object: 'embedding', index: 0 }] })
    expect(floats.data[0].embedding).toEqual(fixtureEmbedding('raised beds', 64))
    const encoded = (await (await post('/embeddings', { model: 'fixture-embed', input: ['raised beds'], encoding_format: 'base64' })).json()) as any
    const decoded = Array.from(new Float32Array(new Uint8Array(Buffer.from(encoded.data[0].embedding, 'base64')).buffer))
    expect(decoded).toHaveLength(256)
    fixtureEmbedding('raised beds').forEach((value, index) => expect(decoded[index]).toBeCloseTo(value, 6))
  })

  it('requires the key it was started with', async () => {
    const guarded = await startOpenAiFixture({ apiKey: 'sk-secret' })
    try {
      const models = (headers: Record<string, string>) => fetch(`${guarded.baseUrl}/models`, { headers })
      expect((await models({})).status).toBe(401)
      const wrong = await models({ authorization: 'Bearer sk-other' })
      expect(wrong.status).toBe(401)
      expect(((await wrong.json()) as any).error.code).toBe('invalid_api_key')
      expect((await models({ authorization: 'Bearer sk-secret' })).status).toBe(200)
      expect(guarded.log.map((entry) => entry.auth)).toEqual(['none', 'bearer', 'bearer'])
    } finally {
      await guarded.close()
    }
  })

  it('reads sources written in several common ways', () => {
    expect(parseSources('[1] Title\nFirst line.\nSecond line.\n\n[2] Other\nText two.\nQuestion: why?')).toEqual([
      { number: 1, title: 'Title', passage: 'First line.\nSecond line.' },
      { number: 2, title: 'Other', passage: 'Text two.' },
    ])
    expect(parseSources('Source [3]: Composting — Turn the heap every fortnight.\n- [4] Mulch: Straw keeps roots cool.')).toEqual([
      { number: 3, title: 'Composting', passage: 'Turn the heap every fortnight.' },
      { number: 4, title: 'Mulch', passage: 'Straw keeps roots cool.' },
    ])
    expect(parseSources('[5] Only a passage without a title.')).toEqual([{ number: 5, title: '', passage: 'Only a passage without a title.' }])
  })

  it('runs on its own on a given port', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as { port: number }
        probe.close(() => resolve(port))
      })
    })
    const child = spawn(process.execPath, ['--import', 'tsx', 'tests/fixtures/openai-fixture.ts', '--port', String(port), '--models', 'solo-model'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    try {
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (data: Buffer) => data.toString().includes('fixture on') && resolve())
        child.once('exit', (code) => reject(new Error(`fixture exited with ${code}`)))
      })
      const listed = (await (await fetch(`http://127.0.0.1:${port}/v1/models`)).json()) as any
      expect(listed.data.map((model: any) => model.id)).toEqual(['solo-model', 'fixture-embed'])
    } finally {
      child.kill('SIGTERM')
    }
  })
})
