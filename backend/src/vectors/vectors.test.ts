import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startOpenAiFixture, type OpenAiFixture } from '../../../tests/fixtures/openai-fixture'
import type { SearchHit } from '../answering/retriever'
import { isPostgresAvailable, publishArticles, startTestBackend, type StorageKind, type TestBackend } from '../testing/test-backend'
import type { RetrievalSettings, SearchType } from './search-retriever'
import { GARDEN_ARTICLES, PARAPHRASED } from './vectors.test-support'

const MODEL = 'fixture-embed'
const NEW_MODEL = 'fixture-embed-large'
const PRUNING = new Set(['Pruning roses', 'Rose pruning guide', 'Pruning roses in winter'])
const DEFAULTS: RetrievalSettings = { search_type: 'keyword', hybrid_fusion: 'weighted', hybrid_keyword_weight: 0.5, hybrid_vector_weight: 0.5, mmr_lambda: 0.7 }
const ALL_TYPES: SearchType[] = ['keyword', 'vector', 'hybrid', 'mmr']

/** Polls check_embeddings until no pass is pending and every passage has a vector (or the pass failed). */
async function waitForVectors(server: TestBackend) {
  for (let attempt = 0; attempt < 1200; attempt++) {
    const { body } = await server.call('/admin/check_embeddings')
    const vectors = body.embeddings
    if (vectors.status === 'failed') return vectors
    if (!['queued', 'running'].includes(vectors.status) && vectors.chunks > 0 && vectors.embedded + vectors.refused === vectors.chunks) return vectors
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error('the passages were not embedded')
}

const titles = (hits: SearchHit[]) => hits.map((hit) => hit.title)
/** 1 / the rank of the passage titled `title`, 0 when it is not listed. */
const reciprocalRank = (hits: SearchHit[], title: string) => {
  const index = titles(hits).indexOf(title)
  return index < 0 ? 0 : 1 / (index + 1)
}

for (const kind of ['pglite', 'postgres'] as StorageKind[]) {
  describe(`vector, hybrid and MMR search on ${kind}`, async () => {
    const isAvailable = kind === 'pglite' || (await isPostgresAvailable())
    let fixture: OpenAiFixture
    let server: TestBackend
    const search = (query: string, settings: Partial<RetrievalSettings>, limit = 5, scoreThreshold = 0) =>
      server.backend.services.retriever.search(query, { limit, scoreThreshold }, { ...DEFAULTS, ...settings })

    beforeAll(async () => {
      if (!isAvailable) return
      fixture = await startOpenAiFixture({ embeddingModels: [MODEL, NEW_MODEL] })
      server = await startTestBackend(kind, { EMBEDDINGS_BASE_URL: fixture.baseUrl, EMBEDDINGS_MODEL: MODEL })
      await publishArticles(server, [...GARDEN_ARTICLES])
      await waitForVectors(server)
    })

    afterAll(async () => {
      await server?.stop()
      await fixture?.close()
    })

    describe.skipIf(!isAvailable)(kind, () => {
      it('embeds what publishing indexed, and check_embeddings reports it', async () => {
        const { body } = await server.call('/admin/check_embeddings')
        expect(body.status).toBe('finished')
        expect(body.embeddings).toMatchObject({ status: 'finished', model: MODEL, embedded: GARDEN_ARTICLES.length, chunks: GARDEN_ARTICLES.length, refused: 0 })
        expect(body.embeddings.message).toBe(`${GARDEN_ARTICLES.length} of ${GARDEN_ARTICLES.length} passages have vectors (${MODEL})`)
        const inputs = fixture.requests.filter((request) => request.model === MODEL).flatMap((request) => [request.input].flat())
        expect(inputs).toContain(`Watering tomatoes\n\n${GARDEN_ARTICLES[0].content}`)
      })

      it('finds a paraphrased passage by vector, as Bot settings choose', async () => {
        const [best] = await search(PARAPHRASED.question, { search_type: 'vector' })
        expect(best.title).toBe(PARAPHRASED.title)
        expect(best.score).toBeGreaterThan(0)
        expect(best.score).toBeLessThanOrEqual(1)
        const chosen = await server.call('/admin/bot_setting', { method: 'PUT', body: { search_type: 'vector' } })
        expect(chosen.status).toBe(200)
        // The settings screen offers the vector search types once an embeddings model is configured.
        expect(chosen.body.embeddings_configured).toBe(true)
        const [retrieved] = await server.backend.services.retriever.retrieve(PARAPHRASED.question, { limit: 4, scoreThreshold: 0 })
        expect(retrieved).toMatchObject({ title: PARAPHRASED.title, score: Number(best.score.toFixed(4)) })
        await server.call('/admin/bot_setting', { method: 'PUT', body: { search_type: 'keyword' } })
      })

      it('ranks the answering passage by hybrid search at least as high as by keyword or vector search alone', async () => {
        // Keyword search gets the first right and the second wrong; vector search the other way round.
        const cases = [
          { question: 'compost bin smell', title: 'Composting basics' },
          { question: 'cut grass', title: 'Lawn care in summer' },
        ]
        const total = async (settings: Partial<RetrievalSettings>) => {
          let sum = 0
          for (const { question, title } of cases) sum += reciprocalRank(await search(question, settings), title)
          return sum
        }
        const keyword = await total({ search_type: 'keyword' })
        const vector = await total({ search_type: 'vector' })
        expect(keyword).toBeLessThan(cases.length)
        expect(vector).toBeLessThan(cases.length)
        for (const fusion of ['weighted', 'rrf'] as const) {
          const hybrid = await total({ search_type: 'hybrid', hybrid_fusion: fusion })
          expect(hybrid).toBe(cases.length)
          expect(hybrid).toBeGreaterThanOrEqual(Math.max(keyword, vector))
        }
        // The weights matter: all on one list is that list's order.
        const keywordOnly = await search('cut grass', { search_type: 'hybrid', hybrid_keyword_weight: 1, hybrid_vector_weight: 0 })
        expect(titles(keywordOnly)).toEqual(titles(await search('cut grass', { search_type: 'keyword' })))
      })

      it('follows each hybrid weight on its own, and the weights saved in Bot settings', async () => {
        // Each weight alone decides: with the other at 0, hybrid search orders as that list does.
        for (const question of ['compost bin smell', 'cut grass']) {
          const keyword = titles(await search(question, { search_type: 'keyword' }))
          const vector = titles(await search(question, { search_type: 'vector' }))
          expect(keyword).not.toEqual(vector)
          expect(titles(await search(question, { search_type: 'hybrid', hybrid_keyword_weight: 1, hybrid_vector_weight: 0 }))).toEqual(keyword)
          expect(titles(await search(question, { search_type: 'hybrid', hybrid_keyword_weight: 0, hybrid_vector_weight: 1 }))).toEqual(vector)
        }
        // The saved weights are the ones the ask path's retriever uses.
        const question = 'cut grass'
        const vectorOnly = titles(await search(question, { search_type: 'hybrid', hybrid_keyword_weight: 0, hybrid_vector_weight: 1 }, 3))
        const saved = await server.call('/admin/bot_setting', { method: 'PUT', body: { search_type: 'hybrid', hybrid_keyword_weight: '0', hybrid_vector_weight: '1' } })
        expect(saved.body).toMatchObject({ search_type: 'hybrid', hybrid_keyword_weight: 0, hybrid_vector_weight: 1 })
        expect((await server.backend.services.retriever.retrieve(question, { limit: 3, scoreThreshold: 0 })).map((chunk) => chunk.title)).toEqual(vectorOnly)
        const keywordOnly = titles(await search(question, { search_type: 'hybrid', hybrid_keyword_weight: 1, hybrid_vector_weight: 0 }, 3))
        expect(keywordOnly).not.toEqual(vectorOnly)
        await server.call('/admin/bot_setting', { method: 'PUT', body: { hybrid_keyword_weight: 1, hybrid_vector_weight: 0 } })
        expect((await server.backend.services.retriever.retrieve(question, { limit: 3, scoreThreshold: 0 })).map((chunk) => chunk.title)).toEqual(keywordOnly)
        await server.call('/admin/bot_setting', { method: 'PUT', body: { search_type: 'keyword', hybrid_keyword_weight: 0.5, hybrid_vector_weight: 0.5 } })
      })

      it('orders by rank with RRF, which changes the ranking, as Bot settings choose', async () => {
        const question = 'grass in summer drought'
        const weighted = titles(await search(question, { search_type: 'hybrid', hybrid_fusion: 'weighted' }, 3))
        const rrf = titles(await search(question, { search_type: 'hybrid', hybrid_fusion: 'rrf' }, 3))
        expect(weighted).toEqual(['Lawn care in summer', 'Mulching beds', 'Feeding roses'])
        expect(rrf).toEqual(['Lawn care in summer', 'Feeding roses', 'Mulching beds'])
        const saved = await server.call('/admin/bot_setting', { method: 'PUT', body: { search_type: 'hybrid', hybrid_fusion: 'rrf' } })
        expect(saved.body).toMatchObject({ search_type: 'hybrid', hybrid_fusion: 'rrf' })
        expect((await server.backend.services.retriever.retrieve(question, { limit: 3, scoreThreshold: 0 })).map((chunk) => chunk.title)).toEqual(rrf)
        await server.call('/admin/bot_setting', { method: 'PUT', body: { search_type: 'keyword', hybrid_fusion: 'weighted' } })
      })

      it('diversifies with MMR at λ = 0.3, where λ = 1 keeps three near-duplicates', async () => {
        const question = 'when to prune roses'
        const relevant = titles(await search(question, { search_type: 'mmr', mmr_lambda: 1 }, 3))
        const diverse = titles(await search(question, { search_type: 'mmr', mmr_lambda: 0.3 }, 3))
        expect(relevant.filter((title) => PRUNING.has(title))).toHaveLength(3)
        expect(titles(await search(question, { search_type: 'hybrid' }, 3))).toEqual(relevant)
        expect(diverse[0]).toBe(relevant[0])
        expect(diverse.filter((title) => PRUNING.has(title))).toHaveLength(1)
        expect(diverse).toHaveLength(3)
        const saved = await server.call('/admin/bot_setting', { method: 'PUT', body: { search_type: 'mmr', mmr_lambda: '0.3' } })
        expect(saved.body).toMatchObject({ search_type: 'mmr', mmr_lambda: 0.3 })
        expect((await server.backend.services.retriever.retrieve(question, { limit: 3, scoreThreshold: 0 })).map((chunk) => chunk.title)).toEqual(diverse)
        await server.call('/admin/bot_setting', { method: 'PUT', body: { search_type: 'keyword', mmr_lambda: 0.7 } })
      })

      it('honours num_sources_k and score_threshold with every search type', async () => {
        const question = 'roses flowers summer'
        for (const searchType of ALL_TYPES) {
          const settings = { search_type: searchType, mmr_lambda: 1 }
          const all = await search(question, settings, 10)
          expect(all.length, searchType).toBeGreaterThan(2)
          expect(await search(question, settings, 2), searchType).toEqual(all.slice(0, 2))
          // A threshold between the best and the worst score drops the passages below it, and only those.
          const threshold = (all[0].score + all[all.length - 1].score) / 2
          const kept = await search(question, settings, 10, threshold)
          expect(kept.length, searchType).toBeGreaterThan(0)
          expect(kept, searchType).toEqual(all.filter((hit) => hit.score >= threshold))
          expect(await search(question, settings, 10, all[0].score + 0.001), searchType).toEqual([])
        }
      })

      it('accepts a vector search type with embeddings configured, and refuses a threshold it could never meet', async () => {
        expect((await server.call('/admin/bot_setting', { method: 'PUT', body: { search_type: 'hybrid', score_threshold: 0.2 } })).status).toBe(200)
        const refused = await server.call('/admin/bot_setting', { method: 'PUT', body: { score_threshold: 2.5 } })
        expect(refused.status).toBe(400)
        expect(refused.body.details[0].field).toBe('score_threshold')
        expect(refused.body.message).toContain('from 0 to 1')
        const bothZero = await server.call('/admin/bot_setting', { method: 'PUT', body: { hybrid_keyword_weight: 0, hybrid_vector_weight: 0 } })
        expect(bothZero.status).toBe(400)
        expect((await server.call('/admin/bot_setting', { method: 'PUT', body: { mmr_lambda: 1.5 } })).body.details[0].field).toBe('mmr_lambda')
        expect((await server.call('/admin/bot_setting', { method: 'PUT', body: { hybrid_fusion: 'sum' } })).status).toBe(400)
        const restored = await server.call('/admin/bot_setting', { method: 'PUT', body: { search_type: 'keyword', score_threshold: 0 } })
        expect(restored.body).toMatchObject({ search_type: 'keyword', score_threshold: 0, hybrid_fusion: 'weighted', hybrid_keyword_weight: 0.5, hybrid_vector_weight: 0.5 })
      })

      it('embeds an edited article again and forgets a deleted one', async () => {
        const [tomatoes] = await search(PARAPHRASED.question, { search_type: 'vector' }, 1)
        const edited = await server.call('/admin/update_doc', {
          method: 'PUT',
          body: { id: tomatoes.articleId, content: 'Tomato plants climb a bamboo cane; tie the stem loosely with soft twine every thirty centimetres.' },
        })
        expect(edited.status).toBe(200)
        await waitForVectors(server)
        const [tied] = await search('tie tomato stems to a bamboo cane with twine', { search_type: 'vector' }, 1)
        expect(tied).toMatchObject({ articleId: tomatoes.articleId, text: expect.stringContaining('bamboo cane') })
        expect((await server.call('/admin/delete_article', { method: 'DELETE', body: { id: tomatoes.articleId } })).status).toBe(200)
        const after = await search('tie tomato stems to a bamboo cane with twine', { search_type: 'vector' }, 5)
        expect(after.map((hit) => hit.articleId)).not.toContain(tomatoes.articleId)
      })

      it('answers from keyword search when the embeddings endpoint fails', async () => {
        fixture.reset()
        // Every try of the question's embedding fails (the provider tries three times).
        fixture.script(['server-error=500'], { times: 3, endpoint: 'embeddings' })
        const hits = await search('slugs after rain at night', { search_type: 'hybrid' }, 3)
        expect(hits[0]).toMatchObject({ title: 'Slugs and snails', score: 1 })
        expect(titles(hits)).toEqual(titles(await search('slugs after rain at night', { search_type: 'keyword' }, 3)))
        expect(fixture.log.filter((entry) => entry.path.endsWith('/embeddings')).map((entry) => entry.status)).toEqual([500, 500, 500])
        fixture.reset()
      })

      it('leaves out a passage the endpoint refuses to embed, and says so', async () => {
        // A batch of one passage: refused, it is left out at once.
        fixture.script(['server-error=400'], { times: 1, endpoint: 'embeddings' })
        await publishArticles(server, [{ title: 'Seed saving', content: 'Dry bean seeds on a tray for two weeks before storing them in paper envelopes.' }])
        const vectors = await waitForVectors(server)
        expect(vectors).toMatchObject({ status: 'finished', refused: 1, embedded: vectors.chunks - 1 })
        expect(vectors.message).toContain('refused 1')
        // Keyword search still finds it, and hybrid search through its keyword side.
        expect((await search('saving bean seeds', { search_type: 'keyword' }, 1))[0].title).toBe('Seed saving')
        expect(titles(await search('saving bean seeds', { search_type: 'hybrid' }, 3))).toContain('Seed saving')
        expect(titles(await search('saving bean seeds', { search_type: 'vector' }, 10))).not.toContain('Seed saving')
      })

      it('embeds every passage again when the model changes, then drops the old vectors', async () => {
        fixture.reset()
        server = await server.restart({ EMBEDDINGS_MODEL: NEW_MODEL })
        const vectors = await waitForVectors(server)
        expect(vectors).toMatchObject({ status: 'finished', model: NEW_MODEL, refused: 0 })
        expect(vectors.embedded).toBe(vectors.chunks)
        const [pass] = await server.backend.db.query<{ payload: { model: string; reason: string } }>(`SELECT payload FROM jobs WHERE kind = 'embed_chunks' ORDER BY created_at DESC LIMIT 1`)
        expect(pass.payload).toEqual({ model: NEW_MODEL, reason: 'model_change' })
        const models = await server.backend.db.query<{ model: string }>('SELECT DISTINCT model FROM chunk_embeddings')
        expect(models.map((row) => row.model)).toEqual([NEW_MODEL])
        const embedded = fixture.requests.filter((request) => request.model === NEW_MODEL).flatMap((request) => [request.input].flat())
        expect(embedded.length).toBeGreaterThanOrEqual(vectors.chunks)
        const [best] = await search('when to prune roses', { search_type: 'vector' }, 1)
        expect(PRUNING.has(best.title)).toBe(true)
      })
    })
  })
}
