import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openDatabase, type Database } from '../../db/database'
import { migrate } from '../../db/migrate'
import { KnowledgeService } from './knowledge.service'

describe('knowledge index', () => {
  let db: Database
  beforeEach(async () => {
    db = await openDatabase({ url: 'memory://', dataDir: '' })
    await migrate(db)
  })
  afterEach(async () => db.close())

  async function addArticle(knowledge: KnowledgeService, title: string, content: string) {
    return db.transaction(async (tx) => {
      const [row] = await tx.query<{ id: number }>(`INSERT INTO articles (title, content) VALUES ($1, $2) RETURNING id`, [title, content])
      await knowledge.indexArticle(tx, { id: row.id, title, content })
      return row.id
    })
  }

  it('finds an article by a stemmed form of its words', async () => {
    const knowledge = new KnowledgeService(db)
    await addArticle(knowledge, 'Bicycle maintenance', 'Oiling the chain keeps a bicycle running smoothly.')
    const hits = await knowledge.search('how do I oil chains', 5)
    expect(hits.map((hit) => hit.title)).toEqual(['Bicycle maintenance'])
  })

  it('stops finding an article once it is removed from the index', async () => {
    const knowledge = new KnowledgeService(db)
    const id = await addArticle(knowledge, 'Bicycle maintenance', 'Oiling the chain keeps a bicycle running smoothly.')
    await db.transaction((tx) => knowledge.unindexArticle(tx, id))
    expect(await knowledge.search('bicycle chain', 5)).toEqual([])
  })

  it('re-indexes an updated article: old words no longer match, new ones do', async () => {
    const knowledge = new KnowledgeService(db)
    const id = await addArticle(knowledge, 'Bicycle maintenance', 'Oiling the chain keeps a bicycle running smoothly.')
    await db.transaction((tx) => knowledge.indexArticle(tx, { id, title: 'Bicycle maintenance', content: 'Check the tyre pressure weekly.' }))
    expect(await knowledge.search('chain oil', 5)).toEqual([])
    expect((await knowledge.search('tyre pressure', 5)).map((hit) => hit.articleId)).toEqual([id])
    expect(knowledge.chunkCount).toBe(1)
  })

  it('sees changes made by another process through the change log', async () => {
    const writer = new KnowledgeService(db)
    const reader = new KnowledgeService(db)
    await reader.load()
    const id = await addArticle(writer, 'Sourdough starter', 'Feed the starter with flour and water every day.')
    expect((await reader.search('sourdough starter flour', 5)).map((hit) => hit.articleId)).toEqual([id])
    await db.transaction((tx) => writer.unindexArticle(tx, id))
    expect(await reader.search('sourdough starter flour', 5)).toEqual([])
  })

  it('rebuilds the same ranking from the database after a restart', async () => {
    const knowledge = new KnowledgeService(db)
    await addArticle(knowledge, 'Tea', 'Green tea is brewed at 80 degrees for two minutes.')
    await addArticle(knowledge, 'Coffee', 'Espresso is brewed under pressure in about thirty seconds.')
    const before = await knowledge.search('how is tea brewed', 5)
    const restarted = new KnowledgeService(db)
    await restarted.load()
    const after = await restarted.search('how is tea brewed', 5)
    expect(after.map((hit) => [hit.chunkId, hit.score])).toEqual(before.map((hit) => [hit.chunkId, hit.score]))
    expect(after[0].title).toBe('Tea')
  })
})
