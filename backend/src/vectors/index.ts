import { EMBEDDINGS_OFF, type EmbeddingsProgress } from '../../../contracts/embeddings'
import type { KeywordSearch } from '../answering/retriever'
import type { Database } from '../db/database'
import type { JobQueue } from '../jobs/job-queue'
import type { EmbeddingsProvider } from '../llm/provider'
import { EmbeddingPasses, type EmbeddingPassesOptions } from './embedding-passes'
import { SearchRetriever, type RetrievalSettings } from './search-retriever'
import { VectorSearch } from './vector-search'
import { openVectorStore, type VectorStore } from './vector-store'

export { EMBED_JOB, EmbeddingPasses, embeddingInput } from './embedding-passes'
export { candidateDepth, SearchRetriever, type RetrievalSettings, type SearchType } from './search-retriever'
export { VectorSearch } from './vector-search'
export { openVectorStore, type VectorStore, type VectorStoreKind } from './vector-store'

/** The knowledge base's vectors: where they are kept, how they are searched, and the passes that fill them. */
export interface Vectors {
  readonly store: VectorStore
  readonly search: VectorSearch
  readonly passes: EmbeddingPasses
  /** Loads the store and starts following the index (queues a pass when chunks lack a vector). */
  start(): Promise<void>
  stop(): Promise<void>
}

export interface VectorsOptions extends EmbeddingPassesOptions {
  /** false: search in process even where pgvector is offered. */
  allowPgvector?: boolean
}

/** Opens the vectors of the configured embeddings model; registers the embedding job, so call before the worker starts. */
export async function openVectors(db: Database, jobs: JobQueue, provider: EmbeddingsProvider, options: VectorsOptions = {}): Promise<Vectors> {
  const store = await openVectorStore(db, { model: provider.model, allowPgvector: options.allowPgvector })
  const passes = new EmbeddingPasses(db, jobs, provider, options)
  const search = new VectorSearch(db, store, provider)
  return {
    store,
    search,
    passes,
    async start() {
      await store.load()
      await passes.start()
    },
    stop: () => passes.stop(),
  }
}

/** check_embeddings' report on vectors; `off` without an embeddings model. */
export const embeddingsProgress = (vectors: Vectors | undefined): Promise<EmbeddingsProgress> =>
  vectors ? vectors.passes.progress() : Promise.resolve(EMBEDDINGS_OFF)

/** The retriever of the ask path and the agents: search_type from Bot settings, vectors when configured. */
export function createSearchRetriever(options: {
  keyword: KeywordSearch
  vectors: Vectors | undefined
  settings: () => Promise<RetrievalSettings>
  onVectorFailure?: (error: unknown) => void
}): SearchRetriever {
  return new SearchRetriever({ keyword: options.keyword, vectors: options.vectors?.search, settings: options.settings, onVectorFailure: options.onVectorFailure })
}
