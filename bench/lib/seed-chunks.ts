import type { Database } from '../../backend/src/db/database'
import type { CorpusDocument } from './beir-dataset'
import type { CorpusChunk } from './in-memory-product'

/**
 * Fills an empty database with `count` chunks grown from a corpus, in bulk: article rows, their chunks with the
 * term frequencies KnowledgeService.indexArticle stores, and the matching index_changes rows. Copy n of a
 * document gets the title "<title> (copy n)". This is the database state that publishing would leave, reached
 * in seconds instead of hours, for load tests at 100k chunks; ingestion speed itself is measured by eval/scale.
 */
export async function seedChunks(db: Database, corpus: readonly CorpusDocument[], chunks: readonly CorpusChunk[], count: number): Promise<number> {
  const [existing] = await db.query<{ count: number }>(`SELECT COUNT(*)::int AS count FROM chunks`)
  if ((existing?.count ?? 0) > 0) return 0
  const byArticle = new Map<number, CorpusChunk[]>()
  for (const chunk of chunks) byArticle.set(chunk.articleId, [...(byArticle.get(chunk.articleId) ?? []), chunk])
  let seeded = 0
  let copy = 0
  while (seeded < count) {
    for (let start = 0; start < corpus.length && seeded < count; start += 500) {
      const documents = corpus.slice(start, start + 500)
      await db.transaction(async (tx) => {
        const ids = await tx.query<{ id: number }>(
          `INSERT INTO articles (title, content, metadata) SELECT t, c, '{}'::jsonb FROM unnest($1::text[], $2::text[]) AS u(t, c) RETURNING id`,
          [documents.map((document) => (copy === 0 ? document.title : `${document.title} (copy ${copy})`)), documents.map((document) => document.text)],
        )
        const articleIds: number[] = []
        const ordinals: number[] = []
        const texts: string[] = []
        const terms: string[] = []
        const lengths: number[] = []
        documents.forEach((document, offset) => {
          for (const [ordinal, chunk] of (byArticle.get(start + offset + 1) ?? []).entries()) {
            if (seeded + articleIds.length >= count) return
            articleIds.push((ids[offset] as { id: number }).id)
            ordinals.push(ordinal)
            texts.push(chunk.text)
            terms.push(JSON.stringify(chunk.terms))
            lengths.push(chunk.length)
          }
        })
        if (articleIds.length === 0) return
        const chunkIds = await tx.query<{ id: number }>(
          `INSERT INTO chunks (article_id, ordinal, text, terms, length)
           SELECT a, o, t, j::jsonb, l FROM unnest($1::int[], $2::int[], $3::text[], $4::text[], $5::int[]) AS u(a, o, t, j, l) RETURNING id`,
          [articleIds, ordinals, texts, terms, lengths],
        )
        await tx.query(`INSERT INTO index_changes (chunk_id, operation) SELECT unnest($1::int[]), 'add'`, [chunkIds.map((row) => row.id)])
        seeded += chunkIds.length
      })
    }
    copy += 1
  }
  return seeded
}
