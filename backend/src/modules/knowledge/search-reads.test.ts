import { afterEach, describe, expect, it } from 'vitest'
import { openDatabase, type Database } from '../../db/database'
import { migrate } from '../../db/migrate'
import { freshPostgresUrl, isPostgresAvailable } from '../../testing/test-backend'
import { KnowledgeService } from './knowledge.service'
import { eventually } from '../../testing/eventually'

const postgresAvailable = await isPostgresAvailable()

/**
 * The database with every statement sent outside a transaction counted by the table it reads; while `held` is set,
 * reads of the index log wait for it.
 */
function counting(db: Database) {
  const reads = { changes: 0, records: 0, held: undefined as Promise<void> | undefined }
  const counted: Database = {
    ...db,
    kind: db.kind,
    async query<Row>(sql: string, params?: unknown[]) {
      if (/FROM index_changes WHERE seq >/.test(sql)) {
        reads.changes++
        await reads.held
      }
      if (/FROM chunks c JOIN articles/.test(sql)) reads.records++
      return db.query<Row>(sql, params)
    },
    transaction: (work) => db.transaction(work),
    listen: (channel, onNotify) => db.listen(channel, onNotify),
    close: () => db.close(),
  }
  return { db: counted, reads }
}

async function addArticle(db: Database, knowledge: KnowledgeService, title: string, content: string): Promise<number> {
  return db.transaction(async (tx) => {
    const [row] = await tx.query<{ id: number }>(`INSERT INTO articles (title, content) VALUES ($1, $2) RETURNING id`, [title, content])
    await knowledge.indexArticle(tx, { id: row.id, title, content })
    return row.id
  })
}

const databases = [
  { name: 'PGlite', open: async () => ({ url: 'memory://', drop: async () => undefined }) },
  ...(postgresAvailable ? [{ name: 'PostgreSQL', open: () => freshPostgresUrl() }] : []),
]

describe.each(databases)('searching while following the index log on $name', ({ open }) => {
  const cleanups: (() => Promise<void>)[] = []
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
  })

  async function start() {
    const { url, drop } = await open()
    const db = await openDatabase({ url, dataDir: '' })
    await migrate(db)
    cleanups.push(drop, () => db.close())
    return db
  }

  /** A fresh database and a service following its log, whose reads outside transactions are counted (`counting`). */
  async function following() {
    const db = await start()
    const { db: watched, reads } = counting(db)
    const knowledge = new KnowledgeService(watched)
    await knowledge.load()
    // A long interval: only notifications and this process's own commits may start a replay here.
    await knowledge.follow(60_000)
    cleanups.push(() => knowledge.unfollow())
    return { db, reads, knowledge }
  }

  it('reads neither the log nor a kept passage again until something changes, and finds its own commit at once', async () => {
    const { db, reads, knowledge } = await following()
    const id = await addArticle(db, knowledge, 'Sourdough starter', 'Feed the starter with flour and water every day.')

    // This process's commit is found by the very next search.
    expect((await knowledge.search('sourdough starter flour', 5)).map((hit) => hit.articleId)).toEqual([id])
    await eventually(async () => (await knowledge.search('sourdough starter flour', 5)).length === 1 && reads.changes > 0)
    const before = { ...reads }
    for (let round = 0; round < 5; round++) expect((await knowledge.search('sourdough starter flour', 5)).map((hit) => hit.title)).toEqual(['Sourdough starter'])
    expect(reads).toEqual(before)

    // Removed by this process: gone from the next search, and its kept passage with it.
    await db.transaction((tx) => knowledge.unindexArticle(tx, id))
    expect(await knowledge.search('sourdough starter flour', 5)).toEqual([])
  })

  it('waits for a replay that is still applying the log when the search arrives, and so finds a change just made', async () => {
    const { db, reads, knowledge } = await following()
    const id = await addArticle(db, knowledge, 'Kettle descaling', 'Descale the kettle with vinegar every month.')
    expect((await knowledge.search('descale kettle vinegar', 5)).map((hit) => hit.articleId)).toEqual([id])

    await db.transaction(async (tx) => {
      await tx.query(`UPDATE articles SET content = $2 WHERE id = $1`, [id, 'Descale the kettle with citric acid every month.'])
      await knowledge.indexArticle(tx, { id, title: 'Kettle descaling', content: 'Descale the kettle with citric acid every month.' })
    })
    // The commit's notification starts a replay (as here), which has not read the log when the search comes in.
    let release = () => {}
    reads.held = new Promise<void>((resolve) => (release = resolve))
    const replay = knowledge.sync()
    const searched = knowledge.search('descale kettle citric acid', 5)
    setTimeout(release, 50)
    const hits = await searched
    await replay
    expect(hits.map((hit) => hit.text)).toEqual(['Descale the kettle with citric acid every month.'])
  })

  it("finds another process's change once its notification arrives, without a search having to read the log", async () => {
    const db = await start()
    const { db: watched, reads } = counting(db)
    const reader = new KnowledgeService(watched)
    const writer = new KnowledgeService(db)
    await reader.load()
    await reader.follow(60_000)
    cleanups.push(() => reader.unfollow())
    const id = await addArticle(db, writer, 'Kiln firing', 'Bisque firing reaches cone 04 slowly.')
    await eventually(async () => reader.status().chunks === 1)
    expect((await reader.search('bisque firing cone', 5)).map((hit) => hit.articleId)).toEqual([id])
    const changesRead = reads.changes
    await reader.search('bisque firing cone', 5)
    expect(reads.changes).toBe(changesRead)
  })
})
