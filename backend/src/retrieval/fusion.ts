/** One ranked list's entry: a chunk and its score in that list (higher is better). */
export interface Ranked {
  id: number
  score: number
}

/** A ranked list, best first, and how much it counts in the fusion (only the ratio of the weights matters). */
export interface WeightedList {
  hits: readonly Ranked[]
  weight: number
}

export type FusionMethod = 'weighted' | 'rrf'

/** The k of reciprocal rank fusion: how quickly lower ranks stop counting (60, as in Cormack et al. 2009). */
export const RRF_K = 60

/**
 * Min-max normalisation of one list: its best score becomes 1, its worst 0. A list of one entry, or of equal
 * scores, gives 1 to every entry: nothing in the list says one is worse than another.
 */
export function minMaxNormalise(hits: readonly Ranked[]): Map<number, number> {
  const finite = hits.filter((hit) => Number.isFinite(hit.score))
  const normalised = new Map<number, number>()
  if (finite.length === 0) return normalised
  let high = -Infinity
  let low = Infinity
  for (const hit of finite) {
    high = Math.max(high, hit.score)
    low = Math.min(low, hit.score)
  }
  const span = high - low
  for (const hit of finite) if (!normalised.has(hit.id)) normalised.set(hit.id, span > 0 ? (hit.score - low) / span : 1)
  return normalised
}

/**
 * Score-normalised weighted fusion: each list is min-max normalised, and a chunk's fused score is the weighted mean
 * of its normalised scores (0 in a list that does not hold it). Scores are in [0, 1]; 1 is the best of every list.
 */
export function weightedFusion(lists: readonly WeightedList[]): Ranked[] {
  const used = usableLists(lists)
  const total = used.reduce((sum, list) => sum + list.weight, 0)
  const fused = new Map<number, number>()
  for (const list of used) {
    for (const [id, score] of minMaxNormalise(list.hits)) fused.set(id, (fused.get(id) ?? 0) + (list.weight / total) * score)
  }
  return sortFused(fused, used)
}

/**
 * Weighted reciprocal rank fusion: a chunk scores the sum of weight / (k + rank) over the lists holding it, divided
 * by what the first place in every list would score, so scores are in (0, 1]. Only ranks count, not score gaps.
 */
export function reciprocalRankFusion(lists: readonly WeightedList[], k = RRF_K): Ranked[] {
  const used = usableLists(lists)
  const best = used.reduce((sum, list) => sum + list.weight / (k + 1), 0)
  const fused = new Map<number, number>()
  for (const list of used) {
    const seen = new Set<number>()
    let rank = 0
    for (const hit of list.hits) {
      if (seen.has(hit.id) || !Number.isFinite(hit.score)) continue
      seen.add(hit.id)
      rank++
      fused.set(hit.id, (fused.get(hit.id) ?? 0) + list.weight / (k + rank) / best)
    }
  }
  return sortFused(fused, used)
}

export function fuse(method: FusionMethod, lists: readonly WeightedList[]): Ranked[] {
  return method === 'rrf' ? reciprocalRankFusion(lists) : weightedFusion(lists)
}

/** Lists that can count: a positive finite weight and at least one entry. */
function usableLists(lists: readonly WeightedList[]): WeightedList[] {
  return lists.filter((list) => Number.isFinite(list.weight) && list.weight > 0 && list.hits.length > 0)
}

/** Best fused score first; a tie goes to the chunk ranked higher in some list, then to the lower id. */
function sortFused(fused: Map<number, number>, lists: readonly WeightedList[]): Ranked[] {
  const bestRank = new Map<number, number>()
  for (const list of lists) {
    list.hits.forEach((hit, rank) => {
      if (rank < (bestRank.get(hit.id) ?? Infinity)) bestRank.set(hit.id, rank)
    })
  }
  return [...fused]
    .map(([id, score]) => ({ id, score }))
    .sort((a, b) => b.score - a.score || bestRank.get(a.id)! - bestRank.get(b.id)! || a.id - b.id)
}
