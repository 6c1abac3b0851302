import { beforeEach, describe, expect, it } from 'vitest'
import { useGardenEval } from './eval.test-support'
import { createModelAnswerer, modelAnswerConfig } from './model-answer-eval'

describe('the model answers of npm run eval', () => {
  const garden = useGardenEval()

  beforeEach(() => garden.fixture.reset())

  it('are scored only when a language model endpoint is given, read as the backend reads it', () => {
    expect(modelAnswerConfig({ LLM_MODELS: 'fixture-chat' })).toBeUndefined()
    expect(modelAnswerConfig({ LLM_BASE_URL: 'http://127.0.0.1:1/v1', LLM_MODELS: ' fixture-mini , fixture-chat', LLM_TIMEOUT_MS: '5000' })).toEqual({
      LLM_BASE_URL: 'http://127.0.0.1:1/v1',
      LLM_API_KEY: undefined,
      LLM_API_VERSION: undefined,
      LLM_MODELS: ['fixture-mini', 'fixture-chat'],
      LLM_TIMEOUT_MS: 5000,
    })
  })

  it('asks the first model named with the retrieved passages and scores its answer without citation markers', async () => {
    const config = modelAnswerConfig({ LLM_BASE_URL: garden.fixture.baseUrl, LLM_MODELS: 'fixture-mini' })
    const answerer = await createModelAnswerer(garden.base, config!)
    expect(answerer.label).toBe('model answers (fixture-mini)')
    const answer = await answerer.answer('How often do tomato plants want a deep soak in hot spells?')
    expect(answer).toMatch(/deep soak every second or third day/)
    expect(answer).not.toMatch(/\[\d+\]/)
    const chat = garden.fixture.requests.filter((request) => request.messages)
    expect(chat).toHaveLength(1)
    expect(chat[0]?.model).toBe('fixture-mini')
    expect(JSON.stringify(chat[0]?.messages)).toContain('Watering tomatoes')
    expect(answerer.notes()).toEqual([])
  })

  it('uses the endpoint default model when none is named, and gives not-found without asking when nothing matches', async () => {
    const answerer = await createModelAnswerer(garden.base, modelAnswerConfig({ LLM_BASE_URL: garden.fixture.baseUrl })!)
    expect(answerer.label).toBe('model answers (fixture-chat)')
    expect(await answerer.answer('zyxwv qqqq')).toBeNull()
    expect(garden.fixture.requests.filter((request) => request.messages)).toHaveLength(0)
  })

  it('counts the questions a failing model left to the quoted answer', async () => {
    const answerer = await createModelAnswerer(garden.base, modelAnswerConfig({ LLM_BASE_URL: garden.fixture.baseUrl, LLM_MODELS: 'fixture-chat' })!)
    garden.fixture.script('server-error=500', { times: 10 })
    const answer = await answerer.answer('How often do tomato plants want a deep soak in hot spells?')
    expect(answer).toMatch(/deep soak/)
    const notes = answerer.notes()
    expect(notes).toHaveLength(1)
    expect(notes[0]).toMatch(/the model failed on 1 of 1 questions/)
  })
})
