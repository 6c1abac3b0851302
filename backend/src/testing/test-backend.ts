import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, describe } from 'vitest'
import { buildBackend, type Backend } from '../app'
import { loadConfig, type Config } from '../config'
import { openDatabase, type Database } from '../db/database'
import { migrate } from '../db/migrate'
import { beginPgliteDatabase, openTestPglite } from './test-pglite'
import { hashPassword } from '../modules/identity/identity.service'

export const TEST_API_KEY = 'test-api-key-0123456789'
export const TEST_ADMIN_PASSWORD = 'admin-password-for-tests'

export type Caller = 'anonymous' | 'admin' | { token: string }

/** The PostgreSQL server tests use; CI sets nothing and gets this machine's server. */
export const TEST_POSTGRES_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'

export type StorageKind = 'pglite' | 'postgres'

let postgresAvailable: Promise<boolean> | undefined

/** Whether the PostgreSQL test server answers. In CI a missing server is an error, never a skip. */
export function isPostgresAvailable(): Promise<boolean> {
  postgresAvailable ??= (async () => {
    const client = new pg.Client({ connectionString: TEST_POSTGRES_URL, connectionTimeoutMillis: 3000 })
    try {
      await client.connect()
      await client.end()
      return true
    } catch (error) {
      if (process.env.CI) throw new Error(`The PostgreSQL test server at ${TEST_POSTGRES_URL} does not answer: ${(error as Error).message}`)
      console.warn(`\n  SKIPPED: PostgreSQL tests, no server answers at ${TEST_POSTGRES_URL} (${(error as Error).message})\n`)
      return false
    }
  })()
  return postgresAvailable
}

export interface TestBackend {
  backend: Backend
  baseUrl: string
  config: Config
  /** fetch against the running backend with the API key (unless headers say otherwise). */
  /** fetch against the running backend with the API key and, unless `as` says otherwise, the administrator's token. */
  call(
    pathAndQuery: string,
    init?: { method?: string; body?: unknown; headers?: Record<string, string>; rawBody?: string; as?: Caller },
  ): Promise<{ status: number; body: any; headers: Headers }>
  /** Creates a user in the default organisation (or the given one) with a role, and signs them in. */
  createUser(role: 'admin' | 'editor' | 'user', options?: { organizationId?: number }): Promise<{ id: number; token: string; username: string }>
  stop(): Promise<void>
  /** Stops and starts again on the same storage (a restart). */
  restart(overrides?: Record<string, string>): Promise<TestBackend>
}

/** A fresh PostgreSQL schema per test backend, so test files never see each other's rows. */
export async function freshPostgresUrl(): Promise<{ url: string; drop: () => Promise<void> }> {
  const schema = `test_${randomBytes(6).toString('hex')}`
  const admin = new pg.Client({ connectionString: TEST_POSTGRES_URL })
  await admin.connect()
  await admin.query(`CREATE SCHEMA ${schema}`)
  await admin.end()
  const url = new URL(TEST_POSTGRES_URL)
  url.searchParams.set('options', `-c search_path=${schema}`)
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: TEST_POSTGRES_URL })
      await client.connect()
      await client.query(`DROP SCHEMA ${schema} CASCADE`)
      await client.end()
    },
  }
}

/**
 * Two handles on one migrated database, as two processes have: two connections to a fresh PostgreSQL schema, or, on
 * PGlite (one process), the same handle twice. `close` closes both and drops the schema.
 */
export async function openTwoHandles(kind: StorageKind): Promise<{ first: Database; second: Database; close: () => Promise<void> }> {
  if (kind === 'pglite') {
    const db = await openTestPglite()
    await migrate(db)
    return { first: db, second: db, close: () => db.close() }
  }
  const schema = await freshPostgresUrl()
  const first = await openDatabase({ url: schema.url, dataDir: '' })
  const second = await openDatabase({ url: schema.url, dataDir: '' })
  await migrate(first)
  return {
    first,
    second,
    close: async () => {
      await first.close()
      await second.close()
      await schema.drop()
    },
  }
}

/**
 * Starts the real backend on 127.0.0.1 (random port) with the real migrations: PGlite files in a temporary
 * directory (begun by `beginPgliteDatabase`), or a fresh schema on the PostgreSQL server.
 */
export async function startTestBackend(
  kind: StorageKind,
  overrides: Record<string, string> = {},
  options: { demoDirectory?: string; /** A PostgreSQL schema another backend uses too, left in place on stop. */ sharedDatabaseUrl?: string } = {},
): Promise<TestBackend> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'kb-test-'))
  if (kind === 'pglite' && !overrides.DATABASE_URL && !overrides.DATA_DIR) await beginPgliteDatabase(dataDir)
  const postgres =
    kind !== 'postgres' ? undefined : options.sharedDatabaseUrl ? { url: options.sharedDatabaseUrl, drop: async () => undefined } : await freshPostgresUrl()
  const environment = {
    API_KEY: TEST_API_KEY,
    API_PORT: '0',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    JOB_POLL_MS: '100',
    LOAD_DEMO_CONTENT: options.demoDirectory ? 'true' : 'false',
    ADMIN_PASSWORD: TEST_ADMIN_PASSWORD,
    // Tests sign in and register far more often from 127.0.0.1 than people do; the limits' own tests set them low.
    LOGIN_RATE_LIMIT: '100000',
    REGISTRATION_RATE_LIMIT: '100000',
    // Suites ask many questions as one account; the limit's own tests set it low.
    ASK_RATE_LIMIT: '100000',
    ...(postgres ? { DATABASE_URL: postgres.url } : {}),
    ...overrides,
  }
  const launch = async (extra: Record<string, string>): Promise<TestBackend> => {
    const config = loadConfig({ ...environment, ...extra })
    const backend = await buildBackend(config, options)
    const address = await backend.app.listen({ host: '127.0.0.1', port: 0 })
    // The built-in administrator, under whatever name it has now.
    const [builtin] = await backend.db.query<{ username: string }>(`SELECT username FROM users WHERE is_builtin_admin`)
    const adminToken = (await backend.services.identity.signIn(builtin.username, config.ADMIN_PASSWORD ?? TEST_ADMIN_PASSWORD)).accessToken
    let userCount = 0
    const handle: TestBackend = {
      backend,
      baseUrl: address,
      config,
      async call(pathAndQuery, init = {}) {
        const caller = init.as ?? 'admin'
        const token = caller === 'anonymous' ? undefined : caller === 'admin' ? adminToken : caller.token
        const headers: Record<string, string> = { apikey: TEST_API_KEY, ...(token ? { authorization: `Bearer ${token}` } : {}), ...init.headers }
        let body: string | undefined = init.rawBody
        if (init.body !== undefined) {
          body = JSON.stringify(init.body)
          headers['content-type'] ??= 'application/json'
        }
        for (const [key, value] of Object.entries(headers)) if (value === '') delete headers[key]
        const response = await fetch(`${address}${pathAndQuery}`, { method: init.method ?? 'GET', headers, body })
        const text = await response.text()
        let parsed: unknown = text
        try {
          parsed = JSON.parse(text)
        } catch {
          // not JSON: keep the text
        }
        return { status: response.status, body: parsed, headers: response.headers }
      },
      async createUser(role, options = {}) {
        const organizationId = options.organizationId ?? (await backend.db.query<{ id: number }>(`SELECT id FROM organizations ORDER BY id LIMIT 1`))[0].id
        const [group] = await backend.db.query<{ id: number }>(`SELECT id FROM groups WHERE organization_id = $1 AND role = $2 ORDER BY id LIMIT 1`, [organizationId, role])
        const username = `${role}-${++userCount}-${randomBytes(3).toString('hex')}`
        const password = `pw-${randomBytes(8).toString('hex')}`
        const [user] = await backend.db.query<{ id: number }>(
          `INSERT INTO users (username, email, password_hash, organization_id, group_id) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
          [username, `${username}@example.test`, await hashPassword(password), organizationId, group.id],
        )
        const session = await backend.services.identity.signIn(username, password)
        return { id: user.id, token: session.accessToken, username }
      },
      async stop() {
        // A test that did not read a large answer's body (a page's script) keeps its connection busy, and a graceful
        // close would wait for the client to give up on it: at the end of a suite, every connection simply ends.
        backend.app.server.closeAllConnections()
        await backend.close().catch(() => undefined)
        await postgres?.drop()
        rmSync(dataDir, { recursive: true, force: true })
      },
      async restart(more = {}) {
        // Already closed when an earlier restart failed to start.
        await backend.close().catch(() => undefined)
        return launch({ ...extra, ...more })
      },
    }
    return handle
  }
  return launch({})
}

/** Polls check_embeddings until the publish task ends. */
export async function waitForPublish(server: TestBackend, taskId: string) {
  for (let attempt = 0; attempt < 200; attempt++) {
    const { body } = await server.call(`/admin/check_embeddings?task_id=${taskId}`)
    if (!['queued', 'running'].includes(body.status)) return body
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`publish task ${taskId} did not end`)
}

/** Adds drafts and publishes them, returning the check_embeddings answer. */
export async function publishArticles(server: TestBackend, articles: { title: string; content: string }[]) {
  const ids: number[] = []
  for (const article of articles) {
    const { body } = await server.call('/admin/inject_article', { method: 'POST', body: article })
    ids.push(body.id)
  }
  const started = await server.call('/admin/do_embeddings', { method: 'POST', body: { ids } })
  return waitForPublish(server, started.body.task_id)
}

/** Runs a suite once on PGlite and once on the PostgreSQL server (skipped with a message only outside CI). */
export function forEachStorage(name: string, suite: (context: { kind: StorageKind; server: () => TestBackend }) => void) {
  for (const kind of ['pglite', 'postgres'] as StorageKind[]) {
    describe(`${name} on ${kind}`, async () => {
      const isAvailable = kind === 'pglite' || (await isPostgresAvailable())
      let server: TestBackend | undefined
      beforeAll(async () => {
        if (isAvailable) server = await startTestBackend(kind)
      })
      afterAll(async () => {
        await server?.stop()
      })
      describe.skipIf(!isAvailable)(kind, () => suite({ kind, server: () => server! }))
    })
  }
}
