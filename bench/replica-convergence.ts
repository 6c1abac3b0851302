/**
 * How soon two API processes agree on the index after writes through both, on the PostgreSQL server.
 *
 *   npx tsx bench/replica-convergence.ts [--rounds 30] [--articles 6] [--postgres URL]
 *
 * Starts two backends (buildBackend) on one fresh schema, each with a fallback replay interval of a minute, so
 * only the change feed's notifications keep them current. Each round updates every article through both at once
 * (PUT /admin/update_doc), then polls both /healthz, without searching, until both report the checksum of the
 * chunks in the database. Results: bench/results/replica-convergence.md and .json, with the load average.
 */
import { randomBytes } from 'node:crypto'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import pg from 'pg'
import { buildBackend, type Backend } from '../backend/src/app'
import { loadConfig } from '../backend/src/config'
import { digestOf } from '../backend/src/modules/knowledge/index-digest'
import { describeMachine, formatMarkdownTable, formatNumber, log, percentile } from './lib/report'

const BENCH_DIRECTORY = path.dirname(fileURLToPath(import.meta.url))
const RESULTS_DIRECTORY = path.join(BENCH_DIRECTORY, 'results')
const API_KEY = 'bench-api-key-0123456789'
const ADMIN_PASSWORD = 'bench-admin-password'

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '30' },
    articles: { type: 'string', default: '6' },
    postgres: { type: 'string', default: process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test' },
  },
})
const rounds = Number(values.rounds)
const articleCount = Number(values.articles)
const loadAtStart = loadavg()

const dataDir = mkdtempSync(path.join(tmpdir(), 'kb-replicas-'))
const schema = `bench_${randomBytes(6).toString('hex')}`
const admin = new pg.Client({ connectionString: values.postgres })
await admin.connect()
await admin.query(`CREATE SCHEMA ${schema}`)
const url = new URL(values.postgres as string)
url.searchParams.set('options', `-c search_path=${schema}`)

const config = loadConfig({
  API_KEY,
  API_PORT: '0',
  DATA_DIR: dataDir,
  DATABASE_URL: url.toString(),
  LOG_LEVEL: 'silent',
  LOAD_DEMO_CONTENT: 'false',
  ADMIN_PASSWORD,
  TOKEN_SECRET: randomBytes(32).toString('hex'),
  INDEX_SYNC_MS: '60000',
  LOGIN_RATE_LIMIT: '100000',
})
const backends: Backend[] = []
try {
  for (let count = 0; count < 2; count++) backends.push(await buildBackend(config))
  const addresses = await Promise.all(backends.map((backend) => backend.app.listen({ host: '127.0.0.1', port: 0 })))
  const call = async (address: string, pathAndQuery: string, init: { method?: string; body?: unknown; token?: string } = {}) => {
    const response = await fetch(`${address}${pathAndQuery}`, {
      method: init.method ?? 'GET',
      headers: { apikey: API_KEY, ...(init.token ? { authorization: `Bearer ${init.token}` } : {}), ...(init.body ? { 'content-type': 'application/json' } : {}) },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    })
    return { status: response.status, body: (await response.json()) as any }
  }
  const token: string = (await call(addresses[0], '/auth/login', { method: 'POST', body: { username: 'admin', password: ADMIN_PASSWORD } })).body.access_token
  const articleIds = await backends[0].services.articles.createPublished(
    Array.from({ length: articleCount }, (_, position) => ({ title: `Article ${position}`, content: `First version of article ${position}.` })),
  )

  const convergenceMs: number[] = []
  let failedWrites = 0
  log(`${rounds} rounds of ${2 * articleCount} concurrent updates`)
  for (let round = 0; round < rounds; round++) {
    const answers = await Promise.all(
      addresses.flatMap((address, side) =>
        articleIds.map((id) => call(address, '/admin/update_doc', { method: 'PUT', token, body: { id, content: `Round ${round} side ${side} of article ${id}.` } })),
      ),
    )
    const lastWrite = performance.now()
    failedWrites += answers.filter((answer) => answer.status !== 200).length
    const expected = digestOf((await admin.query<{ id: number }>(`SELECT id FROM ${schema}.chunks`)).rows.map((row) => row.id))
    for (;;) {
      const reports = await Promise.all(addresses.map((address) => call(address, '/healthz')))
      if (reports.every((report) => report.body.index.checksum === expected)) break
      if (performance.now() - lastWrite > 30_000) throw new Error(`round ${round}: the replicas did not agree within 30 s`)
      await new Promise((resolve) => setTimeout(resolve, 5))
    }
    convergenceMs.push(performance.now() - lastWrite)
  }

  const sorted = [...convergenceMs].sort((a, b) => a - b)
  const result = {
    rounds,
    writesPerRound: 2 * articleCount,
    failedWrites,
    convergenceMs: { p50: percentile(sorted, 0.5), p95: percentile(sorted, 0.95), max: sorted[sorted.length - 1] },
    loadAverageAtStart: loadAtStart,
    loadAverageAtEnd: loadavg(),
    machine: describeMachine(),
  }
  const markdown = [
    '# Replicas agreeing on the index',
    '',
    `\`npx tsx bench/replica-convergence.ts --rounds ${rounds} --articles ${articleCount}\`: two backends on one PostgreSQL schema ` +
      `(fallback replay every 60 s, so only notifications count). Each round updates ${articleCount} articles through both at once ` +
      `(${2 * articleCount} writes; ${failedWrites} failed in all), then polls both /healthz until both report the checksum of the database's chunks. ` +
      'The time is from the last write\'s answer to agreement, including the polling (every 5 ms) and the checksum query.',
    '',
    formatMarkdownTable(
      ['rounds', 'p50 ms', 'p95 ms', 'max ms'],
      [[rounds, formatNumber(result.convergenceMs.p50, 1), formatNumber(result.convergenceMs.p95, 1), formatNumber(result.convergenceMs.max, 1)]],
    ),
    '',
    `Load average (1 / 5 / 15 min) at the start: ${loadAtStart.map((value) => value.toFixed(2)).join(' / ')}; ${describeMachine()}.`,
    '',
  ].join('\n')
  mkdirSync(RESULTS_DIRECTORY, { recursive: true })
  writeFileSync(path.join(RESULTS_DIRECTORY, 'replica-convergence.md'), markdown)
  writeFileSync(path.join(RESULTS_DIRECTORY, 'replica-convergence.json'), `${JSON.stringify(result, null, 2)}\n`)
  process.stdout.write(`${markdown}\n`)
} finally {
  for (const backend of backends) await backend.close().catch(() => undefined)
  await admin.query(`DROP SCHEMA ${schema} CASCADE`)
  await admin.end()
  rmSync(dataDir, { recursive: true, force: true })
}
