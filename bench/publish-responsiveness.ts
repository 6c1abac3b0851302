/**
 * How the service answers while a large publish runs on the embedded database (PGlite).
 *
 *   npx tsx bench/publish-responsiveness.ts [--drafts 1500] [--postgres URL]
 *
 * Starts the real backend (backend/src/main.ts) in its own process on a fresh PGlite directory (or a fresh schema
 * of the PostgreSQL server with --postgres), adds the drafts through the API, measures /healthz at rest, then
 * publishes them all while one client calls /healthz back to back and another asks questions (/ask_qa).
 * Results: bench/results/publish-responsiveness.md and .json, with the machine's load average.
 */
import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import pg from 'pg'
import { describeMachine, formatMarkdownTable, formatNumber, log, percentile } from './lib/report'

const BENCH_DIRECTORY = path.dirname(fileURLToPath(import.meta.url))
const RESULTS_DIRECTORY = path.join(BENCH_DIRECTORY, 'results')
const API_KEY = 'bench-api-key-0123456789'
const ADMIN_PASSWORD = 'bench-admin-password'

const { values } = parseArgs({ options: { drafts: { type: 'string', default: '1500' }, postgres: { type: 'string' } } })
const draftCount = Number(values.drafts)
const loadAtStart = loadavg()

const dataDir = mkdtempSync(path.join(tmpdir(), 'kb-publish-'))
let databaseUrl: string | undefined
let dropSchema = async () => {}
if (values.postgres) {
  const schema = `bench_${randomBytes(6).toString('hex')}`
  const admin = new pg.Client({ connectionString: values.postgres })
  await admin.connect()
  await admin.query(`CREATE SCHEMA ${schema}`)
  await admin.end()
  const url = new URL(values.postgres)
  url.searchParams.set('options', `-c search_path=${schema}`)
  databaseUrl = url.toString()
  dropSchema = async () => {
    const client = new pg.Client({ connectionString: values.postgres })
    await client.connect()
    await client.query(`DROP SCHEMA ${schema} CASCADE`)
    await client.end()
  }
}

const child = spawn(process.execPath, ['--import', 'tsx', path.join(BENCH_DIRECTORY, '..', 'backend', 'src', 'main.ts')], {
  env: {
    PATH: process.env.PATH ?? '',
    NODE_ENV: 'production',
    API_KEY,
    API_PORT: '0',
    DATA_DIR: dataDir,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ADMIN_PASSWORD,
    LOAD_DEMO_CONTENT: 'false',
    LOG_LEVEL: 'info',
    LOGIN_RATE_LIMIT: '100000',
    ASK_RATE_LIMIT: '0',
  },
  stdio: ['ignore', 'pipe', 'inherit'],
})
const baseUrl = await new Promise<string>((resolve, reject) => {
  let output = ''
  child.stdout!.on('data', (data: Buffer) => {
    output += data.toString()
    const found = /listening on (http:\/\/[^\s]+)/.exec(output)
    if (found) resolve(found[1])
    if (output.length > 100_000) output = output.slice(-10_000)
  })
  child.once('exit', (code) => reject(new Error(`the backend exited with ${code}`)))
})

async function call(pathAndQuery: string, init: { method?: string; body?: unknown; token?: string } = {}) {
  const response = await fetch(`${baseUrl}${pathAndQuery}`, {
    method: init.method ?? 'GET',
    headers: {
      apikey: API_KEY,
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
      ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  })
  return { status: response.status, body: (await response.json()) as any }
}

async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const began = performance.now()
  const value = await work()
  return { ms: performance.now() - began, value }
}

try {
  const token: string = (await call('/auth/login', { method: 'POST', body: { username: 'admin', password: ADMIN_PASSWORD } })).body.access_token
  log(`adding ${draftCount} drafts`)
  for (let first = 0; first < draftCount; first += 50) {
    await Promise.all(
      Array.from({ length: Math.min(50, draftCount - first) }, (_, offset) => {
        const n = first + offset + 1
        return call('/admin/inject_article', {
          method: 'POST',
          token,
          body: {
            title: `Maintenance note ${n}`,
            content:
              `Inspect valve ${n} every spring before the pumps start. Replace the gasket when it cracks or weeps. ` +
              `Record the pressure reading of circuit ${n % 37} in the plant log, with the date and the name of the inspector. ` +
              'A reading above the limit means the relief valve must be tested the same day.',
          },
        })
      }),
    )
  }

  const idle: number[] = []
  for (let attempt = 0; attempt < 200; attempt++) idle.push((await timed(() => call('/healthz'))).ms)

  log('publishing')
  const publishStarted = performance.now()
  const taskId: string = (await call('/admin/do_embeddings', { method: 'POST', token, body: {} })).body.task_id
  let isPublishing = true
  const health: number[] = []
  const asks: number[] = []
  let healthFailures = 0
  const healthLoop = (async () => {
    while (isPublishing) {
      // A refused or reset connection is a failed health check, as a container's would be.
      const { ms, value } = await timed(() => call('/healthz').catch(() => ({ status: 0, body: null })))
      health.push(ms)
      if (value.status !== 200) healthFailures++
    }
  })()
  const askLoop = (async () => {
    while (isPublishing) {
      asks.push((await timed(() => call('/ask_qa', { method: 'POST', token, body: { command: 'When is the relief valve tested?' } }).catch(() => undefined))).ms)
    }
  })()
  let report: any
  for (;;) {
    report = (await call(`/admin/check_embeddings?task_id=${taskId}`, { token })).body
    if (report.status !== 'queued' && report.status !== 'running') break
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  const publishSeconds = (performance.now() - publishStarted) / 1000
  isPublishing = false
  await Promise.all([healthLoop, askLoop])

  const summary = (label: string, samples: number[]) => {
    const sorted = [...samples].sort((a, b) => a - b)
    return {
      label,
      calls: sorted.length,
      p50: percentile(sorted, 0.5),
      p95: percentile(sorted, 0.95),
      p99: percentile(sorted, 0.99),
      max: sorted[sorted.length - 1] ?? Number.NaN,
    }
  }
  const rows = [summary('/healthz at rest', idle), summary('/healthz while publishing', health), summary('/ask_qa while publishing', asks)]
  const storage = values.postgres ? 'PostgreSQL' : 'PGlite'
  const result = {
    storage,
    drafts: draftCount,
    published: report.published.length,
    failed: report.failed.length,
    status: report.status,
    publishSeconds,
    healthFailures,
    latencies: rows,
    loadAverageAtStart: loadAtStart,
    loadAverageAtEnd: loadavg(),
    machine: describeMachine(),
  }
  const markdown = [
    '# Responsiveness while publishing',
    '',
    `\`npx tsx bench/publish-responsiveness.ts --drafts ${draftCount}${values.postgres ? ' --postgres …' : ''}\`: ${storage}, ${draftCount} drafts published in one job ` +
      `(${report.status}: ${report.published.length} published, ${report.failed.length} failed) in ${formatNumber(publishSeconds, 1)} s, ` +
      `while one client called /healthz back to back and another asked questions. ${healthFailures} health checks failed.`,
    '',
    formatMarkdownTable(
      ['calls', 'count', 'p50 ms', 'p95 ms', 'p99 ms', 'max ms'],
      rows.map((row) => [row.label, row.calls, formatNumber(row.p50, 1), formatNumber(row.p95, 1), formatNumber(row.p99, 1), formatNumber(row.max, 1)]),
    ),
    '',
    `Load average (1 / 5 / 15 min) at the start: ${loadAtStart.map((value) => value.toFixed(2)).join(' / ')}; ${describeMachine()}.`,
    '',
  ].join('\n')
  mkdirSync(RESULTS_DIRECTORY, { recursive: true })
  const name = values.postgres ? 'publish-responsiveness-postgres' : 'publish-responsiveness'
  writeFileSync(path.join(RESULTS_DIRECTORY, `${name}.md`), markdown)
  writeFileSync(path.join(RESULTS_DIRECTORY, `${name}.json`), `${JSON.stringify(result, null, 2)}\n`)
  process.stdout.write(`${markdown}\n`)
} finally {
  child.kill('SIGTERM')
  await new Promise((resolve) => child.once('exit', resolve))
  await dropSchema()
  rmSync(dataDir, { recursive: true, force: true })
}
