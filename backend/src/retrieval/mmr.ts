import type { Ranked } from './fusion'
import { cosine } from './vector-math'

/**
 * Maximal marginal relevance (Carbonell and Goldstein 1998): picks `limit` of the candidates one at a time, each
 * time the one maximising λ·relevance − (1 − λ)·(its greatest cosine similarity to those already picked).
 * λ = 1 keeps the relevance order; lower λ trades relevance for passages unlike those already chosen.
 *
 * Candidates come best first with their relevance (a fused score in [0, 1]); each keeps that score in the result,
 * in the order picked. A candidate without a vector is taken as unlike every other.
 */
export function maximalMarginalRelevance(
  candidates: readonly Ranked[],
  vectorOf: (id: number) => ArrayLike<number> | undefined,
  lambda: number,
  limit: number,
): Ranked[] {
  const count = Math.min(Math.max(0, Math.floor(limit)), candidates.length)
  const weight = Math.min(1, Math.max(0, lambda))
  const remaining = candidates.map((candidate) => ({ candidate, vector: vectorOf(candidate.id), closest: 0 }))
  const picked: Ranked[] = []
  while (picked.length < count) {
    let bestIndex = 0
    let bestValue = -Infinity
    remaining.forEach((entry, index) => {
      const value = weight * entry.candidate.score - (1 - weight) * entry.closest
      // Strictly greater: among equal values the earlier (more relevant) candidate stays chosen.
      if (value > bestValue) {
        bestValue = value
        bestIndex = index
      }
    })
    const [chosen] = remaining.splice(bestIndex, 1)
    picked.push(chosen.candidate)
    if (!chosen.vector) continue
    for (const entry of remaining) {
      if (!entry.vector) continue
      const similarity = cosine(entry.vector, chosen.vector)
      if (Number.isFinite(similarity) && similarity > entry.closest) entry.closest = similarity
    }
  }
  return picked
}
