import type { CitableChunk } from './citations'

/** One hit of a keyword search over the published articles, as the knowledge index returns it. */
export interface SearchHit {
  chunkId: number
  articleId: number
  title: string
  text: string
  metadata: Record<string, unknown>
  score: number
}

/** What a keyword retriever needs from the knowledge index (KnowledgeService has it). */
export interface KeywordSearch {
  search(query: string, limit: number): Promise<SearchHit[]>
  /** How informative a stem is in the corpus (its idf); 0 for a stem no passage has. */
  termWeight(stem: string): number
}

export interface RetrievalOptions {
  /** How many passages at most (Bot settings' num_sources_k, or an agent's widened limit). */
  limit: number
  /** Passages scoring below it are not evidence (Bot settings' score_threshold). */
  scoreThreshold: number
}

/**
 * Finds the passages a question is answered from, best first. The one place where the number of sources and
 * the score threshold are applied: the ask path and the agents' knowledge_search tool both come through here.
 */
export interface Retriever {
  readonly name: string
  retrieve(query: string, options: RetrievalOptions): Promise<CitableChunk[]>
  /** The corpus weight of a stem (see KeywordSearch.termWeight): composers judge coverage and support with it. */
  termWeight(stem: string): number
}

export const toCitableChunk = (hit: SearchHit): CitableChunk => ({
  chunkId: hit.chunkId,
  articleId: hit.articleId,
  title: hit.title,
  text: hit.text,
  source: typeof hit.metadata.source === 'string' ? hit.metadata.source : hit.title,
  score: Number(hit.score.toFixed(4)),
})

/** BM25 over the published articles: the first, and today the only, retriever. */
export class KeywordRetriever implements Retriever {
  readonly name = 'keyword'

  constructor(private readonly index: KeywordSearch) {}

  async retrieve(query: string, { limit, scoreThreshold }: RetrievalOptions): Promise<CitableChunk[]> {
    const count = Math.max(0, Math.floor(limit))
    if (count === 0) return []
    const hits = await this.index.search(query, count)
    return hits.filter((hit) => hit.score >= scoreThreshold).map(toCitableChunk)
  }

  termWeight = (stem: string): number => this.index.termWeight(stem)
}
