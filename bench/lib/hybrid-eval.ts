/**
 * The product's vector, hybrid and MMR search, measured like its keyword search when an embeddings endpoint is
 * given (the backend's own variables: EMBEDDINGS_BASE_URL, EMBEDDINGS_MODEL, EMBEDDINGS_API_KEY):
 *
 *   EMBEDDINGS_BASE_URL=http://127.0.0.1:11434/v1 EMBEDDINGS_MODEL=nomic-embed-text npm run eval -- --dataset …
 *
 * Every chunk of the evaluation's knowledge base is embedded as an embedding pass does (same input text, same
 * table), then searched through SearchRetriever with each search type. Without the variables there are no engines.
 */
import { OpenAiCompatibleEmbeddings } from '../../backend/src/llm/openai-compatible'
import type { EmbeddingsProvider } from '../../backend/src/llm/provider'
import { embeddingInput } from '../../backend/src/vectors/embedding-passes'
import { SearchRetriever, type RetrievalSettings } from '../../backend/src/vectors/search-retriever'
import { VectorSearch } from '../../backend/src/vectors/vector-search'
import { openVectorStore } from '../../backend/src/vectors/vector-store'
import { vectorsRepository } from '../../backend/src/vectors/vectors.repository'
import type { SearchEngine } from './peer-engines'
import type { ProductKnowledgeBase } from './product-engine'

export interface HybridEvalConfig {
  baseUrl: string
  model: string
  apiKey?: string
}

/** The endpoint from the environment, or undefined when none is given (the hybrid path is then not run). */
export function hybridEvalConfig(environment: Record<string, string | undefined>): HybridEvalConfig | undefined {
  const baseUrl = environment.EMBEDDINGS_BASE_URL
  const model = environment.EMBEDDINGS_MODEL
  if (!baseUrl || !model) return undefined
  return { baseUrl, model, apiKey: environment.EMBEDDINGS_API_KEY }
}

/** The search types measured, with the Bot settings' defaults for fusion and MMR. */
const VARIANTS: { label: string; settings: RetrievalSettings }[] = [
  { label: 'vector', settings: { search_type: 'vector', hybrid_fusion: 'weighted', hybrid_keyword_weight: 0.5, hybrid_vector_weight: 0.5, mmr_lambda: 0.7 } },
  { label: 'hybrid weighted 0.5/0.5', settings: { search_type: 'hybrid', hybrid_fusion: 'weighted', hybrid_keyword_weight: 0.5, hybrid_vector_weight: 0.5, mmr_lambda: 0.7 } },
  { label: 'hybrid rrf', settings: { search_type: 'hybrid', hybrid_fusion: 'rrf', hybrid_keyword_weight: 0.5, hybrid_vector_weight: 0.5, mmr_lambda: 0.7 } },
  { label: 'mmr λ 0.7', settings: { search_type: 'mmr', hybrid_fusion: 'weighted', hybrid_keyword_weight: 0.5, hybrid_vector_weight: 0.5, mmr_lambda: 0.7 } },
]

/** Chunks fetched per wanted document, as the keyword engine does. */
const CHUNKS_PER_DOCUMENT = 4
const EMBED_ROUND = 256

/** Embeds every chunk of the knowledge base with the endpoint's model; returns the seconds it took. */
export async function embedKnowledgeBase(base: ProductKnowledgeBase, provider: EmbeddingsProvider, log: (line: string) => void = () => undefined): Promise<number> {
  const started = performance.now()
  let done = 0
  for (;;) {
    const chunks = await vectorsRepository.chunksWithoutVector(base.db, provider.model, EMBED_ROUND)
    if (chunks.length === 0) break
    const vectors = await provider.embed(chunks.map(embeddingInput))
    await base.db.transaction((tx) => vectorsRepository.save(tx, provider.model, chunks.map((chunk, index) => ({ chunkId: chunk.chunkId, vector: vectors[index] }))))
    done += chunks.length
    if (done % 2048 < EMBED_ROUND) log(`  ${done} chunks embedded`)
  }
  return (performance.now() - started) / 1000
}

/**
 * One engine per search type over the evaluation's knowledge base, and the seconds spent embedding it (counted as
 * each engine's indexing time). `[]` without a configuration.
 */
export async function createHybridEngines(
  base: ProductKnowledgeBase,
  config: HybridEvalConfig | undefined,
  log: (line: string) => void = () => undefined,
): Promise<{ engine: SearchEngine; seconds: number }[]> {
  if (!config) return []
  const provider = new OpenAiCompatibleEmbeddings({ baseUrl: config.baseUrl, apiKey: config.apiKey, model: config.model })
  log(`embedding every chunk with ${config.model} at ${config.baseUrl} …`)
  const seconds = await embedKnowledgeBase(base, provider, log)
  const store = await openVectorStore(base.db, { model: config.model })
  await store.load()
  log(`  ${store.description}`)
  const vectors = new VectorSearch(base.db, store, provider)
  return VARIANTS.map(({ label, settings }) => {
    const retriever = new SearchRetriever({ keyword: base.knowledge, vectors, settings: async () => settings })
    const engine: SearchEngine = {
      name: `knowledge-base ${label} (${config.model})`,
      configuration: `this product: SearchRetriever, search_type ${settings.search_type}${settings.search_type === 'keyword' || settings.search_type === 'vector' ? '' : `, fusion ${settings.hybrid_fusion}`}${settings.search_type === 'mmr' ? `, λ ${settings.mmr_lambda}` : ''}; ${store.description}; question vectors cached after their first use, so the timing excludes the endpoint`,
      async index() {
        // Embedded above, once for every variant.
      },
      async search(query, limit) {
        const hits = await retriever.search(query, { limit: limit * CHUNKS_PER_DOCUMENT, scoreThreshold: 0 }, settings)
        const ranking: string[] = []
        const seen = new Set<number>()
        for (const hit of hits) {
          if (seen.has(hit.articleId)) continue
          seen.add(hit.articleId)
          ranking.push(base.documentIdOf.get(hit.articleId) ?? String(hit.articleId))
          if (ranking.length >= limit) break
        }
        return ranking
      },
    }
    return { engine, seconds }
  })
}
