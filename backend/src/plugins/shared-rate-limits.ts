import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit'
import type { Queryable } from '../db/database'

/** A limiter made with `app.rateLimit(options)` (no route of its own): asking, over both of its routes. */
const SHARED_SCOPE = 'shared'

/** Ended windows are deleted once in this many counted requests of a process. */
const PRUNE_EVERY = 500

interface Count {
  current: number
  ttl: number
}

/**
 * Counts one request of `key` in a fixed window of `windowMs`, in one statement: a new key, or one whose window has
 * ended, starts a window at 1; otherwise the count goes up. The database's clock decides, so every process agrees on
 * when a window ends. `ttl` is what is left of the window, in milliseconds.
 */
export async function countRequest(db: Queryable, key: string, windowMs: number): Promise<Count> {
  const [row] = await db.query<{ current: number; ttl: number }>(
    `INSERT INTO rate_limit_counts AS c (key, requests, window_ends)
     VALUES ($1, 1, now() + $2 * interval '1 millisecond')
     ON CONFLICT (key) DO UPDATE SET
       requests = CASE WHEN c.window_ends <= now() THEN 1 ELSE c.requests + 1 END,
       window_ends = CASE WHEN c.window_ends <= now() THEN now() + $2 * interval '1 millisecond' ELSE c.window_ends END
     RETURNING c.requests AS current, GREATEST(0, CEIL(EXTRACT(EPOCH FROM (c.window_ends - now())) * 1000))::int AS ttl`,
    [key, windowMs],
  )
  return { current: row.current, ttl: row.ttl }
}

/**
 * The store of @fastify/rate-limit's counts in the database (table rate_limit_counts, ADR 310): every backend process
 * on one database shares them, so N processes allow what one does, not N times as much. Each route's limit counts
 * apart (its method and address begin its keys), as the in-memory store does.
 */
export function databaseRateLimitStore(db: Queryable): FastifyRateLimitStoreCtor {
  let sincePruned = 0
  const prune = () => {
    sincePruned = 0
    void db.query(`DELETE FROM rate_limit_counts WHERE window_ends <= now()`).catch(() => undefined)
  }

  class DatabaseRateLimitStore implements FastifyRateLimitStore {
    private readonly scope: string

    /** Constructed by the plugin with its options (then shared), or by `child` with a route's scope. */
    constructor(scope?: unknown) {
      this.scope = typeof scope === 'string' ? scope : SHARED_SCOPE
    }

    incr(key: string, callback: (error: Error | null, result?: Count) => void, timeWindow: number) {
      if (++sincePruned >= PRUNE_EVERY) prune()
      countRequest(db, `${this.scope} ${key}`, timeWindow).then(
        (count) => callback(null, count),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      )
    }

    child(routeOptions: Parameters<FastifyRateLimitStore['child']>[0]): FastifyRateLimitStore {
      const route = (routeOptions as { routeInfo?: { method?: string | string[]; url?: string } }).routeInfo
      return new DatabaseRateLimitStore(route?.url ? `${[route.method ?? ''].flat().join(',')} ${route.url}` : SHARED_SCOPE)
    }
  }
  return DatabaseRateLimitStore as FastifyRateLimitStoreCtor
}
