import { randomBytes } from 'node:crypto'
import Fastify from 'fastify'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { registerErrorHandling } from '../plugins/errors'
import { eventually } from '../testing/eventually'
import { isPostgresAvailable, TEST_POSTGRES_URL } from '../testing/test-backend'
import { isConnectionLost, openDatabase, type Database } from './database'

const postgresAvailable = await isPostgresAvailable()

describe.skipIf(!postgresAvailable)('a PostgreSQL database whose connections the server drops', () => {
  // Its own application name, so only this database's connections are terminated, never another test's.
  const applicationName = `kb_terminated_${randomBytes(4).toString('hex')}`
  let db: Database
  let admin: pg.Client
  beforeAll(async () => {
    const url = new URL(TEST_POSTGRES_URL)
    url.searchParams.set('application_name', applicationName)
    db = await openDatabase({ url: url.toString(), dataDir: '' })
    admin = new pg.Client({ connectionString: TEST_POSTGRES_URL })
    await admin.connect()
  })
  afterAll(async () => {
    await db?.close()
    await admin?.end()
  })

  /** As an operator's pg_terminate_backend, or a server restart: every connection of this database ends. */
  const terminateAll = async () => {
    // The pids first: in one WHERE, the server may call pg_terminate_backend before filtering on the name.
    const rows = await admin.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND pid <> pg_backend_pid()`, [applicationName])
    const pids = rows.rows.map((row) => row.pid)
    await admin.query(`SELECT pg_terminate_backend(pid) FROM unnest($1::int[]) AS pid`, [pids])
    await eventually(async () => (await admin.query(`SELECT 1 FROM pg_stat_activity WHERE pid = ANY($1::int[])`, [pids])).rowCount === 0)
    return pids
  }

  it('survives its idle connections being terminated, and the next query gets a new one', async () => {
    // Several idle connections in the pool, and the listening one.
    await Promise.all([1, 2, 3].map(() => db.query(`SELECT pg_sleep(0.05)`)))
    const notified: (string | undefined)[] = []
    const stop = await db.listen('kb_terminated_test', (payload) => notified.push(payload))
    const terminated = await terminateAll()
    expect(terminated.length).toBeGreaterThanOrEqual(2)
    // Let the lost connections' messages be read, as a process idle between two requests would.
    await new Promise((resolve) => setTimeout(resolve, 100))

    expect(await db.query<{ one: number }>(`SELECT 1 AS one`)).toEqual([{ one: 1 }])
    expect(await db.transaction((tx) => tx.query<{ two: number }>(`SELECT 2 AS two`))).toEqual([{ two: 2 }])
    // The listening connection comes back, listening again.
    await eventually(async () => {
      await admin.query(`NOTIFY kb_terminated_test, 'after'`)
      return notified.includes('after')
    })
    await stop()
  })

  it('fails a statement whose connection is terminated under it with a connection error, and goes on', async () => {
    const [{ pid }] = await db.query<{ pid: number }>(`SELECT pg_backend_pid() AS pid`)
    expect(pid).toBeGreaterThan(0)
    const inFlight = db.transaction(async (tx) => {
      await tx.query(`SELECT 1`)
      await tx.query(`SELECT pg_sleep(30)`)
    })
    inFlight.catch(() => undefined)
    await eventually(async () => (await admin.query(`SELECT 1 FROM pg_stat_activity WHERE application_name = $1 AND query LIKE '%pg_sleep(30)%' AND state = 'active'`, [applicationName])).rowCount === 1)
    await terminateAll()
    const error = await inFlight.then(() => undefined, (failure: unknown) => failure)
    expect(isConnectionLost(error)).toBe(true)
    expect(await db.query<{ one: number }>(`SELECT 1 AS one`)).toEqual([{ one: 1 }])
  })
})

describe('a request whose database connection was lost', () => {
  it('is answered 503, not 500', async () => {
    const app = Fastify()
    registerErrorHandling(app)
    app.get('/terminated', async () => {
      throw Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' })
    })
    app.get('/closed', async () => {
      throw new Error('Connection terminated unexpectedly')
    })
    for (const url of ['/terminated', '/closed']) {
      const response = await app.inject({ url })
      expect(response.statusCode).toBe(503)
      expect(response.json()).toMatchObject({ success: false, error: 'Service Unavailable' })
    }
    await app.close()
  })
})
