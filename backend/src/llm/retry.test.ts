import { describe, expect, it } from 'vitest'
import { DEFAULT_RETRY_POLICY, retryAfterMs, retryDelay, sleep, type RetryPolicy } from './retry'

const headers = (values: Record<string, string>) => new Headers(values)

describe('retry policy', () => {
  const policy = (random: number): RetryPolicy => ({ ...DEFAULT_RETRY_POLICY, baseDelayMs: 400, maxDelayMs: 3000, random: () => random })

  it('doubles the wait for each retry, with half of it jittered, up to the cap', () => {
    expect([1, 2, 3, 4, 5].map((retry) => retryDelay(policy(0), retry))).toEqual([200, 400, 800, 1500, 1500])
    expect([1, 2, 3, 4, 5].map((retry) => retryDelay(policy(0.5), retry))).toEqual([300, 600, 1200, 2250, 2250])
  })

  it('waits as long as the server asks, but not beyond the cap', () => {
    expect(retryDelay(policy(0.5), 1, 2500)).toBe(2500)
    expect(retryDelay(policy(0.5), 3, 0)).toBe(0)
    expect(retryDelay(policy(0.5), 1, 3001)).toBeUndefined()
  })

  it('reads retry-after-ms first, then Retry-After in seconds or as a date', () => {
    const now = Date.parse('2026-01-01T00:00:00Z')
    expect(retryAfterMs(headers({ 'retry-after-ms': '250', 'retry-after': '9' }), now)).toBe(250)
    expect(retryAfterMs(headers({ 'retry-after': '2' }), now)).toBe(2000)
    expect(retryAfterMs(headers({ 'retry-after': '0.5' }), now)).toBe(500)
    expect(retryAfterMs(headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:03 GMT' }), now)).toBe(3000)
    expect(retryAfterMs(headers({ 'retry-after': 'Wed, 31 Dec 2025 23:59:00 GMT' }), now)).toBe(0)
    expect(retryAfterMs(headers({ 'retry-after': 'soon' }), now)).toBeUndefined()
    expect(retryAfterMs(headers({ 'retry-after-ms': 'x', 'retry-after': '-1' }), now)).toBeUndefined()
    expect(retryAfterMs(headers({}), now)).toBeUndefined()
    expect(retryAfterMs(undefined, now)).toBeUndefined()
  })

  it('stops waiting when the caller aborts', async () => {
    const controller = new AbortController()
    const waiting = sleep(60_000, controller.signal)
    controller.abort(new Error('gone'))
    await expect(waiting).rejects.toThrow('gone')
    await expect(sleep(10, AbortSignal.abort())).rejects.toMatchObject({ name: 'AbortError' })
  })
})
