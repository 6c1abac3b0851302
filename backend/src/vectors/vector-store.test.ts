import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fixtureEmbedding } from '../../../tests/fixtures/openai-fixture'
import { openDatabase, type Database } from '../db/database'
import { migrate } from '../db/migrate'
import { KnowledgeService } from '../modules/knowledge/knowledge.service'
import { freshPostgresUrl, isPostgresAvailable } from '../testing/test-backend'
import { openTestPglite } from '../testing/test-pglite'
import { embeddingInput } from './embedding-passes'
import { ExactVectorStore, openVectorStore, type VectorStore } from './vector-store'
import { vectorsRepository } from './vectors.repository'
import { GARDEN_ARTICLES } from './vectors.test-support'

const MODEL = 'fixture-embed'
const QUESTIONS = ['when to prune roses', 'compost bin smell', 'protect plants from frost', 'water in drought', 'slugs at night', 'feeding roses in spring']

/** Publishes the garden articles straight into the index, then embeds every chunk as the fixture server would. */
async function fill(db: Database): Promise<void> {
  const knowledge = new KnowledgeService(db)
  for (const article of GARDEN_ARTICLES) {
    await db.transaction(async (tx) => {
      await knowledge.lockIndexWrites(tx)
      const [{ id }] = await tx.query<{ id: number }>(`INSERT INTO articles (title, content) VALUES ($1, $2) RETURNING id`, [article.title, article.content])
      await knowledge.indexArticle(tx, { id, title: article.title, content: article.content })
    })
  }
  await embedMissing(db)
}

async function embedMissing(db: Database): Promise<number> {
  const chunks = await vectorsRepository.chunksWithoutVector(db, MODEL, 1000)
  return db.transaction((tx) => vectorsRepository.save(tx, MODEL, chunks.map((chunk) => ({ chunkId: chunk.chunkId, vector: fixtureEmbedding(embeddingInput(chunk)) }))))
}

/** A store's answer by chunk text (the ids of two databases need not agree). */
async function ranked(db: Database, store: VectorStore, question: string, limit = 5) {
  const matches = await store.search(fixtureEmbedding(question), limit)
  const texts = new Map((await vectorsRepository.chunkRecords(db, matches.map((match) => match.id))).map((record) => [record.chunkId, record.text]))
  return matches.map((match) => ({ text: texts.get(match.id), score: match.score }))
}

/** The same chunks in the same order, with the same cosines (pgvector sums in single precision: within 1e-5). */
function expectSameRanking(actual: { text?: string; score: number }[], expected: { text?: string; score: number }[]) {
  expect(actual.map((entry) => entry.text)).toEqual(expected.map((entry) => entry.text))
  actual.forEach((entry, index) => expect(Math.abs(entry.score - expected[index].score)).toBeLessThan(1e-5))
}

describe('chunk vectors in pgvector (PGlite) and in process (PostgreSQL server without pgvector)', async () => {
  const hasServer = await isPostgresAvailable()
  let lite: Database
  let server: Database | undefined
  let dropSchema: (() => Promise<void>) | undefined

  beforeAll(async () => {
    lite = await openTestPglite()
    await migrate(lite)
    await fill(lite)
    if (hasServer) {
      const fresh = await freshPostgresUrl()
      dropSchema = fresh.drop
      server = await openDatabase({ url: fresh.url, dataDir: '.' })
      await migrate(server)
      await fill(server)
    }
  })

  afterAll(async () => {
    await lite?.close()
    await server?.close()
    await dropSchema?.()
  })

  it('keeps the vectors of PGlite in pgvector, with its exact cosine', async () => {
    const store = await openVectorStore(lite, { model: MODEL })
    expect(store.kind, 'PGlite offers pgvector when @electric-sql/pglite-pgvector is installed').toBe('pgvector')
    expect(store.description).toMatch(/^vectors: pgvector \d/)
    expect((await vectorsRepository.columnType(lite)).type).toBe('vector')
    const [best] = await store.search(fixtureEmbedding('when to prune roses'), 1)
    expect(best.score).toBeGreaterThan(0.3)
    // Opening again (a restart) finds the column converted and keeps it.
    expect((await openVectorStore(lite, { model: MODEL })).kind).toBe('pgvector')
  })

  it('gives the same top chunks and scores in process as pgvector, on PGlite and on the server', async () => {
    const pgvector = await openVectorStore(lite, { model: MODEL })
    expect(pgvector.kind).toBe('pgvector')
    const inProcess = new ExactVectorStore(lite, MODEL, 'test')
    await inProcess.load()
    for (const question of QUESTIONS) {
      const expected = await ranked(lite, pgvector, question)
      expect(expected.length).toBeGreaterThan(0)
      expectSameRanking(await ranked(lite, inProcess, question), expected)
    }
    if (!server) return
    // This server has no pgvector; on one that has it, the in-process path is still what is compared here.
    const serverStore = await openVectorStore(server, { model: MODEL, allowPgvector: false })
    expect(serverStore.kind).toBe('exact')
    await serverStore.load()
    for (const question of QUESTIONS) expectSameRanking(await ranked(server, serverStore, question), await ranked(lite, pgvector, question))
  })

  it.skipIf(!hasServer)('searches in process on a server without pgvector, and says so at start', async () => {
    const available = await vectorsRepository.availablePgvector(server!)
    const store = await openVectorStore(server!, { model: MODEL })
    expect(store.kind).toBe(available ? 'pgvector' : 'exact')
    if (!available) expect(store.description).toBe('vectors: exact cosine in process; pgvector is not installed on this PostgreSQL server')
  })

  it('follows additions and deletions committed after it loaded, in every process', async () => {
    for (const db of [lite, server].filter((each): each is Database => each !== undefined)) {
      const store = new ExactVectorStore(db, MODEL, 'test')
      await store.load()
      const knowledge = new KnowledgeService(db)
      const question = 'bamboo fence for climbing beans'
      expect(await ranked(db, store, question)).toEqual([])
      const articleId = await db.transaction(async (tx) => {
        await knowledge.lockIndexWrites(tx)
        const [{ id }] = await tx.query<{ id: number }>(`INSERT INTO articles (title, content) VALUES ('Climbing beans', 'Give climbing beans a bamboo fence or wigwam to climb.') RETURNING id`)
        await knowledge.indexArticle(tx, { id, title: 'Climbing beans', content: 'Give climbing beans a bamboo fence or wigwam to climb.' })
        return id
      })
      expect(await embedMissing(db)).toBe(1)
      expect((await ranked(db, store, question))[0].text).toBe('Give climbing beans a bamboo fence or wigwam to climb.')
      await db.transaction(async (tx) => {
        await knowledge.unindexArticle(tx, articleId)
        await tx.query('DELETE FROM articles WHERE id = $1', [articleId])
      })
      expect(await ranked(db, store, question)).toEqual([])
    }
  })

  it('skips a chunk deleted before its vector is stored, and keeps a vector already stored', async () => {
    const [chunk] = await lite.query<{ id: number }>('SELECT id FROM chunks ORDER BY id LIMIT 1')
    const saved = await lite.transaction((tx) =>
      vectorsRepository.save(tx, MODEL, [
        { chunkId: chunk.id, vector: fixtureEmbedding('something else entirely') },
        { chunkId: 987_654, vector: fixtureEmbedding('a chunk that is gone') },
      ]),
    )
    expect(saved).toBe(0)
    const stored = await vectorsRepository.vectorsOf(lite, MODEL, [chunk.id])
    const [record] = await vectorsRepository.chunkRecords(lite, [chunk.id])
    expect(Array.from(Float32Array.from(stored.get(chunk.id)!))).toEqual(Array.from(Float32Array.from(fixtureEmbedding(embeddingInput(record)))))
  })
})
