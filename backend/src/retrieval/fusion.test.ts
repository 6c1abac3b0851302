import { describe, expect, it } from 'vitest'
import { fuse, minMaxNormalise, reciprocalRankFusion, weightedFusion, type Ranked } from './fusion'
import { maximalMarginalRelevance } from './mmr'
import { cosine, VectorMatrix } from './vector-math'

const ids = (list: Ranked[]) => list.map((entry) => entry.id)

describe('min-max normalisation', () => {
  it('maps the best score to 1 and the worst to 0, and a list without spread to 1', () => {
    expect([...minMaxNormalise([{ id: 1, score: 12 }, { id: 2, score: 7 }, { id: 3, score: 2 }])]).toEqual([[1, 1], [2, 0.5], [3, 0]])
    expect([...minMaxNormalise([{ id: 4, score: 0.3 }])]).toEqual([[4, 1]])
    expect([...minMaxNormalise([{ id: 5, score: 2 }, { id: 6, score: 2 }])]).toEqual([[5, 1], [6, 1]])
    expect(minMaxNormalise([{ id: 7, score: Number.NaN }]).size).toBe(0)
  })
})

describe('weighted fusion', () => {
  const keyword = [{ id: 1, score: 20 }, { id: 2, score: 10 }, { id: 3, score: 0 }]
  const vector = [{ id: 3, score: 0.9 }, { id: 2, score: 0.8 }, { id: 4, score: 0.3 }]

  it('adds the normalised scores by weight, 0 where a list lacks the chunk, in [0, 1]', () => {
    const fused = weightedFusion([{ hits: keyword, weight: 1 }, { hits: vector, weight: 1 }])
    expect(ids(fused)).toEqual([2, 1, 3, 4])
    expect(fused[0].score).toBeCloseTo(0.5 * 0.5 + 0.5 * (5 / 6), 10)
    // 1 and 3 tie (each first in one list, absent or last in the other): the earlier best rank, then the id.
    expect(fused[1].score).toBeCloseTo(0.5, 10)
    expect(fused.every((entry) => entry.score >= 0 && entry.score <= 1)).toBe(true)
  })

  it('follows the weights: only their ratio matters', () => {
    expect(ids(weightedFusion([{ hits: keyword, weight: 0.9 }, { hits: vector, weight: 0.1 }]))[0]).toBe(1)
    expect(ids(weightedFusion([{ hits: keyword, weight: 0.1 }, { hits: vector, weight: 0.9 }]))[0]).toBe(3)
    expect(weightedFusion([{ hits: keyword, weight: 2 }, { hits: vector, weight: 2 }])).toEqual(weightedFusion([{ hits: keyword, weight: 1 }, { hits: vector, weight: 1 }]))
  })

  it('ignores a list of weight 0 or without entries', () => {
    expect(weightedFusion([{ hits: keyword, weight: 1 }, { hits: vector, weight: 0 }]).map((entry) => entry.score)).toEqual([1, 0.5, 0])
    expect(ids(weightedFusion([{ hits: [], weight: 1 }, { hits: vector, weight: 1 }]))).toEqual([3, 2, 4])
  })
})

describe('reciprocal rank fusion', () => {
  it('scores ranks, not score gaps, and gives 1 to the first of every list', () => {
    // The keyword list's first is far ahead by score; the vector list puts it last.
    const keyword = [{ id: 1, score: 100 }, { id: 2, score: 1.1 }, { id: 3, score: 1 }]
    const vector = [{ id: 2, score: 0.9 }, { id: 3, score: 0.89 }, { id: 1, score: 0.88 }]
    const lists = [{ hits: keyword, weight: 1 }, { hits: vector, weight: 1 }]
    expect(ids(weightedFusion(lists))).toEqual([2, 1, 3])
    const rrf = reciprocalRankFusion(lists)
    expect(ids(rrf)).toEqual([2, 1, 3])
    expect(rrf[0].score).toBeCloseTo((1 / 62 + 1 / 61) / (2 / 61), 10)
    expect(reciprocalRankFusion([{ hits: [{ id: 9, score: 3 }], weight: 1 }, { hits: [{ id: 9, score: 0.1 }], weight: 3 }])[0].score).toBeCloseTo(1, 10)
  })

  it('can order differently from score fusion on the same lists', () => {
    // Chunk 2 is a close second in both lists: near the top by score, but second by rank.
    const keyword = [{ id: 1, score: 10 }, { id: 2, score: 9.9 }, { id: 3, score: 0 }]
    const vector = [{ id: 3, score: 0.9 }, { id: 2, score: 0.899 }, { id: 1, score: 0.1 }]
    const lists = [{ hits: keyword, weight: 1 }, { hits: vector, weight: 1 }]
    expect(ids(fuse('weighted', lists))[0]).toBe(2)
    expect(ids(fuse('rrf', lists))).toEqual([1, 3, 2])
  })
})

describe('maximal marginal relevance', () => {
  const vectors = new Map<number, number[]>([
    [1, [1, 0, 0]],
    [2, [0.99, 0.1, 0]],
    [3, [0.98, 0.15, 0.05]],
    [4, [0, 1, 0]],
  ])
  const candidates = [{ id: 1, score: 1 }, { id: 2, score: 0.95 }, { id: 3, score: 0.9 }, { id: 4, score: 0.6 }]

  it('keeps the relevance order at λ = 1 and brings a different passage forward at a low λ', () => {
    expect(ids(maximalMarginalRelevance(candidates, (id) => vectors.get(id), 1, 3))).toEqual([1, 2, 3])
    const diverse = maximalMarginalRelevance(candidates, (id) => vectors.get(id), 0.3, 3)
    expect(ids(diverse).slice(0, 2)).toEqual([1, 4])
    expect(diverse.find((entry) => entry.id === 4)!.score).toBe(0.6)
  })

  it('takes a candidate without a vector as unlike the others, and never returns more than asked', () => {
    expect(ids(maximalMarginalRelevance(candidates, (id) => (id === 3 ? undefined : vectors.get(id)), 0.5, 2))).toEqual([1, 3])
    expect(maximalMarginalRelevance(candidates, (id) => vectors.get(id), 0.5, 10)).toHaveLength(4)
    expect(maximalMarginalRelevance(candidates, (id) => vectors.get(id), 0.5, 0)).toEqual([])
  })
})

describe('exact vector matrix', () => {
  it('finds the nearest rows by cosine, keeps up with replace and delete, and refuses a wrong width', () => {
    const matrix = new VectorMatrix()
    matrix.set(10, [1, 0])
    matrix.set(11, [0.7, 0.7])
    matrix.set(12, [0, 1])
    matrix.set(13, [0, 0])
    expect(matrix.search([1, 0.1], 2).map((match) => match.id)).toEqual([10, 11])
    expect(matrix.search([1, 0.1], 2)[0].score).toBeCloseTo(cosine([1, 0], [1, 0.1]), 6)
    matrix.set(10, [0, -1])
    expect(matrix.search([1, 0.1], 1)[0].id).toBe(11)
    expect(matrix.delete(11)).toBe(true)
    expect(matrix.search([1, 0.1], 5).map((match) => match.id)).toEqual([12, 10])
    expect(matrix.get(12)).toEqual(new Float32Array([0, 1]))
    expect(() => matrix.set(14, [1, 2, 3])).toThrow(RangeError)
    expect(matrix.search([0, 0], 3)).toEqual([])
  })

  it('orders equal scores by id and grows past its first capacity', () => {
    const matrix = new VectorMatrix()
    for (let id = 200; id > 0; id--) matrix.set(id, [1, 1])
    expect(matrix.size).toBe(200)
    expect(matrix.search([2, 2], 3).map((match) => match.id)).toEqual([1, 2, 3])
  })
})
