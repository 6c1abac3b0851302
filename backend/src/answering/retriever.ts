import type { CitableChunk } from './citations'
import { sourceOf } from '../ingest/source-of'

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
  /** The indexed stem an unknown one misspells, as the search reads it; undefined when none. */
  correctTerm?(stem: string): string | undefined
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
  /** See KeywordSearch.correctTerm. */
  correctTerm?(stem: string): string | undefined
}

export const toCitableChunk = (hit: SearchHit): CitableChunk => ({
  chunkId: hit.chunkId,
  articleId: hit.articleId,
  title: hit.title,
  text: hit.text,
  source: typeof hit.metadata.source === 'string' ? hit.metadata.source : hit.title,
  score: Number(hit.score.toFixed(4)),
  kind: sourceOf(hit.metadata).kind,
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

  correctTerm = (stem: string): string | undefined => this.index.correctTerm?.(stem)
}

/** How much an earlier question of the conversation counts, beside the follow-up's own words (which count 1). */
export const CONTEXT_WEIGHT = 0.5
/** How many earlier questions a follow-up is read with (the latest ones). */
export const CONTEXT_QUESTIONS = 2

/**
 * Retrieves for a follow-up: "and how long does it take?" means little alone, so the earlier questions' words help,
 * weighted lower than the follow-up's own. Each passage's score is its score for the follow-up alone plus
 * CONTEXT_WEIGHT times what the earlier questions add to it (the follow-up with them, less without them); then
 * score_threshold and the limit apply as usual. Without earlier questions it is the plain retrieval.
 */
export async function retrieveInConversation(
  retriever: Retriever,
  question: string,
  earlierQuestions: string[],
  { limit, scoreThreshold }: RetrievalOptions,
): Promise<CitableChunk[]> {
  const context = earlierQuestions.slice(-CONTEXT_QUESTIONS).join('\n').trim()
  if (!context) return retriever.retrieve(question, { limit, scoreThreshold })
  const count = Math.max(0, Math.floor(limit))
  if (count === 0) return []
  // Wider than the limit on both sides, so a passage ranked just outside one list is still scored from both.
  const wide = { limit: count * 3 + 10, scoreThreshold: Number.NEGATIVE_INFINITY }
  const [own, combined] = await Promise.all([retriever.retrieve(question, wide), retriever.retrieve(`${question}\n${context}`, wide)])
  const ownScore = new Map(own.map((chunk) => [chunk.chunkId, chunk.score]))
  const combinedScore = new Map(combined.map((chunk) => [chunk.chunkId, chunk.score]))
  const chunks = new Map<number, CitableChunk>()
  for (const chunk of [...own, ...combined]) if (!chunks.has(chunk.chunkId)) chunks.set(chunk.chunkId, chunk)
  return [...chunks.values()]
    .map((chunk) => {
      const alone = ownScore.get(chunk.chunkId) ?? 0
      const withContext = combinedScore.get(chunk.chunkId) ?? alone
      return { ...chunk, score: Number((alone + CONTEXT_WEIGHT * Math.max(0, withContext - alone)).toFixed(4)) }
    })
    .filter((chunk) => chunk.score >= scoreThreshold)
    .sort((a, b) => b.score - a.score || a.chunkId - b.chunkId)
    .slice(0, count)
}
