import type { Queryable } from '../db/database'

/** A chunk to embed: its id and the text its vector is made from. */
export interface ChunkToEmbed {
  chunkId: number
  title: string
  text: string
}

export interface ChunkVector {
  chunkId: number
  vector: ArrayLike<number>
}

/** A chunk as search results carry it. */
export interface VectorChunkRecord {
  chunkId: number
  articleId: number
  text: string
  title: string
  metadata: Record<string, unknown>
}

// Embedding writers take this lock (with the schema's hash), so additions commit in `seq` order (see ExactVectorStore).
const EMBEDDING_WRITE_LOCK = 72_531_085
// Serialises the start-time switch of the vector column between processes starting together.
const VECTOR_COLUMN_LOCK = 72_531_086
const MODEL_KEY = 'embeddings_model'

/** A literal of PostgreSQL's array syntax; numbers print exactly, and the database rounds them to single precision. */
const arrayLiteral = (vector: ArrayLike<number>) => `{${Array.from(vector, (value) => (Number.isFinite(value) ? String(value) : '0')).join(',')}}`

const quoteIdentifier = (name: string) => `"${name.replaceAll('"', '""')}"`

/** SQL for chunk vectors, the same on PGlite and a server, with pgvector's type or without it. */
export const vectorsRepository = {
  /** The type of the stored vectors: real[] (`_float4`) until pgvector is enabled, then pgvector's `vector`. */
  async columnType(db: Queryable): Promise<{ type: string; schema: string }> {
    const [row] = await db.query<{ type: string; schema: string }>(
      `SELECT t.typname AS type, n.nspname AS schema
         FROM pg_attribute a JOIN pg_type t ON t.oid = a.atttypid JOIN pg_namespace n ON n.oid = t.typnamespace
        WHERE a.attrelid = 'chunk_embeddings'::regclass AND a.attname = 'embedding'`,
    )
    return row
  },

  /** pgvector's version when the server (or PGlite build) offers it, installed or not. */
  async availablePgvector(db: Queryable): Promise<string | undefined> {
    const [row] = await db.query<{ default_version: string }>(`SELECT default_version FROM pg_available_extensions WHERE name = 'vector'`)
    return row?.default_version
  },

  /** Enables pgvector in this database (once for all its schemas); returns the schema holding its type. */
  async enablePgvector(db: Queryable): Promise<{ schema: string; version: string }> {
    await db.query('CREATE EXTENSION IF NOT EXISTS vector')
    const [row] = await db.query<{ schema: string; version: string }>(
      `SELECT n.nspname AS schema, e.extversion AS version FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'vector'`,
    )
    return row
  },

  async lockVectorColumn(tx: Queryable): Promise<void> {
    await tx.query('SELECT pg_advisory_xact_lock($1, hashtext(current_schema()))', [VECTOR_COLUMN_LOCK])
  },

  /** Stores the vectors as pgvector's type from now on (the values are kept, as single precision either way). */
  async convertToPgvector(tx: Queryable, schema: string): Promise<void> {
    const type = `${quoteIdentifier(schema)}.vector`
    await tx.query(`ALTER TABLE chunk_embeddings ALTER COLUMN embedding TYPE ${type} USING embedding::${type}`)
  },

  /** Chunks with no vector of `model` yet, oldest first, leaving out `skip` (chunks the model refused). */
  async chunksWithoutVector(db: Queryable, model: string, limit: number, skip: number[] = []): Promise<ChunkToEmbed[]> {
    const rows = await db.query<{ id: number; title: string; text: string }>(
      `SELECT c.id, a.title, c.text FROM chunks c JOIN articles a ON a.id = c.article_id
        WHERE NOT EXISTS (SELECT 1 FROM chunk_embeddings e WHERE e.chunk_id = c.id AND e.model = $1)
          AND NOT (c.id = ANY($3::int[]))
        ORDER BY c.id LIMIT $2`,
      [model, limit, skip],
    )
    return rows.map((row) => ({ chunkId: row.id, title: row.title, text: row.text }))
  },

  /** How many chunks the knowledge base has, and how many of them have a vector of `model`. */
  async counts(db: Queryable, model: string): Promise<{ chunks: number; embedded: number }> {
    const [row] = await db.query<{ chunks: number; embedded: number }>(
      `SELECT (SELECT COUNT(*) FROM chunks)::int AS chunks, (SELECT COUNT(*) FROM chunk_embeddings WHERE model = $1)::int AS embedded`,
      [model],
    )
    return row
  },

  /**
   * Stores vectors of `model` in one transaction. A chunk deleted meanwhile is skipped (its row lock is taken, so it
   * cannot go while its vector is written); a chunk that already has one keeps it. Returns how many were stored.
   */
  async save(tx: Queryable, model: string, vectors: ChunkVector[]): Promise<number> {
    if (vectors.length === 0) return 0
    await tx.query('SELECT pg_advisory_xact_lock($1, hashtext(current_schema()))', [EMBEDDING_WRITE_LOCK])
    const rows = await tx.query<{ chunk_id: number }>(
      `INSERT INTO chunk_embeddings (chunk_id, model, embedding)
       SELECT c.id, $1, u.embedding::real[]
         FROM unnest($2::int[], $3::text[]) WITH ORDINALITY AS u(chunk_id, embedding, position)
         JOIN chunks c ON c.id = u.chunk_id
        ORDER BY u.position
          FOR KEY SHARE OF c
       ON CONFLICT (chunk_id, model) DO NOTHING
       RETURNING chunk_id`,
      [model, vectors.map((entry) => entry.chunkId), vectors.map((entry) => arrayLiteral(entry.vector))],
    )
    return rows.length
  },

  /** Vectors of `model` added after `seq`, in the order they were added. */
  async vectorsAddedSince(db: Queryable, model: string, seq: number, limit: number): Promise<{ seq: number; chunkId: number; vector: number[] }[]> {
    const rows = await db.query<{ seq: string | number; chunk_id: number; embedding: number[] }>(
      `SELECT seq, chunk_id, embedding::real[] AS embedding FROM chunk_embeddings WHERE model = $1 AND seq > $2 ORDER BY seq LIMIT $3`,
      [model, seq, limit],
    )
    return rows.map((row) => ({ seq: Number(row.seq), chunkId: row.chunk_id, vector: row.embedding }))
  },

  async latestVectorSeq(db: Queryable): Promise<number> {
    const [row] = await db.query<{ seq: string | number }>(`SELECT COALESCE(MAX(seq), 0) AS seq FROM chunk_embeddings`)
    return Number(row.seq)
  },

  /** The index log's position, and the chunks it removed after `seq` (their vectors went with them). */
  async latestIndexSeq(db: Queryable): Promise<number> {
    const [row] = await db.query<{ seq: string | number }>(`SELECT COALESCE(MAX(seq), 0) AS seq FROM index_changes`)
    return Number(row.seq)
  },

  async chunksRemovedSince(db: Queryable, seq: number, limit: number): Promise<{ seq: number; chunkId: number }[]> {
    const rows = await db.query<{ seq: string | number; chunk_id: number }>(
      `SELECT seq, chunk_id FROM index_changes WHERE seq > $1 AND operation = 'remove' ORDER BY seq LIMIT $2`,
      [seq, limit],
    )
    return rows.map((row) => ({ seq: Number(row.seq), chunkId: row.chunk_id }))
  },

  async vectorsOf(db: Queryable, model: string, chunkIds: number[]): Promise<Map<number, number[]>> {
    if (chunkIds.length === 0) return new Map()
    const rows = await db.query<{ chunk_id: number; embedding: number[] }>(
      `SELECT chunk_id, embedding::real[] AS embedding FROM chunk_embeddings WHERE model = $1 AND chunk_id = ANY($2::int[])`,
      [model, chunkIds],
    )
    return new Map(rows.map((row) => [row.chunk_id, row.embedding]))
  },

  /**
   * The `limit` chunks nearest to `query` by cosine, computed by pgvector (exactly: no approximate index), best
   * first, equal distances by chunk id.
   */
  async nearestByPgvector(db: Queryable, schema: string, model: string, query: ArrayLike<number>, limit: number): Promise<{ chunkId: number; score: number }[]> {
    const qualified = quoteIdentifier(schema)
    const distance = `e.embedding OPERATOR(${qualified}.<=>) $2::real[]::${qualified}.vector`
    // Vectors of another length (a model that changed size under one name) cannot be compared: left out.
    const rows = await db.query<{ chunk_id: number; distance: number | string | null }>(
      `SELECT e.chunk_id, ${distance} AS distance FROM chunk_embeddings e
        WHERE e.model = $1 AND ${qualified}.vector_dims(e.embedding) = $4
        ORDER BY ${distance}, e.chunk_id LIMIT $3`,
      [model, arrayLiteral(query), limit, query.length],
    )
    return rows.map((row) => ({ chunkId: row.chunk_id, score: 1 - Number(row.distance) }))
  },

  async chunkRecords(db: Queryable, chunkIds: number[]): Promise<VectorChunkRecord[]> {
    if (chunkIds.length === 0) return []
    const rows = await db.query<{ id: number; article_id: number; text: string; title: string; metadata: Record<string, unknown> }>(
      `SELECT c.id, c.article_id, c.text, a.title, a.metadata FROM chunks c JOIN articles a ON a.id = c.article_id WHERE c.id = ANY($1::int[])`,
      [chunkIds],
    )
    return rows.map((row) => ({ chunkId: row.id, articleId: row.article_id, text: row.text, title: row.title, metadata: row.metadata }))
  },

  /** Drops the vectors of every model but `model` (after a change of model, once every chunk has a new vector). */
  async deleteOtherModels(db: Queryable, model: string): Promise<number> {
    const rows = await db.query<{ chunk_id: number }>(`DELETE FROM chunk_embeddings WHERE model <> $1 RETURNING chunk_id`, [model])
    return rows.length
  },

  async otherModels(db: Queryable, model: string): Promise<string[]> {
    const rows = await db.query<{ model: string }>(`SELECT DISTINCT model FROM chunk_embeddings WHERE model <> $1 ORDER BY model`, [model])
    return rows.map((row) => row.model)
  },

  /** The model every chunk was last completely embedded with. */
  async recordedModel(db: Queryable): Promise<string | undefined> {
    const [row] = await db.query<{ value: { model?: unknown } }>(`SELECT value FROM app_state WHERE key = $1`, [MODEL_KEY])
    return typeof row?.value.model === 'string' ? row.value.model : undefined
  },

  async recordModel(db: Queryable, model: string): Promise<void> {
    await db.query(`INSERT INTO app_state (key, value) VALUES ($1, $2::jsonb) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`, [
      MODEL_KEY,
      JSON.stringify({ model }),
    ])
  },
}
