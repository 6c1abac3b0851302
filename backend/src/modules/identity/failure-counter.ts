/**
 * Failed attempts by key, in this process's memory: after `maxFailures` failures, each less than `windowMs` after
 * the one before, the key is refused for `windowMs`; then it starts afresh. Keys are plain strings, so a key
 * for an account that does not exist behaves exactly like one for an account that does. Memory is bounded: past
 * `maxEntries` keys the least recently failed are forgotten.
 */
export class FailureCounter {
  private readonly entries = new Map<string, { failures: number; lastAt: number; refusedUntil: number }>()

  constructor(
    private readonly options: { maxFailures: number; windowMs: number; maxEntries?: number; now?: () => number },
  ) {}

  private now(): number {
    return this.options.now?.() ?? Date.now()
  }

  /** The live entry for a key; an entry whose refusal is over, or whose last failure is too old, is dropped. */
  private current(key: string) {
    const entry = this.entries.get(key)
    if (!entry) return undefined
    const now = this.now()
    if (entry.refusedUntil > now) return entry
    if (entry.refusedUntil > 0 || now - entry.lastAt >= this.options.windowMs) {
      this.entries.delete(key)
      return undefined
    }
    return entry
  }

  isRefused(key: string): boolean {
    return this.refusedForMs(key) > 0
  }

  /** How much longer the key is refused, in milliseconds; 0 when it is not. */
  refusedForMs(key: string): number {
    return Math.max((this.current(key)?.refusedUntil ?? 0) - this.now(), 0)
  }

  /** Counts a failure; answers how many failures the key has now. */
  recordFailure(key: string): number {
    const now = this.now()
    const entry = this.current(key) ?? { failures: 0, lastAt: now, refusedUntil: 0 }
    entry.failures += 1
    entry.lastAt = now
    if (entry.failures >= this.options.maxFailures) entry.refusedUntil = now + this.options.windowMs
    // Re-inserting keeps the Map in order of the last failure, so the oldest come first when trimming.
    this.entries.delete(key)
    this.entries.set(key, entry)
    const maxEntries = this.options.maxEntries ?? 10_000
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= maxEntries) break
      this.entries.delete(oldest)
    }
    return entry.failures
  }

  forget(key: string): void {
    this.entries.delete(key)
  }
}
