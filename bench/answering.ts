/**
 * The product's own time around the language model, and citation validity when the model misbehaves.
 *
 *   npm run bench:answer [-- --rounds 10 --misbehaving 6]
 *
 * The real backend (buildBackend, in-memory PGlite, the 24 demo guide articles) answers through the real
 * OpenAI-compatible provider, against the local fixture server (tests/fixtures/openai-fixture.ts, in its own
 * process so that its work does not share the backend's event loop), which answers instantly. Misbehaviour is asked
 * for with the fixture's markers in the question (`#fixture:bad-citations`), which every retry repeats. So whatever time an answer takes beyond the model's is the product's: retrieval, the firewall's
 * passage screen, prompt building, the citation checks, streaming and the query log.
 *
 * 1. Over HTTP, POST /ask_qa_stream for every demo question, `--rounds` times (after one warm-up round): the time
 *    to the first delta and to `done` at the client, minus the model's own time from the query log
 *    (llm_first_token_ms, llm_total_ms: from the request to the model to its first word, and to its end).
 * 2. In process, each step on its own: retrieval (KeywordRetriever), the passage screen, prompt building, and the
 *    grounder over a model answer fed in 4-character pieces.
 * 3. Citation validity: each misbehaving script of the fixture (citations that do not exist, none, the system
 *    prompt echoed, empty answers, errors and cuts mid-stream, 500s, 429s, a hanging model) on `--misbehaving`
 *    questions; an answer is valid when every "[n]" it showed (each delta, against the sources sent so far) and
 *    its final text name one of its sources.
 *
 * Results: bench/results/answering.md and answering.json, with the machine's load (uptime).
 */
import { execSync, spawn } from 'node:child_process'
import { createInterface } from 'node:readline'
import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { buildBackend } from '../backend/src/app'
import { CitationGrounder } from '../backend/src/answering/grounding'
import { CitationList } from '../backend/src/answering/citations'
import { buildAnswerPrompt } from '../backend/src/answering/prompt'
import { KeywordRetriever } from '../backend/src/answering/retriever'
import { QuestionAnswerer } from '../backend/src/answering/answerer'
import type { ChatChunk, ChatRequest, ChatResult, LlmProvider } from '../backend/src/llm/provider'
import { loadConfig } from '../backend/src/config'
import { readDemoArticles } from '../backend/src/demo/demo-content'
import { screenPassage } from '../backend/src/modules/firewall/semantic-firewall'
import { parseSources, type FixtureModeSpec } from '../tests/fixtures/openai-fixture'
import { describeMachine, formatMarkdownTable, formatNumber, log, percentile } from './lib/report'

const BENCH_DIRECTORY = path.dirname(fileURLToPath(import.meta.url))
const RESULTS_DIRECTORY = path.join(BENCH_DIRECTORY, 'results')
const DEMO_DIRECTORY = fileURLToPath(new URL('../backend/src/demo/articles/', import.meta.url))
const API_KEY = 'bench-api-key-0123456789'
const ADMIN_PASSWORD = 'bench-admin-password'
const TARGET_P95_MS = 20

const { values: args } = parseArgs({
  options: {
    rounds: { type: 'string', default: '10' },
    misbehaving: { type: 'string', default: '6' },
  },
})
const rounds = Math.max(1, Number(args.rounds))
const misbehavingQuestions = Math.max(1, Number(args.misbehaving))

interface StreamedAnswer {
  firstDeltaMs: number
  doneMs: number
  done: { result: string; source_list: unknown[]; log_id: number; note: string | null; unsupported: string[]; found: boolean }
  /** Every "[n]" shown in a delta named a source sent before it (or the final list). */
  areDeltasValid: boolean
  resets: number
}

const stats = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  return { n: sorted.length, p50: percentile(sorted, 0.5), p95: percentile(sorted, 0.95), max: sorted[sorted.length - 1] ?? Number.NaN }
}
const ms = (value: number) => formatNumber(value, value < 10 ? 2 : 1)
const citationsIn = (text: string) => [...text.matchAll(/\[(\d+)\]/g)].map((match) => Number(match[1]))

log('starting the fixture model and the backend (in-memory PGlite, demo guide)')
const fixtureProcess = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('../tests/fixtures/openai-fixture.ts', import.meta.url)), '--port', '0'], {
  stdio: ['ignore', 'pipe', 'inherit'],
})
const fixtureUrl = await new Promise<string>((resolve, reject) => {
  fixtureProcess.once('exit', (code) => reject(new Error(`the fixture exited with ${code}`)))
  createInterface({ input: fixtureProcess.stdout! }).on('line', (line) => {
    const url = /on (http:\/\/\S+)/.exec(line)?.[1]
    if (url) resolve(url)
  })
})
/** The question with the fixture's marker for a misbehaviour. */
const withMode = (question: string, mode: FixtureModeSpec) => `${question} #fixture:${mode}`
const config = loadConfig({
  API_KEY,
  API_PORT: '0',
  DATABASE_URL: 'memory://',
  LOG_LEVEL: 'silent',
  LOAD_DEMO_CONTENT: 'true',
  ADMIN_PASSWORD,
  TOKEN_SECRET: 'bench-token-secret-bench-token-secret-0123',
  JOB_POLL_MS: '100',
  LLM_BASE_URL: fixtureUrl,
  LLM_MODELS: 'fixture-chat',
  LLM_TIMEOUT_MS: '1500',
  // Every question is asked as one account, rounds over: no per-account limit on asking.
  ASK_RATE_LIMIT: '0',
})
const backend = await buildBackend(config, { demoDirectory: DEMO_DIRECTORY })
const baseUrl = await backend.app.listen({ host: '127.0.0.1', port: 0 })
const token = (await backend.services.identity.signIn(config.ADMIN_USERNAME, ADMIN_PASSWORD)).accessToken
const headers = { apikey: API_KEY, authorization: `Bearer ${token}`, 'content-type': 'application/json' }
const questions = (await readDemoArticles(DEMO_DIRECTORY)).map((article) => `${article.title}?`)
log(`${questions.length} questions, ${backend.services.knowledge.chunkCount} chunks`)

async function askStream(command: string): Promise<StreamedAnswer> {
  const started = performance.now()
  const response = await fetch(`${baseUrl}/ask_qa_stream`, { method: 'POST', headers, body: JSON.stringify({ command }) })
  if (!response.ok || !response.body) throw new Error(`ask_qa_stream answered ${response.status}: ${await response.text()}`)
  const decoder = new TextDecoder()
  let buffer = ''
  let firstDeltaMs = Number.NaN
  let doneMs = Number.NaN
  let done: StreamedAnswer['done'] | undefined
  let sources = 0
  /** The highest "[n]" shown since the last `sources` event: that event (or the end) must cover it. */
  let pendingMax = 0
  let areDeltasValid = true
  const settle = () => {
    if (pendingMax > sources) areDeltasValid = false
    pendingMax = 0
  }
  let resets = 0
  const reader = response.body.getReader()
  for (;;) {
    const { value: bytes, done: isEnd } = await reader.read()
    if (isEnd) break
    buffer += decoder.decode(bytes, { stream: true })
    let end: number
    while ((end = buffer.indexOf('\n\n')) !== -1) {
      const block = buffer.slice(0, end)
      buffer = buffer.slice(end + 2)
      const event = /^event: (.+)$/m.exec(block)?.[1]
      const data = /^data: (.+)$/m.exec(block)?.[1]
      if (!event || !data) continue
      const payload = JSON.parse(data)
      if (event === 'delta') {
        if (Number.isNaN(firstDeltaMs)) firstDeltaMs = performance.now() - started
        // A citation may name a source announced by the next `sources` event (sent right after its delta).
        const numbers = citationsIn(payload.text)
        if (numbers.some((number) => number < 1)) areDeltasValid = false
        pendingMax = Math.max(pendingMax, ...numbers)
      } else if (event === 'sources') {
        sources = payload.sources.length
        settle()
      } else if (event === 'reset') {
        settle()
        resets++
        sources = 0
      } else if (event === 'done') {
        settle()
        doneMs = performance.now() - started
        done = payload
      } else if (event === 'error') {
        throw new Error(`the stream ended with an error: ${data}`)
      }
    }
  }
  if (!done) throw new Error('the stream ended without done')
  return { firstDeltaMs, doneMs, done, areDeltasValid, resets }
}

async function logOf(logId: number) {
  const response = await fetch(`${baseUrl}/query_logs/query_log?log_id=${logId}`, { headers })
  return ((await response.json()) as { result: Record<string, any>[] }).result[0]
}

// 1. Over HTTP.
log('warm-up round')
for (const question of questions) await askStream(question)
const addedTotal: number[] = []
const httpCpu: number[] = []
const addedFirst: number[] = []
const serverAdded: number[] = []
const clientTotal: number[] = []
const modelTotal: number[] = []
for (let round = 1; round <= rounds; round++) {
  for (const question of questions) {
    const cpuBefore = process.cpuUsage()
    const answer = await askStream(question)
    const cpu = process.cpuUsage(cpuBefore)
    httpCpu.push((cpu.user + cpu.system) / 1000)
    const entry = await logOf(answer.done.log_id)
    if (entry.llm_total_ms === null || entry.llm_fallback !== null) throw new Error(`log ${entry.id}: the model did not answer (${entry.llm_fallback})`)
    clientTotal.push(answer.doneMs)
    modelTotal.push(entry.llm_total_ms)
    addedTotal.push(answer.doneMs - entry.llm_total_ms)
    serverAdded.push(entry.duration_ms - entry.llm_total_ms)
  }
  log(`round ${round} of ${rounds}`)
}
// An instant model's pieces arrive in one read and leave together, so the first word is timed against a model
// that writes a piece every 20 ms: the client's first delta minus the model's first word is the product's part.
log('first words, with a model writing a piece every 20 ms')
for (const question of questions) {
  const answer = await askStream(withMode(question, 'slow=20'))
  const entry = await logOf(answer.done.log_id)
  addedFirst.push(answer.firstDeltaMs - entry.llm_first_token_ms)
}

// 2. In process, step by step.
log('steps in process')
const settings = await backend.services.settings.botSettings()
const retriever = new KeywordRetriever(backend.services.knowledge)

/** A model in this process that answers at once, as the fixture does: the best sentence of two sources, cited, word by word. */
class InstantModel implements LlmProvider {
  async listModels() {
    return ['instant']
  }
  async defaultModel() {
    return 'instant'
  }
  async chat(): Promise<ChatResult> {
    throw new Error('not used')
  }
  async *stream(request: ChatRequest): AsyncIterable<ChatChunk> {
    const sources = parseSources(request.messages.map((message) => message.content).join('\n'))
    const text = sources
      .slice(0, 2)
      .map((source) => `${source.passage.split(/(?<=[.!?])\s/)[0].replace(/[.!?]$/, '')} [${source.number}].`)
      .join(' ')
    for (const piece of text.match(/\S+\s*/g) ?? []) yield { type: 'text', text: piece }
    yield { type: 'done', result: { model: 'instant', text, toolCalls: [], finishReason: 'stop', usage: { promptTokens: 1, completionTokens: 1 } } }
  }
}
const answerer = new QuestionAnswerer({ retriever, provider: new InstantModel(), screenPassage })
const pipelineWall: number[] = []
const pipelineCpu: number[] = []
for (let round = 0; round <= rounds; round++) {
  for (const question of questions) {
    const cpuBefore = process.cpuUsage()
    const started = performance.now()
    const answer = answerer.answer({ question, settings, chooseModel: async () => 'instant' })
    for await (const _event of answer.events) {
      // as the stream endpoint reads them
    }
    const result = await answer.result
    const wall = performance.now() - started
    const cpu = process.cpuUsage(cpuBefore)
    if (result.composer !== 'model') throw new Error(`the in-process model did not answer "${question}"`)
    if (round === 0) continue
    pipelineWall.push(wall)
    pipelineCpu.push((cpu.user + cpu.system) / 1000)
  }
}
const steps = { retrieval: [] as number[], screen: [] as number[], prompt: [] as number[], grounding: [] as number[] }
for (let round = 0; round <= rounds; round++) {
  for (const question of questions) {
    let started = performance.now()
    const chunks = await retriever.retrieve(question, { limit: settings.num_sources_k, scoreThreshold: settings.score_threshold })
    const retrievalMs = performance.now() - started
    started = performance.now()
    const passages = chunks.map((chunk) => ({ chunk, text: screenPassage(chunk.text).text }))
    const screenMs = performance.now() - started
    started = performance.now()
    const prompt = buildAnswerPrompt(settings, question, passages)
    const promptMs = performance.now() - started
    // A model-like answer: a sentence of each source, cited, and one uncited sentence to check for support.
    const answer = `${prompt.sources.map((source) => `${source.text.split(/(?<=\.)\s/)[0]} [${source.number}]`).join(' ')} ${prompt.sources[0]?.text.split(/(?<=\.)\s/)[1] ?? ''}`
    started = performance.now()
    const grounder = new CitationGrounder(prompt.sources.map((source) => source.chunk), new CitationList(), { weightOf: retriever.termWeight })
    for (let index = 0; index < answer.length; index += 4) grounder.push(answer.slice(index, index + 4))
    grounder.end()
    const groundingMs = performance.now() - started
    if (round === 0) continue
    steps.retrieval.push(retrievalMs)
    steps.screen.push(screenMs)
    steps.prompt.push(promptMs)
    steps.grounding.push(groundingMs)
  }
}

// 3. Citation validity on misbehaving scripts.
const SCRIPTS: { mode: FixtureModeSpec; questions?: number }[] = [
  { mode: 'bad-citations' },
  { mode: 'no-citations' },
  { mode: 'echo-system' },
  { mode: 'empty' },
  { mode: 'slow=5' },
  { mode: 'stream-error=3' },
  { mode: 'cut-off=3' },
  { mode: 'server-error=500' },
  { mode: 'rate-limit=20' },
  { mode: 'hang', questions: 2 },
]
interface ScriptRow {
  mode: string
  answers: number
  valid: number
  modelAnswers: number
  fallbacks: Record<string, number>
  resets: number
  unsupported: number
  droppedOrAdded: string
}
const scriptRows: ScriptRow[] = []
for (const script of SCRIPTS) {
  log(`misbehaving: ${script.mode}`)
  const row: ScriptRow = { mode: script.mode, answers: 0, valid: 0, modelAnswers: 0, fallbacks: {}, resets: 0, unsupported: 0, droppedOrAdded: '' }
  for (const question of questions.slice(0, script.questions ?? misbehavingQuestions)) {
    const answer = await askStream(withMode(question, script.mode))
    const entry = await logOf(answer.done.log_id)
    const finalValid = citationsIn(answer.done.result).every((number) => number >= 1 && number <= answer.done.source_list.length)
    row.answers++
    if (finalValid && answer.areDeltasValid) row.valid++
    if (entry.llm_fallback) row.fallbacks[entry.llm_fallback] = (row.fallbacks[entry.llm_fallback] ?? 0) + 1
    else row.modelAnswers++
    row.resets += answer.resets
    row.unsupported += answer.done.unsupported.length
  }
  scriptRows.push(row)
}

await backend.close()
fixtureProcess.kill('SIGTERM')

// Report.
const uptime = execSync('uptime').toString().trim()
const total = stats(addedTotal)
const first = stats(addedFirst)
const server = stats(serverAdded)
const pipeline = stats(pipelineWall)
const pipelineCpuStats = stats(pipelineCpu)
const verdict = (value: number) => (value <= TARGET_P95_MS ? '(met)' : '(not met)')
const validity = scriptRows.reduce((sum, row) => sum + row.valid, 0) / scriptRows.reduce((sum, row) => sum + row.answers, 0)
const httpRows = [
  ['added to the model, to `done` (client time − llm_total_ms)', total],
  ['added to the model, to the first delta (client − llm_first_token_ms; a model writing every 20 ms, one round)', first],
  ['added inside the backend (duration_ms − llm_total_ms)', server],
  ['client time to `done`', stats(clientTotal)],
  ['CPU time of the bench process per answer (backend, HTTP client and the OpenAI client)', stats(httpCpu)],
  ['the model (fixture) alone, llm_total_ms', stats(modelTotal)],
] as const
const stepRows = [
  ['the whole answer (QuestionAnswerer, instant in-process model): wall time', stats(pipelineWall)],
  ['the whole answer: CPU time of the process', stats(pipelineCpu)],
  ...Object.entries(steps).map(([name, values]) => [`${name} (wall)`, stats(values)] as const),
] as const
const markdown = [
  '# The product\'s time around the language model',
  '',
  `Machine: ${describeMachine()}.`,
  '',
  `\`uptime\` at the end: \`${uptime}\``,
  '',
  `\`npm run bench:answer -- --rounds ${rounds} --misbehaving ${misbehavingQuestions}\`: the real backend (in-memory PGlite, the ${questions.length} demo guide articles, ${formatNumber(backend.services.knowledge.chunkCount)} chunks) answering through the real OpenAI-compatible provider from the local fixture model, which answers at once. Each demo article's title is asked as a question over POST /ask_qa_stream, ${rounds} rounds after a warm-up round.`,
  '',
  `**Added p95 over HTTP: ${ms(total.p95)} ms to the end of the answer, ${ms(first.p95)} ms to its first word ${verdict(Math.max(total.p95, first.p95))}; the answering pipeline in process (retrieval, screen, prompt, streaming through the citation checks): p95 ${ms(pipeline.p95)} ms wall ${verdict(pipeline.p95)}, ${ms(pipelineCpuStats.p95)} ms CPU ${verdict(pipelineCpuStats.p95)}. Target ≤ ${TARGET_P95_MS} ms. Citation validity on the misbehaving scripts: ${formatNumber(validity * 100, 1)} % (target 100 %).**`,
  '',
  `Wall times stretch with the machine's load (the load average above: on 2 cores, a load of L makes a CPU-bound millisecond last about L/2 ms); CPU times do not.`,
  '',
  '## Over HTTP (milliseconds)',
  '',
  formatMarkdownTable(
    ['measure', 'n', 'p50', 'p95', 'max'],
    httpRows.map(([name, value]) => [name, value.n, ms(value.p50), ms(value.p95), ms(value.max)]),
  ),
  '',
  'The client time includes the HTTP exchange, reading Bot settings and logging the question (a read and a write before the answer; the answer’s own write follows `done`), the firewall, retrieval, the passage screen, the prompt, the citation checks and the event stream; the model time is measured by the composer around the provider call (the OpenAI client and the loopback exchange with the fixture, in its own process, included).',
  '',
  '## Each step in process (milliseconds)',
  '',
  formatMarkdownTable(
    ['step', 'n', 'p50', 'p95', 'max'],
    stepRows.map(([name, value]) => [name, value.n, ms(value.p50), ms(value.p95), ms(value.max)]),
  ),
  '',
  'Grounding is timed over a model-like answer (a cited sentence per source and one uncited sentence) fed in 4-character pieces, the worst case for holding back partial citations.',
  '',
  '## Citation validity when the model misbehaves',
  '',
  formatMarkdownTable(
    ['script', 'answers', 'valid citations', 'model answers', 'fallbacks (reason × n)', 'resets', 'unsupported sentences'],
    scriptRows.map((row) => [
      `\`${row.mode}\``,
      row.answers,
      `${row.valid} (${formatNumber((row.valid / row.answers) * 100, 0)} %)`,
      row.modelAnswers,
      Object.entries(row.fallbacks).map(([reason, count]) => `${reason} × ${count}`).join(', ') || '–',
      row.resets,
      row.unsupported,
    ]),
  ),
  '',
  'Valid: every "[n]" of every delta named a source sent so far (or in the next `sources` event), and every "[n]" of the final answer names one of its sources. Errors before the first word are retried (three tries, with backoff; the hanging model waits for LLM_TIMEOUT_MS = 1500 ms each time), then the answer quotes the sources with a note; errors after it are never retried: a `reset` event drops the partial text.',
  '',
].join('\n')

mkdirSync(RESULTS_DIRECTORY, { recursive: true })
writeFileSync(path.join(RESULTS_DIRECTORY, 'answering.md'), markdown)
writeFileSync(
  path.join(RESULTS_DIRECTORY, 'answering.json'),
  `${JSON.stringify({ uptime, machine: describeMachine(), rounds, http: Object.fromEntries(httpRows), steps: Object.fromEntries(stepRows), misbehaving: scriptRows, validity }, null, 2)}\n`,
)
log(`added p95 ${ms(total.p95)} ms (first word ${ms(first.p95)} ms); citation validity ${formatNumber(validity * 100, 1)} %`)
log('wrote bench/results/answering.md and answering.json')
