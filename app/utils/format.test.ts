import { describe, expect, it } from 'vitest'
import { formatDuration } from './format'

describe('formatDuration', () => {
  it('gives milliseconds under a second, so a fast answer does not read "0.0 s"', () => {
    expect(formatDuration(0)).toBe('0 ms')
    expect(formatDuration(12.4)).toBe('12 ms')
    expect(formatDuration(999)).toBe('999 ms')
  })

  it('gives seconds with a tenth under a minute, then minutes and seconds', () => {
    expect(formatDuration(1000)).toBe('1.0 s')
    expect(formatDuration(1234)).toBe('1.2 s')
    expect(formatDuration(59_940)).toBe('59.9 s')
    expect(formatDuration(125_000)).toBe('2 min 5 s')
  })

  it('shows a dash for a duration that is not one', () => {
    expect(formatDuration(Number.NaN)).toBe('—')
    expect(formatDuration(-5)).toBe('—')
  })
})
