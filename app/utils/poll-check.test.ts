import { describe, expect, it } from 'vitest'
import { pollCheckNumber } from './poll-check'

describe('pollCheckNumber', () => {
  it('reads the check number of the address, a whole number from 0 to a million', () => {
    expect(pollCheckNumber('7')).toBe(7)
    expect(pollCheckNumber(null)).toBe(0)
    expect(pollCheckNumber('')).toBe(0)
    expect(pollCheckNumber('x')).toBe(0)
    expect(pollCheckNumber('-3')).toBe(0)
    expect(pollCheckNumber('2.5')).toBe(2)
    expect(pollCheckNumber('1e400')).toBe(0)
    expect(pollCheckNumber('99999999')).toBe(1e6)
  })
})
