import { describe, expect, it } from 'vitest'
import { computeNdcg, computeReciprocalRank, computeRecall, scoreRun } from './lib/metrics'
import { containsGoldAnswer, countWords } from './lib/answer-scoring'

const judged = new Map([
  ['d2', 1],
  ['d4', 1],
  ['d5', 1],
])

describe('retrieval metrics', () => {
  it('computes nDCG@10 with linear gain against the ideal ranking of every relevant document', () => {
    // DCG = 1/log2(3) + 1/log2(5) = 0.630930 + 0.430677; IDCG = 1 + 1/log2(3) + 1/log2(4) = 2.130930
    expect(computeNdcg(['d1', 'd2', 'd3', 'd4'], judged, 10)).toBeCloseTo(1.061606 / 2.13093, 5)
  })

  it('uses the grades as gains', () => {
    // DCG = 1 + 2/log2(3) = 2.261860; IDCG = 2 + 1/log2(3) = 2.630930
    expect(computeNdcg(['a', 'b'], new Map([['a', 1], ['b', 2]]), 10)).toBeCloseTo(2.26186 / 2.63093, 5)
  })

  it('computes recall as the share of relevant documents retrieved', () => {
    expect(computeRecall(['d1', 'd2', 'd3', 'd4'], judged, 100)).toBeCloseTo(2 / 3, 12)
    expect(computeRecall(['d1', 'd2', 'd3', 'd4'], judged, 2)).toBeCloseTo(1 / 3, 12)
  })

  it('computes the reciprocal rank of the first relevant document', () => {
    expect(computeReciprocalRank(['d1', 'd2', 'd3', 'd4'], judged, 10)).toBe(0.5)
    expect(computeReciprocalRank(['d4'], judged, 10)).toBe(1)
  })

  it('ignores documents ranked below the cutoff', () => {
    const ranking = [...Array.from({ length: 10 }, (_, index) => `x${index}`), 'd2']
    expect(computeNdcg(ranking, judged, 10)).toBe(0)
    expect(computeReciprocalRank(ranking, judged, 10)).toBe(0)
    expect(computeRecall(ranking, judged, 100)).toBeCloseTo(1 / 3, 12)
  })

  it('averages over judged queries and scores a query without a ranking as 0', () => {
    const qrels = new Map([
      ['q1', new Map([['d1', 1]])],
      ['q2', new Map([['d9', 1]])],
    ])
    const scores = scoreRun(new Map([['q1', ['d1']]]), qrels)
    expect(scores).toEqual({ ndcgAt10: 0.5, recallAt100: 0.5, mrrAt10: 0.5, queryCount: 2 })
  })
})

describe('answer scoring', () => {
  it('finds a gold answer after SQuAD normalisation', () => {
    expect(containsGoldAnswer('It was founded in 1851, by the Society.', ['1851'])).toBe(true)
    expect(containsGoldAnswer('The answer is The Beatles!', ['beatles'])).toBe(true)
    expect(containsGoldAnswer('In 18512 maybe', ['1851'])).toBe(false)
  })

  it('counts words, not punctuation', () => {
    expect(countWords('Backups run daily — at midnight. [1]')).toBe(6)
  })
})
