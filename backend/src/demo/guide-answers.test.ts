import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from '../db/database'
import { openTestPglite } from '../testing/test-pglite'
import { migrate } from '../db/migrate'
import { KnowledgeService } from '../modules/knowledge/knowledge.service'
import { composeExtractiveAnswer } from '../retrieval/extractive-answer'
import { readDemoArticles } from './demo-content'

/**
 * Questions a new user asks of the built-in guide, on the answer's own path: the guide published and indexed, the
 * knowledge index's search for the sources (4, the default num_sources_k), the extractive answer from them.
 */
describe('the built-in guide, asked of the names on its screens', () => {
  let db: Database
  let knowledge: KnowledgeService
  beforeAll(async () => {
    db = await openTestPglite()
    await migrate(db)
    knowledge = new KnowledgeService(db)
    const articles = await readDemoArticles(path.join(path.dirname(fileURLToPath(import.meta.url)), 'articles'))
    for (const article of articles) {
      await db.transaction(async (tx) => {
        const [row] = await tx.query<{ id: number }>(`INSERT INTO articles (title, content) VALUES ($1, $2) RETURNING id`, [article.title, article.content])
        await knowledge.indexArticle(tx, { id: row!.id, title: article.title, content: article.content })
      })
    }
  })
  afterAll(async () => db.close())

  async function answer(question: string): Promise<string[]> {
    const hits = await knowledge.search(question, 4)
    const sources = hits.map((hit) => ({ articleId: hit.articleId, title: hit.title, text: hit.text, score: hit.score }))
    return composeExtractiveAnswer(question, sources, knowledge.termWeight, {}, knowledge.correctTerm)?.sentences.map((sentence) => sentence.text) ?? []
  }

  it('finds what a button whose name the search reads only in part does, and says nothing else', async () => {
    // "all" is a word the search drops: read as "delete", the question is about every passage on deleting.
    const sentences = await answer('What does Delete all do?')
    expect(sentences[0]).toBe('If an import went wrong entirely, Delete all removes every draft at once.')
    for (const sentence of sentences) expect(sentence).toContain('Delete all')
    expect((await answer('What does the Delete all button do?'))[0]).toBe('If an import went wrong entirely, Delete all removes every draft at once.')
  })

  it('finds a field whose name is made of words the search drops', async () => {
    for (const question of ['What is the Who am I text?', 'Where do I edit Who am I?']) {
      const sentences = await answer(question)
      expect(sentences.length).toBeGreaterThan(0)
      for (const sentence of sentences) expect(sentence).toContain('Who am I')
    }
  })

  it('does not answer from the words of a quoted example', async () => {
    // The guide's only refund is an example of a log comment ('for example "Article on refunds is out of date…"').
    expect(await answer('How do I get a refund?')).toEqual([])
    // A quotation that is no example still answers.
    expect((await answer('What does the "Feedback sent" message mean?'))[0]).toContain('"Feedback sent" message confirms')
  })
})
