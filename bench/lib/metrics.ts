/** Graded relevance of documents for one query: document id → grade (> 0 is relevant). */
export type Judgements = ReadonlyMap<string, number>

/**
 * nDCG@k with linear gain (grade / log2(rank + 1)), as trec_eval's ndcg_cut and BEIR compute it.
 * The ideal ranking orders every judged relevant document by grade, not only the retrieved ones.
 */
export function computeNdcg(ranking: readonly string[], judgements: Judgements, k: number): number {
  let dcg = 0
  ranking.slice(0, k).forEach((documentId, position) => {
    const grade = judgements.get(documentId) ?? 0
    if (grade > 0) dcg += grade / Math.log2(position + 2)
  })
  const ideal = [...judgements.values()].filter((grade) => grade > 0).sort((a, b) => b - a)
  let idealDcg = 0
  ideal.slice(0, k).forEach((grade, position) => {
    idealDcg += grade / Math.log2(position + 2)
  })
  return idealDcg === 0 ? 0 : dcg / idealDcg
}

/** Share of the relevant documents found in the first k. */
export function computeRecall(ranking: readonly string[], judgements: Judgements, k: number): number {
  const relevant = [...judgements].filter(([, grade]) => grade > 0).map(([documentId]) => documentId)
  if (relevant.length === 0) return 0
  const top = new Set(ranking.slice(0, k))
  return relevant.filter((documentId) => top.has(documentId)).length / relevant.length
}

/** Reciprocal rank of the first relevant document within the first k, 0 when there is none. */
export function computeReciprocalRank(ranking: readonly string[], judgements: Judgements, k: number): number {
  const position = ranking.slice(0, k).findIndex((documentId) => (judgements.get(documentId) ?? 0) > 0)
  return position === -1 ? 0 : 1 / (position + 1)
}

export interface RetrievalScores {
  ndcgAt10: number
  recallAt100: number
  mrrAt10: number
  /** Queries scored (those with at least one relevant document). */
  queryCount: number
}

/** Means of nDCG@10, Recall@100 and MRR@10 over every judged query; a query with no ranking scores 0. */
export function scoreRun(rankings: ReadonlyMap<string, readonly string[]>, qrels: ReadonlyMap<string, Judgements>): RetrievalScores {
  let ndcg = 0
  let recall = 0
  let reciprocalRank = 0
  let queryCount = 0
  for (const [queryId, judgements] of qrels) {
    if (![...judgements.values()].some((grade) => grade > 0)) continue
    const ranking = rankings.get(queryId) ?? []
    ndcg += computeNdcg(ranking, judgements, 10)
    recall += computeRecall(ranking, judgements, 100)
    reciprocalRank += computeReciprocalRank(ranking, judgements, 10)
    queryCount += 1
  }
  const mean = (sum: number) => (queryCount === 0 ? 0 : sum / queryCount)
  return { ndcgAt10: mean(ndcg), recallAt100: mean(recall), mrrAt10: mean(reciprocalRank), queryCount }
}
