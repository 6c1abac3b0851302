import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Database } from '../../db/database'
import { openTestPglite } from '../../testing/test-pglite'
import { migrate } from '../../db/migrate'
import { Bm25Index, type CompactIndex } from '../../retrieval/bm25-index'
import { ChunkSetDigest } from './index-digest'
import { decodeSnapshot, encodeSnapshot, encodeSnapshotSlices } from './index-snapshot'
import { KnowledgeService } from './knowledge.service'

const ARTICLES: [string, string][] = [
  ['Kiln firing', 'Bisque firing reaches cone 04 slowly. Candling drives out water before the kiln climbs.'],
  ['Glaze mixing', 'Sieve the glaze slurry twice. A hydrometer tells the specific gravity of the glaze.'],
  ['Wedging clay', 'Wedging removes air pockets from clay. Ram\'s head wedging suits stoneware.'],
  ['Throwing on the wheel', 'Centre the clay before opening it. Keep the wheel fast while centring and slow while pulling walls.'],
  ['Trimming', 'Trim leather-hard pots upside down on the wheel. A sharp loop tool leaves clean feet.'],
]
const QUESTIONS = ['how do I centre clay on the wheel', 'glaze specific gravity', 'kiln cone 04 bisque', 'what removes air pockets from clay?', 'trimming feet']

describe('the keyword index snapshot', () => {
  let db: Database
  let directory: string
  let file: string
  beforeEach(async () => {
    db = await openTestPglite()
    await migrate(db)
    directory = mkdtempSync(path.join(tmpdir(), 'kb-index-snapshot-'))
    file = path.join(directory, 'index', 'keyword-index.snapshot')
  })
  afterEach(async () => {
    vi.restoreAllMocks()
    await db.close()
    rmSync(directory, { recursive: true, force: true })
  })

  async function publish(knowledge: KnowledgeService, title: string, content: string, id?: number): Promise<number> {
    return db.transaction(async (tx) => {
      const [row] = id
        ? await tx.query<{ id: number }>(`UPDATE articles SET title = $2, content = $3 WHERE id = $1 RETURNING id`, [id, title, content])
        : await tx.query<{ id: number }>(`INSERT INTO articles (title, content) VALUES ($1, $2) RETURNING id`, [title, content])
      await knowledge.indexArticle(tx, { id: row.id, title, content })
      return row.id
    })
  }

  /** A process started now without a snapshot: the index rebuilt from the chunks. */
  async function rebuilt(): Promise<KnowledgeService> {
    const knowledge = new KnowledgeService(db)
    await knowledge.load()
    expect(knowledge.loadReport?.source).toBe('rebuild')
    return knowledge
  }

  async function searches(knowledge: KnowledgeService) {
    return Promise.all(QUESTIONS.map(async (question) => (await knowledge.search(question, 5)).map(({ chunkId, score, matchedTerms }) => ({ chunkId, score, matchedTerms }))))
  }

  async function writeFirstSnapshot(): Promise<KnowledgeService> {
    const writer = new KnowledgeService(db, undefined, { snapshotFile: file, snapshotAfterChanges: 3 })
    const ids: number[] = []
    for (const [title, content] of ARTICLES) ids.push(await publish(writer, title, content))
    await writer.load()
    expect(writer.loadReport).toMatchObject({ source: 'rebuild', reason: 'no snapshot yet' })
    expect(await writer.writeSnapshotIfDue()).toBeGreaterThan(0)
    // Nothing changed since: not due again.
    expect(await writer.writeSnapshotIfDue()).toBe(0)
    // Changes after the snapshot: an update, a removal and a new article.
    await publish(writer, 'Glaze mixing', 'Weigh the glaze materials dry, then sieve the slurry through an 80 mesh.', ids[1])
    await db.transaction((tx) => writer.unindexArticle(tx, ids[2] as number))
    await db.query(`DELETE FROM articles WHERE id = $1`, [ids[2]])
    await publish(writer, 'Pit firing', 'Sawdust and seaweed in the pit colour burnished pots.')
    return writer
  }

  it('starts from the snapshot and replays the changes after it: same checksum, chunks, position and results as a rebuild', async () => {
    await writeFirstSnapshot()
    const restarted = new KnowledgeService(db, undefined, { snapshotFile: file })
    await restarted.load()
    expect(restarted.loadReport?.source).toBe('snapshot')
    const fresh = await rebuilt()
    expect(restarted.status()).toEqual(fresh.status())
    expect(restarted.status().chunks).toBeGreaterThan(0)
    expect(await searches(restarted)).toEqual(await searches(fresh))
    expect((await restarted.search('ram head wedging', 5)).length).toBe(0)
    expect((await restarted.search('sawdust seaweed pit', 5)).map((hit) => hit.title)).toEqual(['Pit firing'])
  })

  it('is rewritten once enough changes were applied, and the next start replays only what came after', async () => {
    const writer = await writeFirstSnapshot()
    await writer.sync()
    expect(await writer.writeSnapshotIfDue()).toBeGreaterThan(0)
    const bytes = readFileSync(file)
    const decoded = decodeSnapshot(bytes)
    if ('problem' in decoded) throw new Error(decoded.problem)
    expect(decoded.header.seq).toBe(writer.status().seq)
    const restarted = new KnowledgeService(db, undefined, { snapshotFile: file })
    await restarted.load()
    expect(restarted.loadReport?.source).toBe('snapshot')
    expect(restarted.status()).toEqual(writer.status())
  })

  it('is written a slice at a time while the index changes, holds the index at the position it records, and a start from it replays the rest', async () => {
    const writer = new KnowledgeService(db, undefined, { snapshotFile: file, snapshotAfterChanges: 1, snapshotSlice: 1 })
    const ids: number[] = []
    for (const [title, content] of ARTICLES) ids.push(await publish(writer, title, content))
    await writer.load()
    const atCopy = writer.status()
    // Committed before the write begins, replayed while it runs.
    await publish(writer, 'Glaze mixing', 'Weigh the glaze materials dry, then sieve the slurry through an 80 mesh.', ids[1])
    await db.transaction((tx) => writer.unindexArticle(tx, ids[2] as number))
    await publish(writer, 'Pit firing', 'Sawdust and seaweed in the pit colour burnished pots.')
    const copySlices = Bm25Index.prototype.compactSlices
    let copying = false
    let turnsDuringCopy = 0
    let seqWhenCopied = 0
    let replayed: Promise<void> | undefined
    vi.spyOn(Bm25Index.prototype, 'compactSlices').mockImplementation(function (this: Bm25Index, entriesPerSlice: number) {
      const slices = copySlices.call(this, entriesPerSlice)
      copying = true
      const count = () => {
        if (!copying) return
        turnsDuringCopy += 1
        setImmediate(count)
      }
      setImmediate(count)
      replayed = writer.sync()
      return (function* (): Generator<void, CompactIndex, void> {
        const compact = yield* slices
        copying = false
        seqWhenCopied = writer.status().seq
        return compact
      })()
    })
    expect(await writer.writeSnapshotIfDue()).toBeGreaterThan(0)
    await replayed
    // Other work ran while the index was copied, and the replay changed the index meanwhile.
    expect(turnsDuringCopy).toBeGreaterThan(1)
    expect(seqWhenCopied).toBeGreaterThan(atCopy.seq)
    const decoded = decodeSnapshot(readFileSync(file))
    if ('problem' in decoded) throw new Error(decoded.problem)
    expect(decoded.header.seq).toBe(atCopy.seq)
    expect(writer.snapshotReport).toMatchObject({ seq: atCopy.seq, writtenAt: expect.any(String), milliseconds: expect.any(Number) })
    const digest = new ChunkSetDigest()
    for (const chunkId of decoded.compact.chunkIds) digest.add(chunkId)
    expect({ chunks: decoded.header.chunks, checksum: digest.toString() }).toEqual({ chunks: atCopy.chunks, checksum: atCopy.checksum })
    vi.restoreAllMocks()

    const restarted = new KnowledgeService(db, undefined, { snapshotFile: file })
    await restarted.load()
    expect(restarted.loadReport?.source).toBe('snapshot')
    expect(restarted.snapshotReport).toEqual({ seq: atCopy.seq })
    const fresh = await rebuilt()
    expect(restarted.status()).toEqual(fresh.status())
    expect(restarted.status()).toEqual(writer.status())
    expect(await searches(restarted)).toEqual(await searches(fresh))
  })

  it('encodes the same bytes a slice at a time as at once', () => {
    const compact: CompactIndex = {
      vocabulary: ['kiln', 'glaze', 'clay'],
      chunkIds: Float64Array.of(4, 9, 12),
      articleIds: Float64Array.of(1, 1, 2),
      lengths: Float64Array.of(3, 2, 4),
      termOffsets: Int32Array.of(0, 2, 3, 5),
      termIds: Int32Array.of(0, 2, 1, 0, 1),
      termFrequencies: Float32Array.of(1, 2, 1, 3, 1),
      pairOffsets: Int32Array.of(0, 1, 1, 2),
      pairs: Uint32Array.of(77, 5),
    }
    const origin = { indexFormat: 3, database: 'x', seq: 8, lastChange: 'add 12' }
    const slices = encodeSnapshotSlices(compact, origin, 2)
    let count = 0
    let step = slices.next()
    for (; !step.done; step = slices.next()) count += 1
    expect(count).toBeGreaterThan(10)
    expect(Buffer.concat(step.value)).toEqual(Buffer.concat(encodeSnapshot(compact, origin)))
    const decoded = decodeSnapshot(Buffer.concat(step.value))
    if ('problem' in decoded) throw new Error(decoded.problem)
    expect(Array.from(decoded.compact.termIds)).toEqual([0, 2, 1, 0, 1])
    expect(Array.from(decoded.compact.termFrequencies)).toEqual([1, 2, 1, 3, 1])
  })

  it('rebuilds when the snapshot is corrupt, of another format, or of another database', async () => {
    await writeFirstSnapshot()
    const expected = (await rebuilt()).status()
    const original = readFileSync(file)

    const corrupt = Buffer.from(original)
    corrupt[corrupt.length - 100] = (corrupt[corrupt.length - 100] as number) ^ 0xff
    writeFileSync(file, corrupt)
    const afterCorrupt = new KnowledgeService(db, undefined, { snapshotFile: file })
    await afterCorrupt.load()
    expect(afterCorrupt.loadReport).toMatchObject({ source: 'rebuild', reason: 'corrupt: checksum mismatch' })
    expect(afterCorrupt.status()).toEqual(expected)

    writeFileSync(file, Buffer.from(original.toString('latin1').replace('"format":1,', '"format":9,'), 'latin1'))
    const afterFormat = new KnowledgeService(db, undefined, { snapshotFile: file })
    await afterFormat.load()
    expect(afterFormat.loadReport).toMatchObject({ source: 'rebuild', reason: 'snapshot format 9, not 1' })
    expect(afterFormat.status()).toEqual(expected)

    // The same file next to another database: its log position means nothing there.
    writeFileSync(file, original)
    const other = await openTestPglite()
    try {
      await migrate(other)
      await other.transaction(async (tx) => {
        const [row] = await tx.query<{ id: number }>(`INSERT INTO articles (title, content) VALUES ('Raku', 'Raku pots leave the kiln glowing.') RETURNING id`)
        await new KnowledgeService(other).indexArticle(tx, { id: row.id, title: 'Raku', content: 'Raku pots leave the kiln glowing.' })
      })
      const elsewhere = new KnowledgeService(other, undefined, { snapshotFile: file })
      await elsewhere.load()
      expect(elsewhere.loadReport).toMatchObject({ source: 'rebuild', reason: 'snapshot of another database or log' })
      expect(elsewhere.status().chunks).toBe(1)
    } finally {
      await other.close()
    }
  })

  it('writes none for an empty log, and refuses a term it cannot store', async () => {
    const knowledge = new KnowledgeService(db, undefined, { snapshotFile: file })
    await knowledge.load()
    expect(await knowledge.writeSnapshotIfDue()).toBe(0)
    const compact = {
      vocabulary: ['a\0b'],
      chunkIds: Float64Array.of(1),
      articleIds: Float64Array.of(1),
      lengths: Float64Array.of(1),
      termOffsets: Int32Array.of(0, 1),
      termIds: Int32Array.of(0),
      termFrequencies: Float32Array.of(1),
      pairOffsets: Int32Array.of(0, 0),
      pairs: new Uint32Array(0),
    }
    expect(() => encodeSnapshot(compact, { indexFormat: 3, database: 'x', seq: 1, lastChange: '' })).toThrow(/NUL/)
  })
})
