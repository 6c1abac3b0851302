import { mkdirSync } from 'node:fs'
import path from 'node:path'
import { PGlite, type Extensions } from '@electric-sql/pglite'
import pg from 'pg'

/** Something SQL can be sent to: the database itself or an open transaction. */
export interface Queryable {
  query<Row = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<Row[]>
  /**
   * Inside a transaction: runs `callback` once the transaction has committed (never when it rolls back). Absent
   * outside one, where every statement commits on its own.
   */
  afterCommit?(callback: () => void): void
}

/** Runs `callback` once what `db` wrote is committed: after its transaction's commit, or now outside one. */
export function whenCommitted(db: Queryable, callback: () => void): void {
  if (db.afterCommit) db.afterCommit(callback)
  else callback()
}

/** The callbacks a transaction collects with afterCommit, run after its COMMIT. */
function commitCallbacks() {
  const callbacks: (() => void)[] = []
  return {
    add: (callback: () => void) => void callbacks.push(callback),
    run: () => {
      for (const callback of callbacks) callback()
    },
  }
}

export interface Database extends Queryable {
  readonly kind: 'pglite' | 'postgres'
  /** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>
  /**
   * Calls `onNotify` with the payload of every NOTIFY on `channel` (any text: it is quoted). On a server, one
   * dedicated connection listens and reconnects when lost; `onNotify(undefined)` then says notifications may
   * have been missed. Resolves once listening, with a function that stops listening.
   */
  listen(channel: string, onNotify: (payload: string | undefined) => void): Promise<() => Promise<void>>
  close(): Promise<void>
}

export interface DatabaseOptions {
  /** postgres://… for a server, memory:// for a throw-away embedded database, unset for files under dataDir. */
  url?: string
  dataDir: string
}

/** Opens PGlite (embedded, in process) or a PostgreSQL server pool, behind one interface. */
export async function openDatabase({ url, dataDir }: DatabaseOptions): Promise<Database> {
  if (url && /^postgres(ql)?:\/\//.test(url)) return openPostgres(url)
  if (url?.startsWith('memory://')) return openPglite(undefined)
  const directory = path.resolve(dataDir, 'pgdata')
  mkdirSync(directory, { recursive: true })
  return openPglite(directory)
}

async function openPglite(directory: string | undefined): Promise<Database> {
  const extensions = await pgliteExtensions()
  const lite = directory ? await PGlite.create(directory, { extensions }) : await PGlite.create({ extensions })
  return {
    kind: 'pglite',
    async query<Row>(sql: string, params: unknown[] = []) {
      const result = await lite.query<Row>(sql, params as unknown[])
      return result.rows
    },
    async transaction<T>(work: (tx: Queryable) => Promise<T>) {
      const committed = commitCallbacks()
      const value = await lite.transaction((tx) =>
        work({
          async query<Row>(sql: string, params: unknown[] = []) {
            const result = await tx.query<Row>(sql, params as unknown[])
            return result.rows
          },
          afterCommit: committed.add,
        }),
      )
      committed.run()
      return value
    },
    async listen(channel, onNotify) {
      const stop = await lite.listen(`"${channel.replaceAll('"', '""')}"`, (payload) => onNotify(payload))
      return () => stop()
    },
    close: () => lite.close(),
  }
}

/**
 * pgvector for PGlite when its package is installed (ADR 085): offered to the database, enabled only where chunk
 * vectors are kept. Without the package, vectors are searched in process instead.
 */
export async function pgliteExtensions(): Promise<Extensions> {
  // A name in a variable: the package is optional, so neither the type checker nor the bundler may require it.
  const specifier = '@electric-sql/pglite-pgvector'
  try {
    const module = (await import(specifier)) as { vector?: Extensions[string] }
    return module.vector ? { vector: module.vector } : {}
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_MODULE_NOT_FOUND' || /Cannot find (module|package)/.test(String(error))) return {}
    throw error
  }
}

/**
 * Whether `error` says the database server could not be reached or dropped the connection (a restart, a failover,
 * pg_terminate_backend): nothing the request did wrong, and the next attempt gets a new connection.
 */
export function isConnectionLost(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code
  // SQLSTATE class 08 (connection exception) and 57P01–57P03 (shut down, crashed, not accepting connections yet).
  if (typeof code === 'string' && (/^08[0-9A-Z]{3}$/.test(code) || /^57P0[1-3]$/.test(code))) return true
  if (typeof code === 'string' && ['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND'].includes(code)) return true
  const message = error instanceof Error ? error.message : ''
  return /^Connection terminated|^Client has encountered a connection error|^Client was closed/.test(message)
}

async function openPostgres(url: string): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: 10 })
  // An idle connection the server drops (a restart, a failover, pg_terminate_backend) emits 'error' on the pool,
  // which has already let go of it: the next query opens a new one. Unhandled, the event would end the process.
  pool.on('error', (error) => {
    console.warn(`A database connection was lost while idle (${error.message}); the next query opens a new one`)
  })
  // Fail fast with a clear message rather than on the first request.
  const probe = await pool.connect()
  probe.release()
  const listener = createListener(url)
  return {
    kind: 'postgres',
    async query<Row>(sql: string, params: unknown[] = []) {
      const result = await pool.query(sql, params)
      return result.rows as Row[]
    },
    async transaction<T>(work: (tx: Queryable) => Promise<T>) {
      const client = await pool.connect()
      // While checked out the pool does not listen for the connection's errors: one lost between two statements
      // (work awaiting something else) fails the next statement, and the connection is dropped on release.
      let lost: Error | undefined
      const onError = (error: Error) => void (lost = error)
      client.on('error', onError)
      const committed = commitCallbacks()
      let value: T
      try {
        await client.query('BEGIN')
        value = await work({
          async query<Row>(sql: string, params: unknown[] = []) {
            const result = await client.query(sql, params)
            return result.rows as Row[]
          },
          afterCommit: committed.add,
        })
        await client.query('COMMIT')
      } catch (error) {
        if (!lost && !isConnectionLost(error)) await client.query('ROLLBACK').catch(() => undefined)
        else lost ??= error as Error
        throw error
      } finally {
        client.removeListener('error', onError)
        client.release(lost)
      }
      committed.run()
      return value
    },
    listen: (channel, onNotify) => listener.listen(channel, onNotify),
    async close() {
      await listener.close()
      await pool.end()
    },
  }
}

type NotifyHandler = (payload: string | undefined) => void

/** One connection that LISTENs on behalf of the whole process, reconnecting (and re-listening) when it is lost. */
function createListener(url: string) {
  const handlers = new Map<string, Set<NotifyHandler>>()
  let client: pg.Client | undefined
  let connecting: Promise<pg.Client> | undefined
  let retry: NodeJS.Timeout | undefined
  let isClosed = false

  const connect = async (): Promise<pg.Client> => {
    const next = new pg.Client({ connectionString: url })
    next.on('notification', (message) => {
      for (const handler of handlers.get(message.channel) ?? []) handler(message.payload ?? '')
    })
    // A lost connection emits 'error' and then 'end'; 'end' reconnects.
    next.on('error', () => undefined)
    next.on('end', () => {
      if (client !== next) return
      client = undefined
      if (!isClosed) reconnectLater()
    })
    await next.connect()
    try {
      for (const channel of handlers.keys()) await next.query(`LISTEN ${next.escapeIdentifier(channel)}`)
    } catch (error) {
      await next.end().catch(() => undefined)
      throw error
    }
    return next
  }

  const ensureConnected = (): Promise<pg.Client> => {
    if (client) return Promise.resolve(client)
    connecting ??= connect()
      .then((connected) => {
        client = connected
        return connected
      })
      .finally(() => {
        connecting = undefined
      })
    return connecting
  }

  const reconnectLater = () => {
    retry = setTimeout(async () => {
      retry = undefined
      try {
        await ensureConnected()
        for (const set of handlers.values()) for (const handler of set) handler(undefined)
      } catch {
        if (!isClosed) reconnectLater()
      }
    }, 1000)
    retry.unref()
  }

  return {
    async listen(channel: string, onNotify: NotifyHandler): Promise<() => Promise<void>> {
      const isNew = !handlers.has(channel)
      if (isNew) handlers.set(channel, new Set())
      handlers.get(channel)!.add(onNotify)
      // A connection made from now on LISTENs on every known channel itself; LISTEN twice is harmless.
      const connected = await ensureConnected()
      if (isNew) await connected.query(`LISTEN ${connected.escapeIdentifier(channel)}`)
      return async () => {
        const set = handlers.get(channel)
        set?.delete(onNotify)
        if (set?.size === 0) {
          handlers.delete(channel)
          await client?.query(`UNLISTEN ${client.escapeIdentifier(channel)}`).catch(() => undefined)
        }
      }
    },
    async close() {
      isClosed = true
      if (retry) clearTimeout(retry)
      const current = client ?? (await connecting?.catch(() => undefined))
      client = undefined
      await current?.end().catch(() => undefined)
    },
  }
}
