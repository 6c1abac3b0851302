import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { fileURLToPath } from 'node:url'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { digestOf } from '../modules/knowledge/index-digest'
import { freshPostgresUrl, isPostgresAvailable, TEST_ADMIN_PASSWORD, TEST_API_KEY } from '../testing/test-backend'
import { eventually as eventuallyWithin } from '../testing/eventually'

const postgresAvailable = await isPostgresAvailable()
const repositoryRoot = fileURLToPath(new URL('../../../', import.meta.url))
const DRAFTS = 600

interface Process {
  name: string
  child: ChildProcess
  /** The address the process announced in its log: the API, or the worker's health port. */
  address: Promise<string>
  exited: Promise<void>
}

/** Starts `backend/src/<entry>.ts` as a separate Node process (no wrapper process: a kill reaches it). */
function startProcess(name: string, entry: 'main' | 'worker', environment: Record<string, string>): Process {
  const child = spawn(process.execPath, ['--import', 'tsx', `backend/src/${entry}.ts`], {
    cwd: repositoryRoot,
    env: { PATH: process.env.PATH ?? '', ...environment } as unknown as NodeJS.ProcessEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const announcement = entry === 'main' ? /listening on (http:\/\/[^\s]+)/ : /healthz on (http:\/\/[^\s,)]+)/
  let log = ''
  const address = new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (data: Buffer) => {
      log += data.toString()
      const found = announcement.exec(log)
      if (found) resolve(found[1])
    })
    child.stderr!.on('data', (data: Buffer) => (log += data.toString()))
    child.once('exit', (code, signal) => reject(new Error(`${name} exited (${signal ?? code}) before it was ready:\n${log.slice(-2000)}`)))
  })
  address.catch(() => undefined)
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  return { name, child, address, exited }
}

async function call(baseUrl: string, path: string, init: { method?: string; body?: unknown; token?: string } = {}) {
  const response = await fetch(`${baseUrl}${path}`, {
    method: init.method ?? 'GET',
    headers: {
      apikey: TEST_API_KEY,
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
      ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  })
  return { status: response.status, body: (await response.json()) as any }
}

/** Polls `check` until it holds, for up to a minute: processes start and stop here. */
const eventually = (check: () => Promise<boolean>, attempts = 2400, pauseMs = 25) => eventuallyWithin(check, attempts, pauseMs)

describe.skipIf(!postgresAvailable)('API processes and workers on one PostgreSQL database', () => {
  const processes: Process[] = []
  let schema: { url: string; drop: () => Promise<void> }
  let db: pg.Client
  let environment: Record<string, string>

  beforeAll(async () => {
    schema = await freshPostgresUrl()
    db = new pg.Client({ connectionString: schema.url })
    await db.connect()
    environment = {
      NODE_ENV: 'test',
      API_KEY: TEST_API_KEY,
      API_HOST: '127.0.0.1',
      API_PORT: '0',
      DATABASE_URL: schema.url,
      ADMIN_PASSWORD: TEST_ADMIN_PASSWORD,
      // Every process verifies the tokens any of them signed.
      TOKEN_SECRET: randomBytes(32).toString('hex'),
      LOAD_DEMO_CONTENT: 'false',
      LOG_LEVEL: 'info',
      JOB_POLL_MS: '100',
      JOB_HEARTBEAT_MS: '250',
      JOB_STALE_MS: '1500',
      LOGIN_RATE_LIMIT: '100000',
    }
  })
  afterAll(async () => {
    for (const started of processes) if (started.child.exitCode === null && started.child.signalCode === null) started.child.kill('SIGKILL')
    await Promise.all(processes.map((started) => started.exited))
    await db?.end()
    await schema?.drop()
  })

  const start = (name: string, entry: 'main' | 'worker', extra: Record<string, string> = {}) => {
    const started = startProcess(name, entry, { ...environment, ...extra })
    processes.push(started)
    return started
  }

  it('finishes a publish exactly once after its worker is killed, while two API processes re-index and search, and all agree on the index', { timeout: 900_000 }, async () => {
    const apiOne = start('API one', 'main', { RUN_WORKER: 'false' })
    const firstWorker = start('first worker', 'worker', { WORKER_HEALTH_PORT: '0' })
    const [one] = await Promise.all([apiOne.address, firstWorker.address])
    // The second API starts once the first has migrated the database.
    const apiTwo = start('API two', 'main', { RUN_WORKER: 'false' })
    const two = await apiTwo.address
    const signedIn = await call(one, '/auth/login', { method: 'POST', body: { username: 'admin', password: TEST_ADMIN_PASSWORD } })
    const token: string = signedIn.body.access_token

    // A few published articles to re-index while the big publish runs.
    const seedIds: number[] = []
    for (const title of ['Boiler descaling', 'Chiller startup', 'Damper testing']) {
      seedIds.push((await call(one, '/admin/inject_article', { method: 'POST', token, body: { title, content: `${title}: first version.` } })).body.id)
    }
    const seeded = await call(two, '/admin/do_embeddings', { method: 'POST', token, body: { ids: seedIds } })
    await eventually(async () => (await call(one, `/admin/check_embeddings?task_id=${seeded.body.task_id}`, { token })).body.status === 'finished')
    const articleIds: number[] = (await call(one, `/admin/check_embeddings?task_id=${seeded.body.task_id}`, { token })).body.published.map(
      (entry: { article_id: number }) => entry.article_id,
    )

    await db.query(
      `INSERT INTO temp_articles (title, content, metadata)
       SELECT 'Work order ' || n, 'Work order ' || n || ' replaces the filter of air handler ' || n || ' and logs the pressure drop.', '{}'::jsonb
         FROM generate_series(1, $1::int) AS n`,
      [DRAFTS],
    )
    const publish = await call(two, '/admin/do_embeddings', { method: 'POST', token, body: {} })
    expect(publish.body.total).toBe(DRAFTS)
    const taskId: string = publish.body.task_id

    // Kill the worker with SIGKILL as soon as the job has made progress.
    let progressAtKill = 0
    await eventually(async () => {
      progressAtKill = (await call(one, `/admin/check_embeddings?task_id=${taskId}`, { token })).body.progress
      return progressAtKill > 0
    }, 24_000, 5)
    firstWorker.child.kill('SIGKILL')
    await firstWorker.exited
    const [killed] = (await db.query(`SELECT status, progress FROM jobs WHERE id = $1`, [taskId])).rows
    expect(killed.status).toBe('running')
    expect(killed.progress).toBeLessThan(DRAFTS)

    // Meanwhile both APIs re-index the seed articles and search.
    let round = 0
    const reindexing = (async () => {
      for (; round < 6; round++) {
        const writes = [one, two].flatMap((api, apiIndex) =>
          articleIds.map((id) =>
            call(api, '/admin/update_doc', { method: 'PUT', token, body: { id, content: `Revision ${round}.${apiIndex} of article ${id}: zqrev${'abcdef'[round]}${'ab'[apiIndex]}q.` } }),
          ),
        )
        const answers = await Promise.all([...writes, call(one, '/ask_qa', { method: 'POST', token, body: { command: 'air handler filter' } }), call(two, '/ask_qa', { method: 'POST', token, body: { command: 'pressure drop' } })])
        expect(answers.slice(0, writes.length).map((answer) => answer.status)).toEqual(writes.map(() => 200))
      }
    })()

    const secondWorker = start('second worker', 'worker', { WORKER_HEALTH_PORT: '0' })
    const worker = await secondWorker.address
    await reindexing
    await eventually(async () => (await call(one, `/admin/check_embeddings?task_id=${taskId}`, { token })).body.status === 'finished')

    const report = (await call(two, `/admin/check_embeddings?task_id=${taskId}`, { token })).body
    expect(report).toMatchObject({ status: 'finished', progress: DRAFTS, total: DRAFTS, failed: [] })
    expect(report.published).toHaveLength(DRAFTS)
    expect(new Set(report.published.map((entry: { draft_id: number }) => entry.draft_id)).size).toBe(DRAFTS)
    const [job] = (await db.query(`SELECT attempts FROM jobs WHERE id = $1`, [taskId])).rows
    expect(job.attempts).toBe(2)
    const duplicates = await db.query(`SELECT title FROM articles GROUP BY title HAVING COUNT(*) > 1`)
    expect(duplicates.rows).toEqual([])
    const [counts] = (
      await db.query(`SELECT (SELECT COUNT(*) FROM articles WHERE title LIKE 'Work order %')::int AS published, (SELECT COUNT(*) FROM temp_articles)::int AS drafts`)
    ).rows
    expect(counts).toEqual({ published: DRAFTS, drafts: 0 })

    // Every process holds what the database holds: the same checksum from both APIs and the worker.
    const expected = digestOf((await db.query<{ id: number }>(`SELECT id FROM chunks`)).rows.map((row) => row.id))
    const checksums = async () =>
      Promise.all([one, two].map(async (api) => (await call(api, '/healthz')).body.index.checksum).concat((async () => (await (await fetch(`${worker}/healthz`)).json()).index.checksum)()))
    await eventually(async () => (await checksums()).every((checksum) => checksum === expected))
    for (const id of articleIds) {
      const [latest] = (await db.query<{ content: string }>(`SELECT content FROM articles WHERE id = $1`, [id])).rows
      expect(latest.content).toMatch(/^Revision 5\.[01] /)
    }
  })
})
