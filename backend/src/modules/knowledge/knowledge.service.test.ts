import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Database } from '../../db/database'
import { openTestPglite } from '../../testing/test-pglite'
import { migrate } from '../../db/migrate'
import { countChunkTerms } from '../../retrieval/bm25-index'
import { chunkArticle } from '../../retrieval/chunker'
import { INDEX_FORMAT, KnowledgeService } from './knowledge.service'

describe('knowledge index', () => {
  let db: Database
  beforeEach(async () => {
    db = await openTestPglite()
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

  it("finds the guide to an action asked in another verb that does the same ('create' where it says 'add')", async () => {
    const knowledge = new KnowledgeService(db)
    await addArticle(knowledge, 'How to correct a bad answer', '## Create a correction\n\n1. Open the log.\n2. Choose to create a correction, saved as a draft article.')
    await addArticle(knowledge, 'How to add an article', '1. Open the Add article form.\n2. Enter a title and the content of the article.\n3. Submit the form.')
    await addArticle(knowledge, 'Themes', 'Each sponsor has its own theme, logo and colours.')
    await addArticle(knowledge, 'Roles', 'Editors look after the content; administrators manage users.')
    expect((await knowledge.search('How do I create an article?', 5)).map((hit) => hit.title)).toEqual(['How to add an article', 'How to correct a bad answer'])
    // Asked as a task in a few words, the same (ADR 270).
    expect((await knowledge.search('create an article', 5)).map((hit) => hit.title)).toEqual(['How to add an article', 'How to correct a bad answer'])
    // Not asked how to: the words as they are.
    expect((await knowledge.search('creating an article', 5)).map((hit) => hit.title)).toEqual(['How to correct a bad answer', 'How to add an article'])
  })

  it('ranks a passage with steps higher for a how-to question', async () => {
    const knowledge = new KnowledgeService(db)
    await addArticle(
      knowledge,
      'Video transcripts',
      'Training videos and webinars hold knowledge that is written down nowhere else. A video transcript is the text of what was said, so people who cannot watch a video can read it. Search then finds the words of the talk as it finds those of any article.',
    )
    await addArticle(knowledge, 'Transcript steps', '## Steps\n\n1. Open the form.\n2. Paste the video transcript.\n3. Submit it.')
    await addArticle(knowledge, 'Themes', 'Each sponsor has its own theme, logo and colours.')
    await addArticle(knowledge, 'Roles', 'Editors look after the content; administrators manage users.')
    expect((await knowledge.search('video transcript', 1)).map((hit) => hit.title)).toEqual(['Video transcripts'])
    expect((await knowledge.search('How do I add a video transcript?', 1)).map((hit) => hit.title)).toEqual(['Transcript steps'])
    // Asked in the passive, it asks the same.
    expect((await knowledge.search('How is a video transcript added?', 1)).map((hit) => hit.title)).toEqual(['Transcript steps'])
  })

  it('ranks a passage that says what the asked thing is higher for "What is …?", from below the limit', async () => {
    const knowledge = new KnowledgeService(db)
    // Short passages that name agents; the one that says what an agent is, longer, scores just below them.
    await addArticle(knowledge, 'Settings', 'Administrators configure each agent on the Settings tab, with its name, its instructions and its tools.')
    await addArticle(knowledge, 'Workflow', 'The workflow graph on the Settings tab shows how the agent plans, searches and grades its evidence.')
    await addArticle(knowledge, 'Tips', 'If an agent answer seems thin, ask an administrator to turn on the debug trace and look at it.')
    await addArticle(
      knowledge,
      'Requests in several steps',
      'Some requests need several steps. An agent is an assistant that works through them alone.',
    )
    expect((await knowledge.search('agent', 2)).map((hit) => hit.title)).not.toContain('Requests in several steps')
    expect((await knowledge.search('What is an agent?', 2)).map((hit) => hit.title)[0]).toBe('Requests in several steps')
    // A passage that judges it ("… is too slow") does not say what it is.
    await addArticle(knowledge, 'Slow answers', 'The agent is too slow to answer all the questions in time on a busy day.')
    expect((await knowledge.search('What is an agent?', 2)).map((hit) => hit.title)).toEqual(['Requests in several steps', 'Settings'])
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

  it('stores every chunk with its terms, and one add per chunk in the change log, in chunk order', async () => {
    const knowledge = new KnowledgeService(db)
    const content = Array.from({ length: 40 }, (_, position) => `Sentence ${position} about pruning apple trees in winter.`).join(' ')
    const id = await addArticle(knowledge, 'Pruning apple trees', content)
    const expected = chunkArticle(content).map((chunk) => ({ ordinal: chunk.ordinal, text: chunk.text, ...countChunkTerms(chunk.text, 'Pruning apple trees') }))
    expect(expected.length).toBeGreaterThan(1)
    const rows = await db.query<{ id: number; ordinal: number; text: string; terms: Record<string, number>; length: number }>(
      `SELECT id, ordinal, text, terms, length FROM chunks WHERE article_id = $1 ORDER BY id`,
      [id],
    )
    expect(rows.map(({ ordinal, text, terms, length }) => ({ ordinal, text, terms, length }))).toEqual(expected)
    const log = await db.query<{ chunk_id: number; operation: string }>(`SELECT chunk_id, operation FROM index_changes ORDER BY seq`)
    expect(log).toEqual(rows.map((row) => ({ chunk_id: row.id, operation: 'add' })))

    await db.transaction((tx) => knowledge.indexArticle(tx, { id, title: 'Pruning apple trees', content: 'Prune in late winter.' }))
    const changes = await db.query<{ chunk_id: number; operation: string }>(`SELECT chunk_id, operation FROM index_changes ORDER BY seq OFFSET $1`, [rows.length])
    const [replacement] = await db.query<{ id: number }>(`SELECT id FROM chunks WHERE article_id = $1`, [id])
    expect(changes).toEqual([...rows.map((row) => ({ chunk_id: row.id, operation: 'remove' })), { chunk_id: replacement.id, operation: 'add' }])
  })

  it('leaves no chunk and no log entry behind when the transaction that indexed them fails', async () => {
    const knowledge = new KnowledgeService(db)
    await expect(
      db.transaction(async (tx) => {
        const [row] = await tx.query<{ id: number }>(`INSERT INTO articles (title, content) VALUES ('Tea', 'Green tea is brewed at 80 degrees.') RETURNING id`)
        await knowledge.indexArticle(tx, { id: row.id, title: 'Tea', content: 'Green tea is brewed at 80 degrees.' })
        throw new Error('publishing failed')
      }),
    ).rejects.toThrow('publishing failed')
    expect(await db.query(`SELECT id FROM chunks`)).toEqual([])
    expect(await db.query(`SELECT seq FROM index_changes`)).toEqual([])
    expect(await knowledge.search('green tea', 5)).toEqual([])
  })

  it('rebuilds chunks stored by an older tokenizer when it loads', async () => {
    const [article] = await db.query<{ id: number }>(`INSERT INTO articles (title, content) VALUES ('IL6 signalling', 'IL-6 drives inflammation.') RETURNING id`)
    // What the previous version stored: the title counted once, no letter and digit runs.
    await db.query(`INSERT INTO chunks (article_id, ordinal, text, terms, length) VALUES ($1, 0, 'IL-6 drives inflammation.', $2::jsonb, 6)`, [
      article.id,
      JSON.stringify({ il6: 1, signal: 1, il: 1, '6': 1, drive: 1, inflamm: 1 }),
    ])
    const knowledge = new KnowledgeService(db)
    await knowledge.load()
    const [chunk] = await db.query<{ terms: Record<string, number>; length: number }>(`SELECT terms, length FROM chunks WHERE article_id = $1`, [article.id])
    expect(chunk).toEqual(countChunkTerms('IL-6 drives inflammation.', 'IL6 signalling'))
    expect(knowledge.chunkCount).toBe(1)
    expect((await knowledge.search('IL6 inflammation', 5)).map((hit) => hit.articleId)).toEqual([article.id])
    const [state] = await db.query<{ value: unknown }>(`SELECT value FROM app_state WHERE key = 'index_format'`)
    expect(state.value).toEqual({ version: INDEX_FORMAT, language: 'en' })
  })

  it('finds articles written in other scripts by a question in their language', async () => {
    const knowledge = new KnowledgeService(db)
    const russian = await addArticle(knowledge, 'Публикация черновиков', 'Черновик публикует редактор: откройте черновик и выберите «Опубликовать».')
    const japanese = await addArticle(knowledge, '下書きの公開', '編集者が下書きを開いて公開を選びます。')
    await addArticle(knowledge, 'Themes', 'Each sponsor has its own theme, logo and colours.')
    expect((await knowledge.search('Кто публикует черновик?', 5)).map((hit) => hit.articleId)).toEqual([russian])
    expect((await knowledge.search('下書きを公開するには', 5)).map((hit) => hit.articleId)).toEqual([japanese])
  })

  it('rebuilds the chunks of the previous format, whose tokenizer kept only Latin letters, when it loads', async () => {
    const content = 'Черновик публикует редактор.'
    const [article] = await db.query<{ id: number }>(`INSERT INTO articles (title, content) VALUES ('Черновики', $1) RETURNING id`, [content])
    // Format 3 found no term in Cyrillic.
    await db.query(`INSERT INTO chunks (article_id, ordinal, text, terms, length) VALUES ($1, 0, $2, '{}'::jsonb, 0)`, [article.id, content])
    await db.query(`INSERT INTO app_state (key, value) VALUES ('index_format', '{"version": 3}'::jsonb)`)
    const knowledge = new KnowledgeService(db)
    await knowledge.load()
    expect((await knowledge.search('черновик', 5)).map((hit) => hit.articleId)).toEqual([article.id])
    const [state] = await db.query<{ value: unknown }>(`SELECT value FROM app_state WHERE key = 'index_format'`)
    expect(state.value).toEqual({ version: INDEX_FORMAT, language: 'en' })
  })

  it('keeps chunks already in the current format as they are when it loads', async () => {
    const knowledge = new KnowledgeService(db)
    await addArticle(knowledge, 'Tea', 'Green tea is brewed at 80 degrees for two minutes.')
    const before = await db.query(`SELECT id, terms FROM chunks ORDER BY id`)
    const restarted = new KnowledgeService(db)
    await restarted.load()
    expect(await db.query(`SELECT id, terms FROM chunks ORDER BY id`)).toEqual(before)
    expect(await db.query(`SELECT seq FROM index_changes WHERE operation = 'remove'`)).toEqual([])
  })

  it('takes a format recorded before languages were as English, and re-indexes nothing for it', async () => {
    const knowledge = new KnowledgeService(db)
    await addArticle(knowledge, 'Tea', 'Green tea is brewed at 80 degrees for two minutes.')
    await db.query(`UPDATE app_state SET value = $1::jsonb WHERE key = 'index_format'`, [JSON.stringify({ version: INDEX_FORMAT })])
    const before = await db.query(`SELECT id, terms FROM chunks ORDER BY id`)
    await new KnowledgeService(db).load()
    expect(await db.query(`SELECT id, terms FROM chunks ORDER BY id`)).toEqual(before)
    expect(await db.query(`SELECT seq FROM index_changes WHERE operation = 'remove'`)).toEqual([])
  })
})
