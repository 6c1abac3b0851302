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

export interface NewChunk {
  ordinal: number
  text: string
  terms: Record<string, number>
  length: number
}

const toIndexed = (row: ChunkTermsRow): IndexedChunk => ({ chunkId: row.id, articleId: row.article_id, terms: row.terms, length: row.length })

const INDEX_FORMAT_KEY = 'index_format'
// The first half of the index writers' lock; the second is the schema's hash (see migration 007-scale-out).
const INDEX_WRITE_LOCK = 72_531_070
// Any constant works; it only has to be the same for every process upgrading this database's index.
const INDEX_FORMAT_LOCK = 72_531_021

/** SQL for the persisted index: chunks with their term frequencies and the change log every process replays. */
export const knowledgeRepository = {
  /**
   * Stores an article's chunks in order and logs an 'add' for each, in one statement: one round trip per article
   * rather than two per chunk. Returns the new chunk ids in the order given.
   */
  async insertChunks(tx: Queryable, articleId: number, chunks: NewChunk[]): Promise<number[]> {
    if (chunks.length === 0) return []
    const rows = await tx.query<{ id: number }>(
      `WITH inserted AS (
         INSERT INTO chunks (article_id, ordinal, text, terms, length)
         SELECT $1, u.ordinal, u.text, u.terms::jsonb, u.length
           FROM unnest($2::int[], $3::text[], $4::text[], $5::int[]) WITH ORDINALITY AS u(ordinal, text, terms, length, position)
          ORDER BY u.position
         RETURNING id
       ), logged AS (
         INSERT INTO index_changes (chunk_id, operation) SELECT id, 'add' FROM inserted ORDER BY id
       )
       SELECT id FROM inserted ORDER BY id`,
      [
        articleId,
        chunks.map((chunk) => chunk.ordinal),
        chunks.map((chunk) => chunk.text),
        chunks.map((chunk) => JSON.stringify(chunk.terms)),
        chunks.map((chunk) => chunk.length),
      ],
    )
    return rows.map((row) => row.id)
  },

  /** Deletes an article's chunks and logs a 'remove' for each, in one statement. */
  async deleteChunksOf(tx: Queryable, articleId: number) {
    await tx.query(
      `WITH removed AS (DELETE FROM chunks WHERE article_id = $1 RETURNING id)
       INSERT INTO index_changes (chunk_id, operation) SELECT id, 'remove' FROM removed ORDER BY id`,
      [articleId],
    )
  },

  async latestChangeSeq(db: Queryable): Promise<number> {
    const [row] = await db.query<{ seq: string | number }>(`SELECT COALESCE(MAX(seq), 0) AS seq FROM index_changes`)
    return Number(row.seq)
  },

  async allIndexedChunks(db: Queryable): Promise<IndexedChunk[]> {
    const rows = await db.query<ChunkTermsRow>(`SELECT id, article_id, terms, length FROM chunks ORDER BY id`)
    return rows.map(toIndexed)
  },

  /** Up to `limit` chunks with an id above `afterId`, in id order: a large index is read a page at a time. */
  async indexedChunkPage(db: Queryable, afterId: number, limit: number): Promise<IndexedChunk[]> {
    const rows = await db.query<ChunkTermsRow>(`SELECT id, article_id, terms, length FROM chunks WHERE id > $1 ORDER BY id LIMIT $2`, [afterId, limit])
    return rows.map(toIndexed)
  },

  /** What the log's change `seq` was (empty for 0, undefined when the log has no such change). */
  async changeFingerprint(db: Queryable, seq: number): Promise<string | undefined> {
    if (seq === 0) return ''
    const [row] = await db.query<{ chunk_id: number; operation: string; created_at: Date | string }>(
      `SELECT chunk_id, operation, created_at FROM index_changes WHERE seq = $1`,
      [seq],
    )
    return row ? `${row.chunk_id} ${row.operation} ${new Date(row.created_at).toISOString()}` : undefined
  },

  /** Names this database and schema: the cluster's system identifier, the database and the schema. */
  async databaseIdentity(db: Queryable): Promise<string> {
    const [row] = await db.query<{ identity: string }>(
      `SELECT (SELECT system_identifier::text FROM pg_control_system()) || '/' || current_database() || '/' || current_schema() AS identity`,
    )
    return row.identity
  },

  /**
   * Makes the transaction the only index writer until it ends, so index_changes rows commit in `seq` order. The
   * trigger on index_changes takes the same lock; taking it first, before any row lock, avoids deadlocks.
   */
  async lockIndexWrites(tx: Queryable): Promise<void> {
    await tx.query('SELECT pg_advisory_xact_lock($1, hashtext(current_schema()))', [INDEX_WRITE_LOCK])
  },

  /** The channel this schema's index writers notify (see migration 007-scale-out). */
  async indexChannel(db: Queryable): Promise<string> {
    const [row] = await db.query<{ channel: string }>(`SELECT 'kb_index.' || current_schema() AS channel`)
    return row.channel
  },

  async changesSince(db: Queryable, seq: number, limit: number) {
    const rows = await db.query<{ seq: string | number; chunk_id: number; operation: 'add' | 'remove' }>(
      `SELECT seq, chunk_id, operation FROM index_changes WHERE seq > $1 ORDER BY seq LIMIT $2`,
      [seq, limit],
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

  /**
   * The index format and language recorded by the last process that checked or rebuilt the stored term frequencies
   * (a format recorded before languages were: English).
   */
  async recordedIndexFormat(db: Queryable): Promise<{ version: number; language: string } | undefined> {
    const [row] = await db.query<{ value: { version?: unknown; language?: unknown } }>(`SELECT value FROM app_state WHERE key = $1`, [INDEX_FORMAT_KEY])
    if (typeof row?.value.version !== 'number') return undefined
    return { version: row.value.version, language: typeof row.value.language === 'string' ? row.value.language : 'en' }
  },

  async recordIndexFormat(tx: Queryable, version: number, language: string): Promise<void> {
    await tx.query(`INSERT INTO app_state (key, value) VALUES ($1, $2::jsonb) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`, [
      INDEX_FORMAT_KEY,
      JSON.stringify({ version, language }),
    ])
  },

  /** Serialises index upgrades between processes starting at once, until the transaction ends. */
  async lockIndexFormat(tx: Queryable): Promise<void> {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [INDEX_FORMAT_LOCK])
  },

  /** The first `limit` stored chunks with their article's title, to check that their terms match the current tokenizer. */
  async sampleChunks(db: Queryable, limit: number): Promise<(IndexedChunk & { text: string; title: string })[]> {
    const rows = await db.query<ChunkTermsRow & { text: string; title: string }>(
      `SELECT c.id, c.article_id, c.terms, c.length, c.text, a.title FROM chunks c JOIN articles a ON a.id = c.article_id ORDER BY c.id LIMIT $1`,
      [limit],
    )
    return rows.map((row) => ({ ...toIndexed(row), text: row.text, title: row.title }))
  },

  async allArticles(db: Queryable): Promise<{ id: number; title: string; content: string }[]> {
    return db.query<{ id: number; title: string; content: string }>(`SELECT id, title, content FROM articles ORDER BY id`)
  },

  async countChunks(db: Queryable): Promise<number> {
    const [row] = await db.query<{ count: number }>(`SELECT COUNT(*)::int AS count FROM chunks`)
    return row.count
  },
}
