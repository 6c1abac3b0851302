import type { Database, Queryable } from '../../db/database'
import { Bm25Index, type Bm25Parameters } from '../../retrieval/bm25-index'
import { chunkArticle } from '../../retrieval/chunker'
import { termFrequencies, tokenize } from '../../retrieval/text'
import { knowledgeRepository as repository, type ChunkRecord } from './knowledge.repository'

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
    private readonly parameters?: Bm25Parameters,
  ) {
    this.index = new Bm25Index(parameters)
  }

  /** Builds the in-memory index from the database. */
  async load(): Promise<void> {
    const index = new Bm25Index(this.parameters)
    // Read the log position first: changes that land while loading are replayed by the next sync (idempotent).
    const seq = await repository.latestChangeSeq(this.db)
    for (const chunk of await repository.allIndexedChunks(this.db)) index.add(chunk)
    this.index = index
    this.lastSeq = seq
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
    const drafts = chunkArticle(article.content)
    let count = 0
    for (const chunk of drafts) {
      // The title is indexed with every chunk: a passage is about its article's subject even when it does not repeat it.
      const tokens = tokenize(`${article.title}\n${chunk.text}`)
      if (tokens.length === 0) continue
      await repository.insertChunk(tx, {
        articleId: article.id,
        ordinal: chunk.ordinal,
        text: chunk.text,
        terms: Object.fromEntries(termFrequencies(tokens)),
        length: tokens.length,
      })
      count++
    }
    return count
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
