import { describe, expect, it } from 'vitest'
import { GARDEN_ARTICLES, PARAPHRASED } from '../../backend/src/vectors/vectors.test-support'
import { useGardenEval } from './eval.test-support'
import { createHybridEngines, hybridEvalConfig } from './hybrid-eval'

describe('the hybrid path of npm run eval', () => {
  const garden = useGardenEval()

  it('runs only when an embeddings endpoint and model are given', async () => {
    expect(hybridEvalConfig({ EMBEDDINGS_MODEL: 'fixture-embed' })).toBeUndefined()
    expect(await createHybridEngines(garden.base, undefined)).toEqual([])
  })

  it('embeds the knowledge base once and ranks documents by vector, hybrid and MMR search', async () => {
    const config = hybridEvalConfig({ EMBEDDINGS_BASE_URL: garden.fixture.baseUrl, EMBEDDINGS_MODEL: 'fixture-embed' })
    const engines = await createHybridEngines(garden.base, config)
    expect(engines.map(({ engine }) => engine.name)).toEqual([
      'knowledge-base vector (fixture-embed)',
      'knowledge-base hybrid weighted 0.5/0.5 (fixture-embed)',
      'knowledge-base hybrid rrf (fixture-embed)',
      'knowledge-base mmr λ 0.7 (fixture-embed)',
    ])
    const embedded = garden.fixture.requests.flatMap((request) => [request.input].flat())
    expect(embedded).toHaveLength(GARDEN_ARTICLES.length)
    const answering = `d${GARDEN_ARTICLES.findIndex((article) => article.title === PARAPHRASED.title)}`
    for (const { engine } of engines) {
      const ranking = await engine.search(PARAPHRASED.question, 3)
      expect(ranking[0], engine.name).toBe(answering)
      expect(new Set(ranking).size).toBe(ranking.length)
    }
  })
})
