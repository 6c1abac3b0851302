/**
 * HTTP load on the real backend with autocannon, on PGlite and on the PostgreSQL server, loopback only.
 *
 *   npm run bench:load [-- --dataset DIR] [--duration 10] [--postgres URL] [--large-chunks 100000]
 *
 * For each storage, a child process (bench/lib/load-server.ts) seeds the SciFact corpus (≈8.3k chunks), starts
 * buildBackend() on 127.0.0.1:0 and signs in; autocannon then drives /ask_qa, /admin/get_articles and
 * /query_logs at 10 and 50 connections for a bounded time each. Every /ask_qa is answered in the server process
 * (retrieval + extractive answer) and logged in one write, shared with the questions of the same turn (ADR 140, 160). Finally /ask_qa runs once more with
 * 100k chunks (on the PostgreSQL server by default, --large-storage pglite for PGlite). Results: bench/results/load.md and load.json.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import path from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import autocannon from 'autocannon'
import pg from 'pg'
import { loadBeirDataset } from './lib/beir-dataset'
import { BENCH_POSTGRES_URL, probePostgres } from './lib/postgres-engine'
import { describeMachine, formatMarkdownTable, formatNumber, log, percentile } from './lib/report'

const BENCH_DIRECTORY = path.dirname(fileURLToPath(import.meta.url))
const RESULTS_DIRECTORY = path.join(BENCH_DIRECTORY, 'results')
const LOAD_API_KEY = 'bench-api-key-0123456789'

interface LoadRow {
  storage: string
  chunks: number
  endpoint: string
  connections: number
  requests: number
  requestsPerSecond: number
  p50: number
  p95: number
  p99: number
  errors: number
  /** CPU time of the server process per response (user + system): what the load costs whatever else runs. */
  serverCpuMsPerRequest: number
  /** Load average (1 / 5 / 15 min) just before and just after the run: the machine is shared. */
  loadBefore: string
  loadAfter: string
}

interface RunningServer {
  url: string
  token: string
  chunks: number
  pid: number
  stop(): Promise<void>
}

const { values } = parseArgs({
  options: {
    dataset: { type: 'string', default: path.join(BENCH_DIRECTORY, '..', '..', 'shared', 'datasets', 'scifact') },
    duration: { type: 'string', default: '10' },
    postgres: { type: 'string', default: process.env.BENCH_DATABASE_URL ?? BENCH_POSTGRES_URL },
    'large-chunks': { type: 'string', default: '100000' },
    'large-storage': { type: 'string', default: 'postgres' },
  },
})
const loadNow = () => loadavg().map((value) => value.toFixed(1)).join(' / ')
const loadAtStart = loadNow()

/** CPU milliseconds (user + system) a process has used so far, from /proc; 0 where there is none. */
function cpuMsOf(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100
  } catch {
    return 0
  }
}
const durationSeconds = Number(values.duration)
const dataset = await loadBeirDataset(values.dataset as string, 'test')
const questions = dataset.queries.map((query) => query.text)

/** Starts the backend in its own process, so autocannon and the server do not share one event loop. */
/** `chunks` grows the corpus to that many chunks; without it the corpus is seeded once. */
async function startServer(options: { databaseUrl?: string; chunks?: number }): Promise<RunningServer> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'kb-load-'))
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(BENCH_DIRECTORY, 'lib', 'load-server.ts'), JSON.stringify({ ...options, dataDir, corpus: values.dataset })],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  )
  const firstLine = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream })
    lines.once('line', resolve)
    child.once('exit', (code) => reject(new Error(`load server exited with ${code}`)))
  })
  const started = JSON.parse(firstLine) as { url: string; token: string; chunks: number }
  return {
    ...started,
    pid: child.pid!,
    async stop() {
      const exited = new Promise((resolve) => child.once('exit', resolve))
      child.stdin?.end()
      await exited
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

/** One bounded autocannon run; latencies are collected per response so that p95 is exact. */
async function runLoad(server: RunningServer, endpoint: string, connections: number): Promise<Omit<LoadRow, 'storage' | 'chunks' | 'loadBefore' | 'loadAfter'>> {
  const headers = { apikey: LOAD_API_KEY, authorization: `Bearer ${server.token}`, 'content-type': 'application/json' }
  let next = 0
  const request =
    endpoint === 'ask_qa'
      ? {
          method: 'POST' as const,
          path: '/ask_qa',
          setupRequest: (current: Record<string, unknown>) => ({ ...current, body: JSON.stringify({ command: questions[next++ % questions.length] }) }),
        }
      : endpoint === 'get_articles'
        ? { method: 'GET' as const, path: '/admin/get_articles?first=0&rows=30&sortField=timestamp&sortOrder=-1' }
        : { method: 'GET' as const, path: '/query_logs?limit=50' }
  const latencies: number[] = []
  const cpuAtStart = cpuMsOf(server.pid)
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      { url: server.url, connections, duration: durationSeconds, headers, requests: [request as autocannon.Request], timeout: 30 },
      (error, finished) => (error ? reject(error) : resolve(finished)),
    )
    instance.on('response', (_client, _statusCode, _bytes, responseTime) => latencies.push(responseTime))
  })
  const cpuMs = cpuMsOf(server.pid) - cpuAtStart
  latencies.sort((a, b) => a - b)
  const seconds = result.duration
  return {
    endpoint,
    connections,
    requests: latencies.length,
    requestsPerSecond: latencies.length / seconds,
    // No response within the run (all still in flight): report the run's length as a lower bound, not NaN.
    p50: latencies.length === 0 ? durationSeconds * 1000 : percentile(latencies, 0.5),
    p95: latencies.length === 0 ? durationSeconds * 1000 : percentile(latencies, 0.95),
    p99: latencies.length === 0 ? durationSeconds * 1000 : percentile(latencies, 0.99),
    errors: result.errors + result.timeouts + result.non2xx,
    serverCpuMsPerRequest: latencies.length === 0 ? 0 : cpuMs / latencies.length,
  }
}

/**
 * Waits until the questions of a run have all been answered (the newest query log is no longer pending: only an
 * answer slower than ASK_WAIT_MS leaves one), so that their work does not count against the next run. Gives up
 * after two minutes.
 */
async function waitForIdle(server: RunningServer): Promise<void> {
  const headers = { apikey: LOAD_API_KEY, authorization: `Bearer ${server.token}` }
  const deadline = Date.now() + 120_000
  while (Date.now() < deadline) {
    const page = (await (await fetch(`${server.url}/query_logs?limit=1`, { headers })).json()) as { result?: { status: string }[] }
    if (page.result?.[0]?.status !== 'pending') return
    await new Promise((resolve) => setTimeout(resolve, 500))
  }
  log('    (ask jobs still pending after 2 minutes; going on)')
}

async function measureStorage(storage: string, server: RunningServer, endpoints: string[]): Promise<LoadRow[]> {
  const rows: LoadRow[] = []
  for (const endpoint of endpoints) {
    for (const connections of [10, 50]) {
      await waitForIdle(server)
      log(`  ${storage} ${endpoint} × ${connections} connections for ${durationSeconds} s …`)
      const loadBefore = loadNow()
      const measured = await runLoad(server, endpoint, connections)
      const row: LoadRow = { storage, chunks: server.chunks, ...measured, loadBefore, loadAfter: loadNow() }
      log(
        `    ${formatNumber(row.requestsPerSecond)} req/s, p50 ${row.p50.toFixed(1)} ms, p95 ${row.p95.toFixed(1)} ms, p99 ${row.p99.toFixed(1)} ms, errors ${row.errors}, ` +
          `server CPU ${row.serverCpuMsPerRequest.toFixed(2)} ms a response, load ${row.loadBefore} → ${row.loadAfter}`,
      )
      rows.push(row)
    }
  }
  return rows
}

/** A fresh schema on the PostgreSQL server, dropped afterwards. */
async function createSchema(url: string): Promise<{ url: string; drop(): Promise<void> }> {
  const schema = `bench_${randomBytes(5).toString('hex')}`
  const admin = new pg.Client({ connectionString: url })
  await admin.connect()
  await admin.query(`CREATE SCHEMA ${schema}`)
  await admin.end()
  const scoped = new URL(url)
  scoped.searchParams.set('options', `-c search_path=${schema}`)
  return {
    url: scoped.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: url })
      await client.connect()
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)
      await client.end()
    },
  }
}

const rows: LoadRow[] = []
const notes: string[] = []
const endpoints = ['ask_qa', 'get_articles', 'query_logs']

log(`PGlite: seeding ${dataset.name} and starting the backend …`)
const pglite = await startServer({})
try {
  rows.push(...(await measureStorage('PGlite', pglite, endpoints)))
} finally {
  await pglite.stop()
}

const unreachable = await probePostgres(values.postgres as string)
if (unreachable) {
  const message = `PostgreSQL skipped: no server answers at ${values.postgres} (${unreachable}).`
  log(message)
  notes.push(message)
} else {
  log(`PostgreSQL: seeding a fresh schema and starting the backend …`)
  const schema = await createSchema(values.postgres as string)
  try {
    const server = await startServer({ databaseUrl: schema.url })
    try {
      rows.push(...(await measureStorage('PostgreSQL', server, endpoints)))
    } finally {
      await server.stop()
    }
  } finally {
    await schema.drop()
  }
}

const largeChunks = Number(values['large-chunks'])
// Bulk seeding 100k chunks into PGlite takes many minutes on a busy 2-core machine; the server takes seconds.
const isLargeOnPostgres = values['large-storage'] === 'postgres' && !unreachable
if (largeChunks > 0) {
  const storage = isLargeOnPostgres ? 'PostgreSQL' : 'PGlite'
  log(`${storage} with ${formatNumber(largeChunks)} chunks: seeding and starting the backend …`)
  const schema = isLargeOnPostgres ? await createSchema(values.postgres as string) : undefined
  try {
    const large = await startServer({ databaseUrl: schema?.url, chunks: largeChunks })
    try {
      rows.push(...(await measureStorage(storage, large, ['ask_qa'])))
    } finally {
      await large.stop()
    }
  } finally {
    await schema?.drop()
  }
}

const table = formatMarkdownTable(
  ['storage', 'chunks', 'endpoint', 'connections', 'requests', 'req/s', 'p50 ms', 'p95 ms', 'p99 ms', 'errors', 'server CPU ms/resp', 'load before → after'],
  rows.map((row) => [
    row.storage,
    formatNumber(row.chunks),
    row.endpoint,
    row.connections,
    formatNumber(row.requests),
    formatNumber(row.requestsPerSecond),
    row.p50.toFixed(1),
    row.p95.toFixed(1),
    row.p99.toFixed(1),
    row.errors,
    row.serverCpuMsPerRequest.toFixed(2),
    `${row.loadBefore} → ${row.loadAfter}`,
  ]),
)
const report = [
  '# HTTP load (autocannon, loopback)',
  '',
  `Each row: ${durationSeconds} s of autocannon against the real backend in its own process. Machine: ${describeMachine()}; load average ${loadAtStart} at the start.`,
  '',
  table,
  '',
  'ask_qa: POST /ask_qa with a SciFact claim (rotating through the 300 test claims); each call is answered in the server process (KnowledgeService.search + composeExtractiveAnswer) and logged finished, in one statement with the other questions answered in the same turn (ADR 140, 160).',
  'server CPU ms/resp: CPU time (user + system) of the server process during the run, per response; 1000 / it is what one free core would serve. The machine is shared: the load average before and after each run says how much else ran.',
  'get_articles: GET /admin/get_articles, 30 a page, newest first. query_logs: GET /query_logs, 50 a page. All with the API key and an administrator bearer token.',
  '',
  ...notes.map((note) => `Note: ${note}`),
].join('\n')
mkdirSync(RESULTS_DIRECTORY, { recursive: true })
writeFileSync(path.join(RESULTS_DIRECTORY, 'load.md'), `${report}\n`)
writeFileSync(path.join(RESULTS_DIRECTORY, 'load.json'), JSON.stringify({ machine: describeMachine(), loadAtStart, durationSeconds, rows }, null, 2))
console.log(`\n${report}`)
