import type { Database, Queryable } from '../../db/database'
import { Bm25Index, countChunkTerms, knowledgeBaseBm25Parameters, type Bm25Parameters, type IndexedChunk } from '../../retrieval/bm25-index'
import { chunkArticle } from '../../retrieval/chunker'
import { tokenize } from '../../retrieval/text'
import { knowledgeRepository as repository, type ChunkRecord, type NewChunk } from './knowledge.repository'

/**
 * The format of the stored term frequencies (tokenizer and term weighting). Raise it when either changes: on
 * load, an index recorded with another format is rebuilt from the articles.
 */
export const INDEX_FORMAT = 2

/** Stored chunks compared with the current tokenizer when no format is recorded yet. */
const FORMAT_SAMPLE_SIZE = 20

export interface RetrievedChunk extends ChunkRecord {
  score: number
  matchedTerms: string[]
}

/**
 * The knowledge base's keyword index. Chunks and their term frequencies are persisted with the articles;
 * each process keeps a BM25 index in memory and replays the index_changes log before searching, so it stays
 * correct when another process (or a transaction of this one) adds, updates or deletes articles.
 */
export class KnowledgeService {
  private index: Bm25Index
  private lastSeq = 0
  private syncing: Promise<void> | undefined

  constructor(
    private readonly db: Database,
    private readonly parameters: Bm25Parameters = knowledgeBaseBm25Parameters,
  ) {
    this.index = new Bm25Index(parameters)
  }

  /** Builds the in-memory index from the database, first rebuilding stored terms of an older format. */
  async load(): Promise<void> {
    await this.upgradeStoredTerms()
    const index = new Bm25Index(this.parameters)
    // Read the log position first: changes that land while loading are replayed by the next sync (idempotent).
    const seq = await repository.latestChangeSeq(this.db)
    for (const chunk of await repository.allIndexedChunks(this.db)) index.add(chunk)
    index.prepare()
    this.index = index
    this.lastSeq = seq
  }

  /**
   * Re-indexes every article, in one transaction, when the stored term frequencies were computed by another
   * tokenizer or term weighting than this version's: an index must not mix them with the questions' terms.
   * Databases from before the format was recorded are judged by a sample of their chunks.
   */
  private async upgradeStoredTerms(): Promise<void> {
    if ((await repository.recordedIndexFormat(this.db)) === INDEX_FORMAT) return
    await this.db.transaction(async (tx) => {
      // Several processes may start at once on one PostgreSQL server: one upgrades, the others then find it done.
      await repository.lockIndexFormat(tx)
      const recorded = await repository.recordedIndexFormat(tx)
      if (recorded === INDEX_FORMAT) return
      const isCurrent = recorded === undefined && (await repository.sampleChunks(tx, FORMAT_SAMPLE_SIZE)).every(hasCurrentTerms)
      if (!isCurrent) for (const article of await repository.allArticles(tx)) await this.indexArticle(tx, article)
      await repository.recordIndexFormat(tx, INDEX_FORMAT)
    })
  }

  /** Applies index changes committed since the last sync. */
  async sync(): Promise<void> {
    if (!this.syncing) {
      this.syncing = this.replay().finally(() => {
        this.syncing = undefined
      })
    }
    return this.syncing
  }

  private async replay(): Promise<void> {
    for (;;) {
      const changes = await repository.changesSince(this.db, this.lastSeq)
      if (changes.length === 0) return
      const added = await repository.indexedChunks(
        this.db,
        changes.filter((change) => change.operation === 'add').map((change) => change.chunkId),
      )
      const byId = new Map(added.map((chunk) => [chunk.chunkId, chunk]))
      for (const change of changes) {
        if (change.operation === 'remove') this.index.remove(change.chunkId)
        else {
          const chunk = byId.get(change.chunkId)
          // A chunk added and removed again before this sync no longer exists: its remove follows in the log.
          if (chunk) this.index.add(chunk)
        }
        this.lastSeq = change.seq
      }
    }
  }

  /** Chunks and indexes an article inside the caller's transaction; returns the number of chunks. */
  async indexArticle(tx: Queryable, article: { id: number; title: string; content: string }): Promise<number> {
    await repository.deleteChunksOf(tx, article.id)
    const chunks: NewChunk[] = []
    for (const chunk of chunkArticle(article.content)) {
      // The title is indexed with every chunk: a passage is about its article's subject even when it does not repeat it.
      const { terms, length } = countChunkTerms(chunk.text, article.title)
      if (length > 0) chunks.push({ ordinal: chunk.ordinal, text: chunk.text, terms, length })
    }
    await repository.insertChunks(tx, article.id, chunks)
    return chunks.length
  }

  async unindexArticle(tx: Queryable, articleId: number): Promise<void> {
    await repository.deleteChunksOf(tx, articleId)
  }

  /** The best `limit` chunks for a question, best first, with their article's title and metadata. */
  async search(question: string, limit: number): Promise<RetrievedChunk[]> {
    await this.sync()
    const hits = this.index.search(tokenize(question), limit)
    const records = new Map((await repository.chunkRecords(this.db, hits.map((hit) => hit.chunkId))).map((record) => [record.chunkId, record]))
    return hits.flatMap((hit) => {
      const record = records.get(hit.chunkId)
      return record ? [{ ...record, score: hit.score, matchedTerms: hit.matchedTerms }] : []
    })
  }

  /** The weight of a stem in this corpus (its BM25 idf), used to judge how much of a question a sentence covers. */
  termWeight = (term: string): number => this.index.idf(term)

  get chunkCount(): number {
    return this.index.size
  }
}

/** Whether a stored chunk's terms and length are what this version's tokenizer and weighting give. */
function hasCurrentTerms(chunk: IndexedChunk & { text: string; title: string }): boolean {
  const current = countChunkTerms(chunk.text, chunk.title)
  const stored = Object.entries(chunk.terms)
  return current.length === chunk.length && stored.length === Object.keys(current.terms).length && stored.every(([term, frequency]) => current.terms[term] === frequency)
}
