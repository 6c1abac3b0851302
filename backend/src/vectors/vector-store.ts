import { setImmediate as nextTurn } from 'node:timers/promises'
import type { Database } from '../db/database'
import { toFloat32, VectorMatrix, type VectorMatch } from '../retrieval/vector-math'
import { vectorsRepository as repository } from './vectors.repository'

export type VectorStoreKind = 'pgvector' | 'exact'

/**
 * Where the chunk vectors of one embedding model are searched (ADR 085): by pgvector in the database where it can be
 * enabled, else exactly in process over a matrix loaded like the keyword index. Both compute the exact cosine of the
 * same single-precision numbers, so they return the same chunks in the same order.
 */
export interface VectorStore {
  readonly kind: VectorStoreKind
  readonly model: string
  /** One line for the start log: where vectors are searched, and why. */
  readonly description: string
  /** Reads what the store needs before its first search (the in-process matrix). */
  load(): Promise<void>
  /**
   * The `limit` chunks nearest to `query` (cosine similarity as score), best first, equal scores by chunk id. Only
   * chunks pointing the question's way (similarity above 0) are returned: at a right angle or beyond, a passage has
   * nothing in common with the question.
   */
  search(query: ArrayLike<number>, limit: number): Promise<VectorMatch[]>
  /** The stored vectors of these chunks (those that have one). */
  vectorsOf(chunkIds: number[]): Promise<Map<number, Float32Array>>
}

export interface VectorStoreOptions {
  model: string
  /** false: never enable pgvector, search in process even where it is offered (tests compare the two). */
  allowPgvector?: boolean
}

/**
 * Opens the store for `model`: enables pgvector and moves the vector column to its type when the database offers it
 * (once; the same for every process on the database), else searches in process. A column already of pgvector's
 * type needs pgvector: a PGlite without it fails to start with a message saying so.
 */
export async function openVectorStore(db: Database, options: VectorStoreOptions): Promise<VectorStore> {
  const { model, allowPgvector = true } = options
  let column = await repository.columnType(db)
  const available = await repository.availablePgvector(db)
  const where = db.kind === 'pglite' ? 'this PGlite build (package @electric-sql/pglite-pgvector)' : 'this PostgreSQL server'
  if (column.type === 'vector') {
    if (!available) throw new Error(`The stored chunk vectors use pgvector, but ${where} does not offer it: install pgvector, or start with it`)
    const { schema, version } = await repository.enablePgvector(db)
    return new PgvectorStore(db, model, schema, `vectors: pgvector ${version}, exact cosine in the database`)
  }
  if (!allowPgvector) return new ExactVectorStore(db, model, 'vectors: exact cosine in process (pgvector not used)')
  if (!available) return new ExactVectorStore(db, model, `vectors: exact cosine in process; pgvector is not installed on ${where}`)
  let enabled: { schema: string; version: string }
  try {
    enabled = await repository.enablePgvector(db)
  } catch (error) {
    // Typically no right to create extensions: the in-process search gives the same results.
    const reason = error instanceof Error ? error.message : String(error)
    return new ExactVectorStore(db, model, `vectors: exact cosine in process; pgvector could not be enabled (${reason})`)
  }
  await db.transaction(async (tx) => {
    await repository.lockVectorColumn(tx)
    column = await repository.columnType(tx)
    if (column.type !== 'vector') await repository.convertToPgvector(tx, enabled.schema)
  })
  return new PgvectorStore(db, model, enabled.schema, `vectors: pgvector ${enabled.version}, exact cosine in the database`)
}

export class PgvectorStore implements VectorStore {
  readonly kind = 'pgvector'

  constructor(
    private readonly db: Database,
    readonly model: string,
    private readonly schema: string,
    readonly description: string,
  ) {}

  async load(): Promise<void> {
    // Nothing is held in process.
  }

  async search(query: ArrayLike<number>, limit: number): Promise<VectorMatch[]> {
    const count = Math.max(0, Math.floor(limit))
    if (count === 0 || !hasLength(query)) return []
    const rows = await repository.nearestByPgvector(this.db, this.schema, this.model, toFloat32(query), count)
    // A stored vector of length zero has no angle to anything (pgvector gives NaN): it never matches.
    return rows.filter((row) => Number.isFinite(row.score) && row.score > 0).map((row) => ({ id: row.chunkId, score: row.score }))
  }

  async vectorsOf(chunkIds: number[]): Promise<Map<number, Float32Array>> {
    const stored = await repository.vectorsOf(this.db, this.model, chunkIds)
    return new Map([...stored].map(([id, vector]) => [id, toFloat32(vector)]))
  }
}

/** Vectors read per query while loading or catching up. */
const READ_BATCH = 2000

/**
 * Exact search in process: the model's vectors in one matrix, loaded at start and brought up to date before every
 * search from the additions (`seq`, committed in order under the writers' lock) and from the chunks the index log
 * removed since (their vectors went with them).
 */
export class ExactVectorStore implements VectorStore {
  readonly kind = 'exact'
  private matrix = new VectorMatrix()
  private vectorSeq = 0
  private indexSeq = 0
  private syncing: Promise<void> | undefined
  private queuedSync: Promise<void> | undefined

  constructor(
    private readonly db: Database,
    readonly model: string,
    readonly description: string,
  ) {}

  async load(): Promise<void> {
    const matrix = new VectorMatrix()
    // Positions first: what lands while loading is read again by the next sync, which is harmless.
    const indexSeq = await repository.latestIndexSeq(this.db)
    let vectorSeq = 0
    for (;;) {
      const added = await repository.vectorsAddedSince(this.db, this.model, vectorSeq, READ_BATCH)
      for (const entry of added) {
        addTo(matrix, entry.chunkId, entry.vector)
        vectorSeq = entry.seq
      }
      if (added.length < READ_BATCH) break
      await nextTurn()
    }
    this.matrix = matrix
    this.vectorSeq = vectorSeq
    this.indexSeq = indexSeq
  }

  async search(query: ArrayLike<number>, limit: number): Promise<VectorMatch[]> {
    await this.sync()
    return this.matrix.search(toFloat32(query), limit).filter((match) => match.score > 0)
  }

  async vectorsOf(chunkIds: number[]): Promise<Map<number, Float32Array>> {
    await this.sync()
    const found = new Map<number, Float32Array>()
    for (const id of chunkIds) {
      const vector = this.matrix.get(id)
      if (vector) found.set(id, vector)
    }
    return found
  }

  /** Applies every change committed before this call; one sync runs at a time, and at most one waits behind it. */
  sync(): Promise<void> {
    if (this.queuedSync) return this.queuedSync
    if (!this.syncing) return this.startSync()
    this.queuedSync = this.syncing
      .catch(() => undefined)
      .then(() => {
        this.queuedSync = undefined
        return this.startSync()
      })
    return this.queuedSync
  }

  private startSync(): Promise<void> {
    const running: Promise<void> = this.catchUp().finally(() => {
      if (this.syncing === running) this.syncing = undefined
    })
    this.syncing = running
    return running
  }

  private async catchUp(): Promise<void> {
    // Additions first, then removals: a chunk removed after its vector was read is then taken out again.
    for (;;) {
      const added = await repository.vectorsAddedSince(this.db, this.model, this.vectorSeq, READ_BATCH)
      for (const entry of added) {
        addTo(this.matrix, entry.chunkId, entry.vector)
        this.vectorSeq = entry.seq
      }
      if (added.length < READ_BATCH) break
      await nextTurn()
    }
    for (;;) {
      const removed = await repository.chunksRemovedSince(this.db, this.indexSeq, READ_BATCH)
      for (const entry of removed) {
        this.matrix.delete(entry.chunkId)
        this.indexSeq = entry.seq
      }
      if (removed.length < READ_BATCH) break
      await nextTurn()
    }
  }
}

/** A vector of another length than the matrix's (a model whose size changed under the same name) is left out. */
function addTo(matrix: VectorMatrix, chunkId: number, vector: number[]): void {
  if (matrix.dimensions !== undefined && vector.length !== matrix.dimensions) return
  matrix.set(chunkId, vector)
}

function hasLength(vector: ArrayLike<number>): boolean {
  for (let index = 0; index < vector.length; index++) if (vector[index] !== 0) return true
  return false
}
