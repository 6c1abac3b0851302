import { openDatabase, type Database } from '../../backend/src/db/database'
import { migrate } from '../../backend/src/db/migrate'
import { articlesRepository } from '../../backend/src/modules/articles/articles.repository'
import { knowledgeRepository } from '../../backend/src/modules/knowledge/knowledge.repository'
import { KnowledgeService } from '../../backend/src/modules/knowledge/knowledge.service'
import { Bm25Index, knowledgeBaseBm25Parameters } from '../../backend/src/retrieval/bm25-index'
import { parseQuery } from '../../backend/src/retrieval/query'
import type { CorpusDocument } from './beir-dataset'
import type { SearchEngine } from './peer-engines'

export interface IngestionFigures {
  documents: number
  chunks: number
  seconds: number
  chunksPerSecond: number
}

/** The product's knowledge base on an in-memory PGlite database with the real migrations. */
export interface ProductKnowledgeBase {
  db: Database
  knowledge: KnowledgeService
  /** BEIR document id of each article id. */
  documentIdOf: Map<number, string>
  ingestion: IngestionFigures
  close(): Promise<void>
}

/**
 * Publishes every document as an article the way publishing does: one transaction per article that inserts
 * the article row and calls KnowledgeService.indexArticle (chunking, term frequencies, index change log).
 */
export async function ingestIntoProduct(
  corpus: readonly CorpusDocument[],
  options: { databaseUrl?: string; onProgress?: (done: number) => void } = {},
): Promise<ProductKnowledgeBase> {
  const db = await openDatabase({ url: options.databaseUrl ?? 'memory://', dataDir: '' })
  await migrate(db)
  const knowledge = new KnowledgeService(db)
  const documentIdOf = new Map<number, string>()
  let chunks = 0
  const started = performance.now()
  for (const [position, document] of corpus.entries()) {
    chunks += await db.transaction(async (tx) => {
      const articleId = await articlesRepository.insertArticle(tx, { title: document.title, content: document.text, metadata: { source: document.id } })
      documentIdOf.set(articleId, document.id)
      return knowledge.indexArticle(tx, { id: articleId, title: document.title, content: document.text })
    })
    if ((position + 1) % 1000 === 0) options.onProgress?.(position + 1)
  }
  const seconds = (performance.now() - started) / 1000
  // What a starting backend does: rebuild the in-memory index from the chunks table, then follow its change log
  // (as buildBackend does with INDEX_SYNC_MS, 5 s by default), so that a search reads the log only when it changed.
  await knowledge.load()
  await knowledge.follow(5000)
  return {
    db,
    knowledge,
    documentIdOf,
    ingestion: { documents: corpus.length, chunks, seconds, chunksPerSecond: chunks / seconds },
    close: async () => {
      await knowledge.unfollow()
      await db.close()
    },
  }
}

/** Distinct article ids in rank order; an article ranks where its best chunk ranks. */
function rankArticles(articleIds: Iterable<number>, documentIdOf: Map<number, string>, limit: number): string[] {
  const ranking: string[] = []
  const seen = new Set<number>()
  for (const articleId of articleIds) {
    if (seen.has(articleId)) continue
    seen.add(articleId)
    ranking.push(documentIdOf.get(articleId) ?? String(articleId))
    if (ranking.length >= limit) break
  }
  return ranking
}

/** Chunks fetched per wanted document: SciFact articles have 1.6 chunks on average, so 4 is ample for 100 documents. */
const CHUNKS_PER_DOCUMENT = 4

/** KnowledgeService.search end to end, as the backend runs it: following the log, BM25, and the chunk records (kept or read from the database). */
export function createProductEngine(base: ProductKnowledgeBase): SearchEngine {
  return {
    name: 'knowledge-base (KnowledgeService.search, end to end)',
    configuration: 'this product: KnowledgeService.indexArticle into PGlite, KnowledgeService.search (following the log + BM25 + chunk records kept or read from the database)',
    async index() {
      // Indexed by ingestIntoProduct, through the publishing path.
    },
    async search(query, limit) {
      const hits = await base.knowledge.search(query, limit * CHUNKS_PER_DOCUMENT)
      return rankArticles(
        hits.map((hit) => hit.articleId),
        base.documentIdOf,
        limit,
      )
    },
  }
}

/** The same BM25 index in memory, rebuilt from the persisted chunks as KnowledgeService.load() does, without the database round trip. */
export async function createProductIndexEngine(base: ProductKnowledgeBase): Promise<SearchEngine> {
  const index = new Bm25Index(knowledgeBaseBm25Parameters)
  for (const chunk of await knowledgeRepository.allIndexedChunks(base.db)) index.add(chunk)
  return {
    name: 'knowledge-base (Bm25Index in memory)',
    configuration: 'this product: the Bm25Index rebuilt from the chunks table; parseQuery + Bm25Index.search only',
    async index() {},
    async search(query, limit) {
      return rankArticles(
        index.search(parseQuery(query, { correctTerm: (term) => index.correction(term) }), limit * CHUNKS_PER_DOCUMENT).map((hit) => hit.articleId),
        base.documentIdOf,
        limit,
      )
    },
  }
}
