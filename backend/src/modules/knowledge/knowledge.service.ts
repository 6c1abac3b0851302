import { setImmediate as nextTurn } from 'node:timers/promises'
import { whenCommitted, type Database, type Queryable } from '../../db/database'
import { Bm25Index, Bm25IndexBuilder, countChunkTerms, knowledgeBaseBm25Parameters, type Bm25Parameters, type IndexedChunk, type ScoredChunk } from '../../retrieval/bm25-index'
import { chunkArticle } from '../../retrieval/chunker'
import { definitionFinder, labelPatterns } from '../../retrieval/extractive-answer'
import { actionWordings, activeHowTo } from '../../retrieval/asked-action'
import { asHowToQuestion, parseQuery } from '../../retrieval/query'
import { knowledgeLanguage } from '../../retrieval/text'
import { ChunkSetDigest } from './index-digest'
import { decodeSnapshot, readSnapshotFile, readSnapshotFileHeader, SNAPSHOT_FORMAT, writeSnapshot, type SnapshotOrigin } from './index-snapshot'
import { knowledgeRepository as repository, type ChunkRecord, type NewChunk } from './knowledge.repository'

/**
 * The format of the stored term frequencies (tokenizer and term weighting). Raise it when either changes: on
 * load, an index recorded with another format is rebuilt from the articles.
 */
export const INDEX_FORMAT = 7

/** Stored chunks compared with the current tokenizer when no format is recorded yet. */
const FORMAT_SAMPLE_SIZE = 20

/** Changes replayed per read of the log; the event loop gets a turn between batches. */
const REPLAY_BATCH = 2000

/** Chunks read per query when the index is rebuilt from the database. */
const LOAD_PAGE = 5000

/**
 * Chunk records (text, title, metadata) kept in memory for search results, the most recently used first. A chunk
 * never changes once written (an edit re-indexes its article under new chunk ids), so a kept record is only ever
 * dropped, when its chunk leaves the index or room is needed.
 */
const RECORDS_KEPT = 20_000

export interface KnowledgeServiceOptions {
  /** The file this process keeps a snapshot of the index in (ADR 145); none: every start rebuilds. */
  snapshotFile?: string
  /** Changes applied since the last snapshot before `follow()` writes a new one (default 5000). */
  snapshotAfterChanges?: number
  /** Terms copied or values encoded per turn of the event loop while a snapshot is written (default SNAPSHOT_SLICE). */
  snapshotSlice?: number
}

/** How the index was loaded at start: /healthz reports it. */
export interface IndexLoadReport {
  source: 'snapshot' | 'rebuild'
  /** Why no snapshot was used, when the index was rebuilt. */
  reason?: string
  milliseconds: number
}

/** The newest usable snapshot known to be in the file, and what writing it cost when this process wrote it: /healthz reports it. */
export interface SnapshotReport {
  /** The log position it reflects. */
  seq: number
  /** When this process wrote it (absent when it loaded it, or another process sharing the file wrote it). */
  writtenAt?: string
  /** From copying the index to the file's rename, including the turns other work got meanwhile. */
  milliseconds?: number
  bytes?: number
}

export interface RetrievedChunk extends ChunkRecord {
  score: number
  matchedTerms: string[]
}

/** What this process's index holds: processes holding the same chunks report the same checksum. */
export interface IndexStatus {
  chunks: number
  checksum: string
  /** The last change of the log applied. */
  seq: number
}

/**
 * The knowledge base's keyword index. Chunks and their term frequencies are persisted with the articles;
 * each process keeps a BM25 index in memory and replays the index_changes log, before searching and whenever
 * a writer notifies, so it stays correct when another process (or a transaction of this one) adds, updates or
 * deletes articles. Index writers are serialised, so the log's `seq` order is its commit order (ADR 070).
 */
export class KnowledgeService {
  private index: Bm25Index
  private digest = new ChunkSetDigest()
  private lastSeq = 0
  /** The replay in progress, and the one queued to start after it. */
  private replaying: Promise<void> | undefined
  private queuedReplay: Promise<void> | undefined
  private stopFollowing: (() => Promise<void>) | undefined
  private followTimer: NodeJS.Timeout | undefined
  /** The newest snapshot known to be in the file (none usable: undefined). */
  snapshotReport: SnapshotReport | undefined
  private snapshotting: Promise<void> | undefined
  /** The write in progress: a second caller waits for it rather than copy the index twice. */
  private writingSnapshot: Promise<number> | undefined
  private readonly snapshotAfterChanges: number
  /**
   * Whether the log may hold changes not yet replayed. While following, a search replays only then: set when a
   * writer's notification arrives or this process's own index write commits, cleared when a replay starts reading.
   */
  private stale = true
  private readonly records = new Map<number, ChunkRecord>()
  /** How the index was loaded at start. */
  loadReport: IndexLoadReport | undefined

  constructor(
    private readonly db: Database,
    private readonly parameters: Bm25Parameters = knowledgeBaseBm25Parameters,
    private readonly options: KnowledgeServiceOptions = {},
  ) {
    this.index = new Bm25Index(parameters)
    this.snapshotAfterChanges = options.snapshotAfterChanges ?? 5000
  }

  /**
   * Loads the in-memory index, first rebuilding stored terms of an older format: from the snapshot file when
   * it is usable, then replaying the log after its position; else from the chunks in the database.
   */
  async load(): Promise<void> {
    const started = performance.now()
    await this.upgradeStoredTerms()
    const problem = this.options.snapshotFile ? await this.loadSnapshot(this.options.snapshotFile) : 'no snapshot file configured'
    if (problem === undefined) {
      // The snapshot's position is a committed change: replay everything after it, like any sync.
      await this.sync()
      this.loadReport = { source: 'snapshot', milliseconds: performance.now() - started }
      return
    }
    await this.rebuild()
    this.loadReport = { source: 'rebuild', reason: problem, milliseconds: performance.now() - started }
  }

  /** Builds the index from the chunks in the database, a page at a time, in one bulk load. */
  private async rebuild(): Promise<void> {
    // Read the log position first: changes that land while loading are replayed by the next sync (idempotent).
    const seq = await repository.latestChangeSeq(this.db)
    const builder = new Bm25IndexBuilder()
    let afterId = 0
    for (;;) {
      const page = await repository.indexedChunkPage(this.db, afterId, LOAD_PAGE)
      for (const chunk of page) builder.add(chunk)
      if (page.length < LOAD_PAGE) break
      afterId = (page[page.length - 1] as IndexedChunk).chunkId
    }
    this.install(Bm25Index.fromCompact(builder.finish(), this.parameters), seq)
  }

  private install(index: Bm25Index, seq: number): void {
    index.prepare()
    const digest = new ChunkSetDigest()
    for (const chunkId of index.chunkIdList()) digest.add(chunkId)
    this.index = index
    this.digest = digest
    this.lastSeq = seq
    this.records.clear()
  }

  /** Where a snapshot of this index must come from to be loaded here: this database, log and term format. */
  private async origin(seq: number): Promise<SnapshotOrigin | undefined> {
    const lastChange = await repository.changeFingerprint(this.db, seq)
    if (lastChange === undefined) return undefined
    return { indexFormat: INDEX_FORMAT, language: knowledgeLanguage(), database: await repository.databaseIdentity(this.db), seq, lastChange }
  }

  /** Loads the snapshot file; returns why it could not be used, if so (the index is then untouched). */
  private async loadSnapshot(file: string): Promise<string | undefined> {
    let bytes: Buffer | undefined
    try {
      bytes = await readSnapshotFile(file)
    } catch (error) {
      // The code only: /healthz shows the reason, and a file system message names the data directory.
      return `snapshot unreadable (${(error as NodeJS.ErrnoException).code ?? 'read error'})`
    }
    if (!bytes) return 'no snapshot yet'
    const decoded = decodeSnapshot(bytes)
    bytes = undefined
    if ('problem' in decoded) return decoded.problem
    const { header, compact } = decoded
    const origin = await this.origin(header.seq)
    if (header.indexFormat !== INDEX_FORMAT) return `snapshot of index format ${header.indexFormat}, not ${INDEX_FORMAT}`
    if ((header.language ?? 'en') !== knowledgeLanguage()) return `snapshot of words read in ${header.language ?? 'en'}, not ${knowledgeLanguage()}`
    if (!origin || origin.database !== header.database || origin.lastChange !== header.lastChange) return 'snapshot of another database or log'
    let index: Bm25Index
    try {
      index = Bm25Index.fromCompact(compact, this.parameters)
    } catch (error) {
      return `corrupt: ${(error as Error).message}`
    }
    this.install(index, header.seq)
    this.snapshotReport = { seq: header.seq }
    return undefined
  }

  /**
   * Writes a snapshot when none usable is in the file or `snapshotAfterChanges` changes were applied since the
   * last one, unless another process sharing the file has written a recent enough one. The snapshot holds the
   * index as it is at the position it records, copied and encoded in slices with turns of the event loop between
   * them while replays go on (ADR 145). Returns the bytes written, or 0.
   */
  writeSnapshotIfDue(): Promise<number> {
    if (this.writingSnapshot) return this.writingSnapshot.then(() => 0)
    const writing = this.writeSnapshotNowIfDue().finally(() => (this.writingSnapshot = undefined))
    this.writingSnapshot = writing
    return writing
  }

  private async writeSnapshotNowIfDue(): Promise<number> {
    const file = this.options.snapshotFile
    if (!file || this.lastSeq === 0) return 0
    const known = this.snapshotReport?.seq
    if (known !== undefined && this.lastSeq - known < this.snapshotAfterChanges) return 0
    const existing = await readSnapshotFileHeader(file)
    if (
      existing &&
      existing.format === SNAPSHOT_FORMAT &&
      existing.indexFormat === INDEX_FORMAT &&
      (existing.language ?? 'en') === knowledgeLanguage() &&
      existing.database === (await repository.databaseIdentity(this.db)) &&
      existing.seq <= this.lastSeq &&
      this.lastSeq - existing.seq < this.snapshotAfterChanges &&
      existing.lastChange === (await repository.changeFingerprint(this.db, existing.seq))
    ) {
      if (existing.seq !== known) this.snapshotReport = { seq: existing.seq }
      return 0
    }
    // The snapshot must record the position of the index it copies: read again if a replay moved on meanwhile.
    let current: SnapshotOrigin | undefined
    for (;;) {
      const seq = this.lastSeq
      current = await this.origin(seq)
      if (!current) return 0
      if (this.lastSeq === seq) break
    }
    // Same turn as the check above: the copy writeSnapshot takes before its first await is the index at `current.seq`.
    const started = performance.now()
    const bytes = await writeSnapshot(file, this.index, current, this.options.snapshotSlice)
    this.snapshotReport = { seq: current.seq, writtenAt: new Date().toISOString(), milliseconds: performance.now() - started, bytes }
    return bytes
  }

  /**
   * Keeps the index current without waiting for a search: replays the log as soon as a writer's transaction
   * commits (LISTEN/NOTIFY), and every `intervalMs` in case a notification was lost.
   */
  async follow(intervalMs: number): Promise<void> {
    if (this.stopFollowing) return
    const replaySoon = () => void this.sync().catch(() => undefined)
    // After a sync, so that a snapshot is as recent as it can be; one at a time.
    const snapshotSoon = () => {
      if (this.snapshotting || !this.options.snapshotFile) return
      this.snapshotting = this.sync()
        .then(() => this.writeSnapshotIfDue())
        .then(
          () => undefined,
          () => undefined,
        )
        .finally(() => (this.snapshotting = undefined))
    }
    this.stopFollowing = await this.db.listen(await repository.indexChannel(this.db), () => {
      this.markStale()
      replaySoon()
    })
    this.followTimer = setInterval(() => {
      replaySoon()
      snapshotSoon()
    }, intervalMs)
    this.followTimer.unref()
    // Changes committed between load() and LISTEN were not notified.
    replaySoon()
    snapshotSoon()
  }

  async unfollow(): Promise<void> {
    if (this.followTimer) clearInterval(this.followTimer)
    this.followTimer = undefined
    const stop = this.stopFollowing
    this.stopFollowing = undefined
    await stop?.().catch(() => undefined)
    await Promise.allSettled([this.replaying, this.queuedReplay, this.snapshotting])
  }

  status(): IndexStatus {
    return { chunks: this.index.size, checksum: this.digest.toString(), seq: this.lastSeq }
  }

  /**
   * Re-indexes every article, in one transaction, when the stored term frequencies were computed by another
   * tokenizer, term weighting or language (KNOWLEDGE_LANGUAGE) than this process's: an index must not mix them with
   * the questions' terms. Databases from before the format was recorded are judged by a sample of their chunks.
   */
  private async upgradeStoredTerms(): Promise<void> {
    const language = knowledgeLanguage()
    const isCurrentFormat = (recorded: { version: number; language: string } | undefined) => recorded?.version === INDEX_FORMAT && recorded.language === language
    if (isCurrentFormat(await repository.recordedIndexFormat(this.db))) return
    await this.db.transaction(async (tx) => {
      // Several processes may start at once on one PostgreSQL server: one upgrades, the others then find it done.
      await repository.lockIndexFormat(tx)
      const recorded = await repository.recordedIndexFormat(tx)
      if (isCurrentFormat(recorded)) return
      const isCurrent = recorded === undefined && (await repository.sampleChunks(tx, FORMAT_SAMPLE_SIZE)).every(hasCurrentTerms)
      if (!isCurrent) for (const article of await repository.allArticles(tx)) await this.indexArticle(tx, article)
      await repository.recordIndexFormat(tx, INDEX_FORMAT, language)
    })
  }

  /**
   * Applies every index change committed before this call. A replay already running may have read the log
   * before the caller's commit, so one more is queued behind it (and shared by everyone who calls meanwhile).
   */
  sync(): Promise<void> {
    if (this.queuedReplay) return this.queuedReplay
    if (!this.replaying) return this.startReplay()
    const queued = this.replaying
      .catch(() => undefined)
      .then(() => {
        this.queuedReplay = undefined
        return this.startReplay()
      })
    this.queuedReplay = queued
    return queued
  }

  private markStale = (): void => {
    this.stale = true
  }

  private startReplay(): Promise<void> {
    // Cleared before the log is read: whatever commits from now on marks it again and is replayed by the next sync.
    this.stale = false
    const replay: Promise<void> = this.replay()
      .catch((error: unknown) => {
        this.markStale()
        throw error
      })
      .finally(() => {
        if (this.replaying === replay) this.replaying = undefined
      })
    this.replaying = replay
    return replay
  }

  private async replay(): Promise<void> {
    for (;;) {
      const changes = await repository.changesSince(this.db, this.lastSeq, REPLAY_BATCH)
      if (changes.length === 0) return
      const added = await repository.indexedChunks(
        this.db,
        changes.filter((change) => change.operation === 'add').map((change) => change.chunkId),
      )
      const byId = new Map(added.map((chunk) => [chunk.chunkId, chunk]))
      for (const change of changes) {
        if (change.operation === 'remove') this.removeChunk(change.chunkId)
        else {
          const chunk = byId.get(change.chunkId)
          // A chunk added and removed again before this sync no longer exists: its remove follows in the log.
          if (chunk) this.addChunk(chunk)
        }
        this.lastSeq = change.seq
      }
      if (changes.length < REPLAY_BATCH) return
      // A long replay (a large publish) must not keep other requests waiting.
      await nextTurn()
    }
  }

  private addChunk(chunk: IndexedChunk): void {
    if (!this.index.has(chunk.chunkId)) this.digest.add(chunk.chunkId)
    this.index.add(chunk)
  }

  private removeChunk(chunkId: number): void {
    this.records.delete(chunkId)
    if (!this.index.has(chunkId)) return
    this.digest.remove(chunkId)
    this.index.remove(chunkId)
  }

  /**
   * Makes the caller's transaction the only index writer until it ends. A transaction that writes the index
   * calls this before its first row lock (indexArticle takes it too, but later): see ADR 070.
   */
  lockIndexWrites(tx: Queryable): Promise<void> {
    return repository.lockIndexWrites(tx)
  }

  /** Chunks and indexes an article inside the caller's transaction; returns the number of chunks. */
  async indexArticle(tx: Queryable, article: { id: number; title: string; content: string }): Promise<number> {
    const chunks: NewChunk[] = []
    for (const chunk of chunkArticle(article.content)) {
      // The title is indexed with every chunk: a passage is about its article's subject even when it does not repeat it.
      const { terms, length } = countChunkTerms(chunk.text, article.title)
      if (length > 0) chunks.push({ ordinal: chunk.ordinal, text: chunk.text, terms, length })
    }
    // Chunked before the lock: other writers wait only for the statements.
    await repository.lockIndexWrites(tx)
    await repository.deleteChunksOf(tx, article.id)
    await repository.insertChunks(tx, article.id, chunks)
    whenCommitted(tx, this.markStale)
    return chunks.length
  }

  async unindexArticle(tx: Queryable, articleId: number): Promise<void> {
    await repository.lockIndexWrites(tx)
    await repository.deleteChunksOf(tx, articleId)
    whenCommitted(tx, this.markStale)
  }

  /**
   * The best `limit` chunks for a question, best first, with their article's title and metadata. While following
   * the log, the database is read only for changes known to be pending and for records not kept in memory.
   */
  async search(asked: string, limit: number): Promise<RetrievedChunk[]> {
    if (!this.stopFollowing || this.stale) await this.sync()
    // Not stale, but a replay is still applying the log: it started after every commit this caller can have seen (a
    // commit marks the index stale, and a replay clears that before it reads), so its end is what the search waits for.
    else if (this.replaying) await this.replaying.catch(() => this.sync())
    // A how-question in the passive may ask how to do it ("How are drafts published?": "How do I publish drafts?"): it
    // is searched as asked and as that how-to, whose passages with steps rank higher.
    // So is a task asked in a few words ("upload files": "How do I upload files?").
    const question = activeHowTo(asHowToQuestion(asked))
    // A how-to question is read with its action said plainly ("make a new article": "create an article") and with each
    // verb that does the same ("add an article"); each passage keeps its best score: a guide names an action one way,
    // its users say it another.
    const wordings = [...new Set([...(question === asked ? [] : [asked]), ...actionWordings(question, this.correctTerm)])]
    // A how-to question is answered by steps: a passage that holds some ranks that much higher, so the few just below
    // the limit are looked at too.
    const asksSteps = HOW_TO_QUESTION.test(question)
    // A question that asks what something is is answered by the passage that says so ("An agent is …"): it ranks that
    // much higher, and one word names the subject in many passages, which then score alike, so more are looked at.
    const definesAsked = asksSteps ? undefined : definitionFinder(question)
    // A name on the screen the question gives ("What does Delete all do?") is read without its small words, and what is
    // left of it ("delete") many passages say: more are looked at, and those that say it whole rank higher (below).
    const labels = labelPatterns(question)
    const depth = limit + Math.max(asksSteps ? STEPS_LOOKAHEAD : 0, definesAsked ? DEFINITION_LOOKAHEAD : 0, labels.length > 0 ? LABEL_LOOKAHEAD : 0)
    const hits = bestOfEach(wordings.map((wording) => this.index.search(parseQuery(wording, { correctTerm: this.correctTerm }), depth)))
    const missing = hits.filter((hit) => !this.records.has(hit.chunkId)).map((hit) => hit.chunkId)
    const read = new Map((await repository.chunkRecords(this.db, missing)).map((record) => [record.chunkId, record]))
    const found = hits.flatMap((hit) => {
      const record = this.keptRecord(hit.chunkId) ?? read.get(hit.chunkId)
      if (!record) return []
      // Kept only while its chunk is still indexed: a replay during the read may have removed it.
      if (read.has(hit.chunkId) && this.index.has(hit.chunkId)) this.keepRecord(record)
      const score = asksSteps && NUMBERED_STEPS.test(record.text) ? hit.score * STEPS_BONUS : definesAsked?.(record.text) ? hit.score * DEFINITION_BONUS : hit.score
      return [{ ...record, score, matchedTerms: hit.matchedTerms }]
    })
    // The longest such name that passages say counts as one more word of the question, as rare as the passages looked
    // at that say it make it.
    const label = labels.find((pattern) => found.some((record) => pattern.test(record.text)))
    if (label) {
      const saying = found.filter((record) => label.test(record.text))
      const weight = this.index.idfForCount(saying.length)
      for (const record of saying) record.score += weight
    }
    return (asksSteps || definesAsked || labels.length > 0 ? found.sort((a, b) => b.score - a.score || a.chunkId - b.chunkId) : found).slice(0, limit)
  }

  /** A kept record, marked as the most recently used. */
  private keptRecord(chunkId: number): ChunkRecord | undefined {
    const record = this.records.get(chunkId)
    if (record) {
      this.records.delete(chunkId)
      this.records.set(chunkId, record)
    }
    return record
  }

  private keepRecord(record: ChunkRecord): void {
    // The least recently used makes room (a Map keeps insertion order).
    if (this.records.size >= RECORDS_KEPT) this.records.delete(this.records.keys().next().value!)
    Object.freeze(record.metadata)
    this.records.set(record.chunkId, Object.freeze(record))
  }

  /** The weight of a stem in this corpus (its BM25 idf), used to judge how much of a question a sentence covers. */
  termWeight = (term: string): number => this.index.idf(term)

  /** The indexed term an unknown one misspells (`Bm25Index.correction`): how search reads a typo. */
  correctTerm = (term: string): string | undefined => this.index.correction(term)

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

/** "How do I …", "How can we …", "How to …": a question whose answer is steps. */
const HOW_TO_QUESTION = /^\s*(?:(?:and|but|so|then|now|also|ok|okay)\b[\s,]*)?how\s+(?:do|can|could|should|would|may|might)\s+(?:i|we|you|one)\b|^\s*how\s+to\b/i
/** A passage that holds a numbered list of at least two steps. */
const NUMBERED_STEPS = /^1\.\s.*\n+2\.\s/m
/** How much more a passage with steps scores for a how-to question, and how many passages below the limit may rise. */
const STEPS_BONUS = 1.15
const STEPS_LOOKAHEAD = 4
/** How much more a passage that says what the asked thing is scores for "What is …?", and how many below may rise. */
const DEFINITION_BONUS = STEPS_BONUS
const DEFINITION_LOOKAHEAD = 8
/** How many passages below the limit may rise for saying a name on the screen the question gives whole. */
const LABEL_LOOKAHEAD = 40

/** Several rankings as one: each chunk at its best score (the first ranking's on a tie), best first, then by chunk id. */
function bestOfEach(rankings: ScoredChunk[][]): ScoredChunk[] {
  if (rankings.length === 1) return rankings[0] ?? []
  const best = new Map<number, ScoredChunk>()
  for (const ranking of rankings) for (const hit of ranking) if ((best.get(hit.chunkId)?.score ?? Number.NEGATIVE_INFINITY) < hit.score) best.set(hit.chunkId, hit)
  return [...best.values()].sort((a, b) => b.score - a.score || a.chunkId - b.chunkId)
}
