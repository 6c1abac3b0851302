import type { SearchHit } from '../answering/retriever'
import type { Database } from '../db/database'
import type { EmbeddingsProvider } from '../llm/provider'
import { toFloat32 } from '../retrieval/vector-math'
import type { VectorStore } from './vector-store'
import { vectorsRepository as repository } from './vectors.repository'

/** Questions whose vectors are kept: an agent asks the same sub-question of several sections. */
const QUERY_CACHE_SIZE = 256

/** Searches the chunk vectors with a question's vector, made by the same model that embedded the chunks. */
export class VectorSearch {
  private readonly queryVectors = new Map<string, Float32Array>()

  constructor(
    private readonly db: Database,
    private readonly store: VectorStore,
    private readonly provider: EmbeddingsProvider,
  ) {}

  get model(): string {
    return this.store.model
  }

  /** The question's vector (kept for the last few hundred questions). */
  async embedQuery(query: string, signal?: AbortSignal): Promise<Float32Array> {
    const key = query.trim()
    const cached = this.queryVectors.get(key)
    if (cached) {
      // Most recently used last.
      this.queryVectors.delete(key)
      this.queryVectors.set(key, cached)
      return cached
    }
    const [vector] = await this.provider.embed([key], signal)
    const stored = toFloat32(vector)
    this.queryVectors.set(key, stored)
    if (this.queryVectors.size > QUERY_CACHE_SIZE) this.queryVectors.delete(this.queryVectors.keys().next().value!)
    return stored
  }

  /** The `limit` passages nearest to the question, best first, scored by cosine similarity. */
  async search(query: string, limit: number, signal?: AbortSignal): Promise<SearchHit[]> {
    const count = Math.max(0, Math.floor(limit))
    if (count === 0 || query.trim() === '') return []
    const matches = await this.store.search(await this.embedQuery(query, signal), count)
    const records = new Map((await repository.chunkRecords(this.db, matches.map((match) => match.id))).map((record) => [record.chunkId, record]))
    return matches.flatMap((match) => {
      const record = records.get(match.id)
      // A chunk deleted since the search: left out.
      return record ? [{ ...record, score: match.score }] : []
    })
  }

  vectorsOf(chunkIds: number[]): Promise<Map<number, Float32Array>> {
    return this.store.vectorsOf(chunkIds)
  }
}
