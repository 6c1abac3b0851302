import { describe, expect, it } from 'vitest'
import { answerCheckOf, MAX_ANSWER_TRIES, nextAnswerCheck } from './ask-limits'

/** Every wait of the schedule, from the question's post to the last check. */
function schedule(): number[] {
  const waits: number[] = []
  let step = nextAnswerCheck(0)
  while (step) {
    waits.push(step.waitSeconds)
    step = nextAnswerCheck(step.check)
  }
  return waits
}

describe('the retry schedule of a slow answer (SEED.md §4)', () => {
  it('checks again 10 times, waiting 1 s, then 2 s, and so on up to 10 s', () => {
    expect(schedule()).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
    expect(MAX_ANSWER_TRIES).toBe(10)
  })

  it('waits a second before the first check, never checking at once', () => {
    expect(nextAnswerCheck(0)).toEqual({ check: 1, waitSeconds: 1 })
  })

  it('stops after the tenth check', () => {
    expect(nextAnswerCheck(9)).toEqual({ check: 10, waitSeconds: 10 })
    expect(nextAnswerCheck(10)).toBeNull()
    expect(nextAnswerCheck(11)).toBeNull()
  })

  it('reads a check number from the address, refusing anything outside 0 to 10', () => {
    expect(answerCheckOf('0')).toBe(0)
    expect(answerCheckOf('10')).toBe(10)
    for (const value of [null, '', '11', '-1', '1.5', 'x', '007']) expect(answerCheckOf(value)).toBeNull()
  })
})
