import { Bm25Index, countChunkTerms, knowledgeBaseBm25Parameters, TITLE_WEIGHT, type Bm25Parameters, type QueryExpansionOptions } from '../../backend/src/retrieval/bm25-index'
import { chunkArticle } from '../../backend/src/retrieval/chunker'
import { parseQuery, type QueryParsingOptions } from '../../backend/src/retrieval/query'
import type { IndexedChunk } from '../../backend/src/retrieval/bm25-index'
import type { CorpusDocument } from './beir-dataset'

/**
 * The chunks KnowledgeService.indexArticle would store for each document (same chunker, same title + chunk
 * tokenization), without a database: for tuning sweeps and the scale benchmark, where thousands of runs or
 * millions of chunks through PGlite would take too long. chunkId and articleId are 1-based positions.
 */
export interface CorpusChunk extends IndexedChunk {
  text: string
}

/** `titleWeight` other than the product's is for tuning sweeps. */
export function chunkCorpusLikeIndexArticle(corpus: readonly CorpusDocument[], titleWeight = TITLE_WEIGHT): CorpusChunk[] {
  const chunks: CorpusChunk[] = []
  corpus.forEach((document, position) => {
    for (const draft of chunkArticle(document.text)) {
      const { terms, length } = countChunkTerms(draft.text, document.title, titleWeight)
      if (length === 0) continue
      chunks.push({ chunkId: chunks.length + 1, articleId: position + 1, terms, length, text: draft.text })
    }
  })
  return chunks
}

export function buildIndex(chunks: readonly IndexedChunk[], parameters: Bm25Parameters = knowledgeBaseBm25Parameters, expansion?: QueryExpansionOptions | false): Bm25Index {
  const index = new Bm25Index(parameters, expansion)
  for (const chunk of chunks) index.add(chunk)
  return index
}

/** Document ids for a query, an article ranking where its best chunk ranks (as the eval does with KnowledgeService). */
export function searchDocuments(index: Bm25Index, corpus: readonly CorpusDocument[], query: string, limit: number, parsing?: QueryParsingOptions): string[] {
  const ranking: string[] = []
  const seen = new Set<number>()
  for (const hit of index.search(parseQuery(query, { correctTerm: (term) => index.correction(term), ...parsing }), limit * 4)) {
    if (seen.has(hit.articleId)) continue
    seen.add(hit.articleId)
    ranking.push((corpus[hit.articleId - 1] as CorpusDocument).id)
    if (ranking.length >= limit) break
  }
  return ranking
}
