import { afterAll, beforeAll } from 'vitest'
import { GARDEN_ARTICLES } from '../../backend/src/vectors/vectors.test-support'
import { startOpenAiFixture, type OpenAiFixture } from '../../tests/fixtures/openai-fixture'
import { ingestIntoProduct, type ProductKnowledgeBase } from './product-engine'

/**
 * For a describe block of the eval's tests: the OpenAI-compatible fixture server and the garden articles published
 * into an evaluation knowledge base, started before its tests and closed after them. Read the fields in tests.
 */
export function useGardenEval(): { fixture: OpenAiFixture; base: ProductKnowledgeBase } {
  const state = {} as { fixture: OpenAiFixture; base: ProductKnowledgeBase }
  beforeAll(async () => {
    state.fixture = await startOpenAiFixture()
    state.base = await ingestIntoProduct(GARDEN_ARTICLES.map((article, index) => ({ id: `d${index}`, title: article.title, text: article.content })))
  })
  afterAll(async () => {
    await state.base?.close()
    await state.fixture?.close()
  })
  return state
}
