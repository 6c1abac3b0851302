import type { CitableChunk } from '../answering/citations'
import { toCitableChunk, type KeywordSearch, type RetrievalOptions, type Retriever, type SearchHit } from '../answering/retriever'
import { fuse, type FusionMethod } from '../retrieval/fusion'
import { maximalMarginalRelevance } from '../retrieval/mmr'

export type SearchType = 'keyword' | 'vector' | 'hybrid' | 'mmr'

/** The Bot settings that choose how passages are found. */
export interface RetrievalSettings {
  search_type: SearchType
  hybrid_fusion: FusionMethod
  hybrid_keyword_weight: number
  hybrid_vector_weight: number
  mmr_lambda: number
}

/** What the retriever needs of the vector side (VectorSearch has it). */
export interface VectorSearchLike {
  search(query: string, limit: number): Promise<SearchHit[]>
  vectorsOf(chunkIds: number[]): Promise<Map<number, ArrayLike<number>>>
}

export interface SearchRetrieverOptions {
  keyword: KeywordSearch
  /** Absent without an embeddings model: every search type is then keyword search. */
  vectors?: VectorSearchLike
  /** Read at every question, so a change in Settings applies to the next one. */
  settings: () => Promise<RetrievalSettings>
  /** Told when the vector side fails and a question is answered from keyword search alone. */
  onVectorFailure?: (error: unknown) => void
}

/**
 * How many passages each list offers to fusion and MMR. Fixed (unless more are asked for), so a passage's fused
 * score, which min-max normalisation makes depend on the lists, does not change with num_sources_k.
 */
export const CANDIDATE_DEPTH = 50
export const candidateDepth = (limit: number) => Math.max(CANDIDATE_DEPTH, limit)

/**
 * Finds passages as Bot settings' search_type says (ADR 086):
 * - keyword: BM25 (score: BM25);
 * - vector: cosine similarity of the question's vector and each passage's (score: the cosine);
 * - hybrid: both lists fused, by min-max normalised scores weighted by hybrid_keyword_weight/hybrid_vector_weight,
 *   or with hybrid_fusion = rrf by weighted reciprocal rank (score in [0, 1] either way);
 * - mmr: the hybrid candidates re-picked by maximal marginal relevance with mmr_lambda over the passages' vectors
 *   (score: each passage's hybrid score).
 * Each applies score_threshold to its score, then keeps at most num_sources_k passages. A question the vector side
 * cannot serve (the endpoint is down) is answered from keyword search, and onVectorFailure is told.
 */
export class SearchRetriever implements Retriever {
  readonly name = 'search'

  constructor(private readonly options: SearchRetrieverOptions) {}

  get hasVectors(): boolean {
    return this.options.vectors !== undefined
  }

  async retrieve(query: string, options: RetrievalOptions): Promise<CitableChunk[]> {
    return (await this.search(query, options, await this.options.settings())).map(toCitableChunk)
  }

  termWeight = (stem: string): number => this.options.keyword.termWeight(stem)

  correctTerm = (stem: string): string | undefined => this.options.keyword.correctTerm?.(stem)

  /** The passages for a question with the given settings, best first. */
  async search(query: string, { limit, scoreThreshold }: RetrievalOptions, settings: RetrievalSettings): Promise<SearchHit[]> {
    const count = Math.max(0, Math.floor(limit))
    if (count === 0) return []
    const type = this.options.vectors ? settings.search_type : 'keyword'
    const keep = (hits: SearchHit[]) => hits.filter((hit) => hit.score >= scoreThreshold).slice(0, count)
    if (type === 'keyword') return keep(await this.options.keyword.search(query, count))
    if (type === 'vector') {
      const hits = await this.vectorHits(query, count)
      return hits ? keep(hits) : keep(await this.options.keyword.search(query, count))
    }
    const fused = (await this.fused(query, candidateDepth(count), settings)).filter((hit) => hit.score >= scoreThreshold)
    if (type === 'hybrid') return fused.slice(0, count)
    const vectors = await this.vectorsOf(fused.map((hit) => hit.chunkId))
    const picked = maximalMarginalRelevance(
      fused.map((hit) => ({ id: hit.chunkId, score: hit.score })),
      (id) => vectors.get(id),
      settings.mmr_lambda,
      count,
    )
    const byId = new Map(fused.map((hit) => [hit.chunkId, hit]))
    return picked.map((entry) => byId.get(entry.id)!)
  }

  /** Keyword and vector candidates fused, best first, each with its fused score. */
  private async fused(query: string, depth: number, settings: RetrievalSettings): Promise<SearchHit[]> {
    const [keyword, vector] = await Promise.all([this.options.keyword.search(query, depth), this.vectorHits(query, depth)])
    const records = new Map<number, SearchHit>()
    for (const hit of [...keyword, ...(vector ?? [])]) if (!records.has(hit.chunkId)) records.set(hit.chunkId, hit)
    const ranked = (hits: SearchHit[]) => hits.map((hit) => ({ id: hit.chunkId, score: hit.score }))
    const fused = fuse(settings.hybrid_fusion, [
      { hits: ranked(keyword), weight: settings.hybrid_keyword_weight },
      { hits: ranked(vector ?? []), weight: settings.hybrid_vector_weight },
    ])
    return fused.map((entry) => ({ ...records.get(entry.id)!, score: entry.score }))
  }

  /** The vector list, or undefined when the vector side failed (reported, and keyword search answers alone). */
  private async vectorHits(query: string, limit: number): Promise<SearchHit[] | undefined> {
    try {
      return await this.options.vectors!.search(query, limit)
    } catch (error) {
      this.options.onVectorFailure?.(error)
      return undefined
    }
  }

  private async vectorsOf(chunkIds: number[]): Promise<Map<number, ArrayLike<number>>> {
    try {
      return await this.options.vectors!.vectorsOf(chunkIds)
    } catch (error) {
      this.options.onVectorFailure?.(error)
      return new Map()
    }
  }
}
