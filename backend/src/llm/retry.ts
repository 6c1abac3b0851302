/**
 * When to try a model call again, and how long to wait first: exponential backoff with jitter, or the server's
 * own `Retry-After`, within a cap. The policy is ours (the client's own retries are off) so that a stream is only
 * retried before its first word.
 */

export interface RetryPolicy {
  /** Tries in all, the first included (1 = never retry). */
  attempts: number
  /** Wait before the first retry; doubled for each further one. */
  baseDelayMs: number
  /** Longest wait: backoff is capped at it, and a `Retry-After` beyond it is not waited for (the call fails). */
  maxDelayMs: number
  /** Source of jitter, in [0, 1). */
  random: () => number
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  attempts: 3,
  baseDelayMs: 500,
  maxDelayMs: 8000,
  random: Math.random,
}

/**
 * The wait before retry number `retry` (1 for the first), or undefined when the server asks for a longer wait
 * than the policy allows. Backoff uses "equal jitter": half the step is fixed, half random, so retries from
 * many requests spread out but never come back at once.
 */
export function retryDelay(policy: RetryPolicy, retry: number, retryAfterMs?: number): number | undefined {
  if (retryAfterMs !== undefined) return retryAfterMs > policy.maxDelayMs ? undefined : Math.max(0, retryAfterMs)
  const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, retry - 1))
  return Math.round(step / 2 + policy.random() * (step / 2))
}

/**
 * The wait a response asks for: `retry-after-ms` (OpenAI's, in milliseconds), else `Retry-After` in seconds or as
 * an HTTP date. Undefined when absent or unreadable.
 */
export function retryAfterMs(headers: { get(name: string): string | null } | undefined, now = Date.now()): number | undefined {
  if (!headers) return undefined
  const milliseconds = headers.get('retry-after-ms')
  if (milliseconds !== null && milliseconds.trim() !== '') {
    const value = Number(milliseconds)
    if (Number.isFinite(value) && value >= 0) return value
  }
  const header = headers.get('retry-after')
  if (header === null || header.trim() === '') return undefined
  const seconds = Number(header)
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds * 1000 : undefined
  const date = Date.parse(header)
  return Number.isNaN(date) ? undefined : Math.max(0, date - now)
}

/** Waits `ms`, or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortReason(signal))
      return
    }
    const onAbort = () => {
      clearTimeout(timer)
      reject(abortReason(signal!))
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}

/** What a caller's abort throws: its reason, or a standard `AbortError`. */
export function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The operation was aborted.', 'AbortError')
}
