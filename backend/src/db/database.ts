import { mkdirSync } from 'node:fs'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import pg from 'pg'

/** Something SQL can be sent to: the database itself or an open transaction. */
export interface Queryable {
  query<Row = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<Row[]>
}

export interface Database extends Queryable {
  readonly kind: 'pglite' | 'postgres'
  /** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>
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
  const lite = directory ? await PGlite.create(directory) : await PGlite.create()
  return {
    kind: 'pglite',
    async query<Row>(sql: string, params: unknown[] = []) {
      const result = await lite.query<Row>(sql, params as unknown[])
      return result.rows
    },
    transaction<T>(work: (tx: Queryable) => Promise<T>) {
      return lite.transaction((tx) =>
        work({
          async query<Row>(sql: string, params: unknown[] = []) {
            const result = await tx.query<Row>(sql, params as unknown[])
            return result.rows
          },
        }),
      )
    },
    close: () => lite.close(),
  }
}

async function openPostgres(url: string): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: 10 })
  // Fail fast with a clear message rather than on the first request.
  const probe = await pool.connect()
  probe.release()
  return {
    kind: 'postgres',
    async query<Row>(sql: string, params: unknown[] = []) {
      const result = await pool.query(sql, params)
      return result.rows as Row[]
    },
    async transaction<T>(work: (tx: Queryable) => Promise<T>) {
      const client = await pool.connect()
      try {
        await client.query('BEGIN')
        const value = await work({
          async query<Row>(sql: string, params: unknown[] = []) {
            const result = await client.query(sql, params)
            return result.rows as Row[]
          },
        })
        await client.query('COMMIT')
        return value
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined)
        throw error
      } finally {
        client.release()
      }
    },
    close: () => pool.end(),
  }
}
