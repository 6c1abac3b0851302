/**
 * What counting the request limits and failed sign-ins in the database costs (ADR 310): one request counted
 * (`countRequest`, the rate-limit store's statement) and one failed sign-in recorded (`FailureCounter.recordFailure`),
 * one after another, on PGlite in memory and on the PostgreSQL server (a fresh schema, dropped after).
 *
 *   npx tsx bench/shared-limits.ts [--count 2000] [--postgres URL]
 *
 * Results: bench/results/shared-limits.md, with the load average.
 */
import { randomBytes } from 'node:crypto'
import { writeFileSync } from 'node:fs'
import { loadavg } from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import pg from 'pg'
import { openDatabase, type Database } from '../backend/src/db/database'
import { migrate } from '../backend/src/db/migrate'
import { FailureCounter } from '../backend/src/modules/identity/failure-counter'
import { countRequest } from '../backend/src/plugins/shared-rate-limits'
import { describeMachine, formatMarkdownTable, formatNumber, log, percentile } from './lib/report'

const RESULTS = path.join(path.dirname(fileURLToPath(import.meta.url)), 'results', 'shared-limits.md')
const { values } = parseArgs({
  options: {
    count: { type: 'string', default: '2000' },
    postgres: { type: 'string', default: process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test' },
  },
})
const count = Number(values.count)
const loadAtStart = loadavg()

/** Milliseconds of each call, sorted. */
async function timed(call: (index: number) => Promise<unknown>): Promise<number[]> {
  const times: number[] = []
  for (let index = 0; index < count; index++) {
    const started = performance.now()
    await call(index)
    times.push(performance.now() - started)
  }
  return times.sort((a, b) => a - b)
}

async function measure(name: string, db: Database): Promise<(string | number)[][]> {
  await migrate(db)
  // 50 clients, each counted again and again, as a busy minute has.
  const counted = await timed((index) => countRequest(db, `bench client-${index % 50}`, 60_000))
  const failures = new FailureCounter(db, { name: 'bench', maxFailures: 5, windowMs: 60_000 })
  const failed = await timed((index) => failures.recordFailure(`client-${index % 50}`))
  const row = (what: string, times: number[]) => [name, what, formatNumber(times.reduce((a, b) => a + b, 0) / times.length, 2), formatNumber(percentile(times, 0.5), 2), formatNumber(percentile(times, 0.99), 2)]
  return [row('a request counted', counted), row('a failed sign-in recorded', failed)]
}

const rows: (string | number)[][] = []
log('PGlite in memory')
const lite = await openDatabase({ url: 'memory://', dataDir: '' })
rows.push(...(await measure('PGlite (memory://)', lite)))
await lite.close()

const schema = `bench_${randomBytes(6).toString('hex')}`
const admin = new pg.Client({ connectionString: values.postgres })
await admin.connect()
await admin.query(`CREATE SCHEMA ${schema}`)
try {
  log(`PostgreSQL, schema ${schema}`)
  const url = new URL(values.postgres as string)
  url.searchParams.set('options', `-c search_path=${schema}`)
  const server = await openDatabase({ url: url.toString(), dataDir: '' })
  rows.push(...(await measure('PostgreSQL 15 (127.0.0.1)', server)))
  await server.close()
} finally {
  await admin.query(`DROP SCHEMA ${schema} CASCADE`)
  await admin.end()
}

const report = `# Limits counted in the database: cost per request

${count} calls of each, one after another. Machine: ${describeMachine()}; load average ${loadAtStart.map((value) => value.toFixed(1)).join(' / ')} at the start.

${formatMarkdownTable(['database', 'what', 'mean (ms)', 'median (ms)', '99th percentile (ms)'], rows)}

Each sign-in, registration and question counts one request; each failed sign-in records two failures (by address and
name, and by name). ADR 310.
`
writeFileSync(RESULTS, report)
log(`wrote ${path.relative(process.cwd(), RESULTS)}`)
console.log(report)
