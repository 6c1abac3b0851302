import type { Queryable } from '../../db/database'

/** Ended counts are deleted once in this many failures recorded by a counter of a process. */
const PRUNE_EVERY = 200

/**
 * Failed attempts by key, kept in the database (table sign_in_failures, ADR 310) so that every backend process on it
 * counts them together: after `maxFailures` failures, each less than `windowMs` after the one before, the key is
 * refused for `windowMs`; then it starts afresh. Keys are plain strings, so a key for an account that does not exist
 * behaves exactly like one for an account that does. Each counter's keys begin with its `name`, so counters share the
 * table without meeting. Times are this process's clock (`now`), in milliseconds.
 */
export class FailureCounter {
  private sincePruned = 0

  constructor(
    private readonly db: Queryable,
    private readonly options: { name: string; maxFailures: number; windowMs: number; now?: () => number },
  ) {}

  private now(): number {
    return this.options.now?.() ?? Date.now()
  }

  private key(key: string): string {
    return `${this.options.name}\n${key}`
  }

  async isRefused(key: string): Promise<boolean> {
    return (await this.refusedForMs(key)) > 0
  }

  /** How much longer the key is refused, in milliseconds; 0 when it is not. */
  async refusedForMs(key: string): Promise<number> {
    const now = this.now()
    const [row] = await this.db.query<{ refused_until_ms: string }>(
      `SELECT refused_until_ms FROM sign_in_failures WHERE key = $1 AND refused_until_ms > $2::bigint`,
      [this.key(key), now],
    )
    return row ? Number(row.refused_until_ms) - now : 0
  }

  /** Counts a failure, in one statement whichever process records it; answers how many failures the key has now. */
  async recordFailure(key: string): Promise<number> {
    const now = this.now()
    if (++this.sincePruned >= PRUNE_EVERY) void this.prune(now)
    const maxFailures = Number.isFinite(this.options.maxFailures) ? this.options.maxFailures : null
    // A count whose refusal is over, or whose last failure is a window old, starts again.
    const stale = '(f.refused_until_ms IS NOT NULL AND f.refused_until_ms <= $2::bigint) OR (f.refused_until_ms IS NULL AND f.last_failed_ms + $3::bigint <= $2::bigint)'
    const counted = `CASE WHEN ${stale} THEN 1 ELSE f.failures + 1 END`
    const [row] = await this.db.query<{ failures: number }>(
      `INSERT INTO sign_in_failures AS f (key, failures, last_failed_ms, refused_until_ms)
       VALUES ($1, 1, $2::bigint, CASE WHEN 1 >= $4::int THEN $2::bigint + $3::bigint END)
       ON CONFLICT (key) DO UPDATE SET
         failures = ${counted},
         last_failed_ms = $2::bigint,
         refused_until_ms = CASE WHEN ${counted} >= $4::int THEN $2::bigint + $3::bigint END
       RETURNING f.failures`,
      [this.key(key), now, this.options.windowMs, maxFailures],
    )
    return row.failures
  }

  async forget(key: string): Promise<void> {
    await this.db.query(`DELETE FROM sign_in_failures WHERE key = $1`, [this.key(key)])
  }

  /** Deletes this counter's keys that count no more: their refusal is over, or their last failure is a window old. */
  prune(now = this.now()): Promise<void> {
    this.sincePruned = 0
    return this.db
      .query(
        `DELETE FROM sign_in_failures WHERE left(key, length($1) + 1) = $1 || E'\\n'
           AND COALESCE(refused_until_ms, last_failed_ms + $3::bigint) <= $2::bigint`,
        [this.options.name, now, this.options.windowMs],
      )
      .then(() => undefined, () => undefined)
  }
}
