import type { Queryable } from '../../db/database'
import type { IndexedChunk } from '../../retrieval/bm25-index'

export interface ChunkRecord {
  chunkId: number
  articleId: number
  text: string
  title: string
  metadata: Record<string, unknown>
}

interface ChunkTermsRow {
  id: number
  article_id: number
  terms: Record<string, number>
  length: number
}

const toIndexed = (row: ChunkTermsRow): IndexedChunk => ({ chunkId: row.id, articleId: row.article_id, terms: row.terms, length: row.length })

/** SQL for the persisted index: chunks with their term frequencies and the change log every process replays. */
export const knowledgeRepository = {
  async insertChunk(tx: Queryable, chunk: { articleId: number; ordinal: number; text: string; terms: Record<string, number>; length: number }) {
    const [row] = await tx.query<{ id: number }>(
      `INSERT INTO chunks (article_id, ordinal, text, terms, length) VALUES ($1, $2, $3, $4::jsonb, $5) RETURNING id`,
      [chunk.articleId, chunk.ordinal, chunk.text, JSON.stringify(chunk.terms), chunk.length],
    )
    await tx.query(`INSERT INTO index_changes (chunk_id, operation) VALUES ($1, 'add')`, [row.id])
    return row.id
  },

  async deleteChunksOf(tx: Queryable, articleId: number) {
    await tx.query(
      `INSERT INTO index_changes (chunk_id, operation) SELECT id, 'remove' FROM chunks WHERE article_id = $1 ORDER BY id`,
      [articleId],
    )
    await tx.query(`DELETE FROM chunks WHERE article_id = $1`, [articleId])
  },

  async latestChangeSeq(db: Queryable): Promise<number> {
    const [row] = await db.query<{ seq: string | number }>(`SELECT COALESCE(MAX(seq), 0) AS seq FROM index_changes`)
    return Number(row.seq)
  },

  async allIndexedChunks(db: Queryable): Promise<IndexedChunk[]> {
    const rows = await db.query<ChunkTermsRow>(`SELECT id, article_id, terms, length FROM chunks ORDER BY id`)
    return rows.map(toIndexed)
  },

  async changesSince(db: Queryable, seq: number) {
    const rows = await db.query<{ seq: string | number; chunk_id: number; operation: 'add' | 'remove' }>(
      `SELECT seq, chunk_id, operation FROM index_changes WHERE seq > $1 ORDER BY seq LIMIT 10000`,
      [seq],
    )
    return rows.map((row) => ({ seq: Number(row.seq), chunkId: row.chunk_id, operation: row.operation }))
  },

  async indexedChunks(db: Queryable, chunkIds: number[]): Promise<IndexedChunk[]> {
    if (chunkIds.length === 0) return []
    const rows = await db.query<ChunkTermsRow>(`SELECT id, article_id, terms, length FROM chunks WHERE id = ANY($1::int[])`, [chunkIds])
    return rows.map(toIndexed)
  },

  async chunkRecords(db: Queryable, chunkIds: number[]): Promise<ChunkRecord[]> {
    if (chunkIds.length === 0) return []
    const rows = await db.query<{ id: number; article_id: number; text: string; title: string; metadata: Record<string, unknown> }>(
      `SELECT c.id, c.article_id, c.text, a.title, a.metadata
         FROM chunks c JOIN articles a ON a.id = c.article_id WHERE c.id = ANY($1::int[])`,
      [chunkIds],
    )
    return rows.map((row) => ({ chunkId: row.id, articleId: row.article_id, text: row.text, title: row.title, metadata: row.metadata }))
  },

  async countChunks(db: Queryable): Promise<number> {
    const [row] = await db.query<{ count: number }>(`SELECT COUNT(*)::int AS count FROM chunks`)
    return row.count
  },
}
