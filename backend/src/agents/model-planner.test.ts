import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { startOpenAiFixture, type OpenAiFixture } from '../../../tests/fixtures/openai-fixture'
import { CitationList } from '../answering/citations'
import { ExtractiveComposer } from '../answering/extractive-composer'
import { defaultAgentSettings, defaultBotSettings } from '../modules/settings/settings.defaults'
import { OpenAiCompatibleProvider } from '../llm/openai-compatible'
import type { Evidence } from './agent-state'
import { LexicalPlanner } from './lexical-planner'
import { ModelPlanner } from './model-planner'
import { ModelSession, SessionComposer } from './model-session'
import { createBuiltInTools } from './tools/built-in-tools'

const PASSAGE = { chunkId: 7, articleId: 3, title: 'Watering tomato plants', text: 'Tomato plants need deep watering twice a week.', source: 'Watering tomato plants', score: 1 }
const tools = createBuiltInTools({ retriever: { retrieve: async () => [] }, findArticle: async () => [] })

describe('the model planner', () => {
  let fixture: OpenAiFixture
  let provider: OpenAiCompatibleProvider

  beforeAll(async () => {
    fixture = await startOpenAiFixture()
    provider = new OpenAiCompatibleProvider({ baseUrl: fixture.baseUrl, models: ['fixture-chat', 'fixture-mini'], timeoutMs: 5_000, retry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 5 } })
  })
  afterAll(async () => {
    await fixture?.close()
  })
  beforeEach(() => fixture.reset())

  const plannerWith = (session: ModelSession) => new ModelPlanner({ session, settings: defaultAgentSettings, variant: 'general', lexical: new LexicalPlanner() })
  const chatRequests = () => fixture.requests.filter((request) => Array.isArray(request.messages))

  it('turns the model’s tool calls into the retrieve step’s calls, with the ids to answer them by', async () => {
    const session = new ModelSession(provider, 'Use default model')
    const [question] = await plannerWith(session).planCommand('How often should I water tomato plants?', tools)
    expect(question).toMatchObject({ text: 'How often should I water tomato plants?', section: null, toolCalls: [{ tool: 'knowledge_search', input: 'How often should I water tomato plants?', id: expect.any(String) }] })
    expect(session.failure).toBeNull()
    expect(session.takeNotes()).toEqual([{ status: 'done', detail: 'Asked the model (fixture-chat) what to look for; it asked for knowledge_search “How often should I water tomato plants?”.' }])
  })

  it('falls back to the lexical planner for the rest of the run when the model names a tool it was not offered', async () => {
    fixture.script('unknown-tool')
    const session = new ModelSession(provider, 'fixture-mini')
    const planner = plannerWith(session)
    const planned = await planner.planCommand('What is 2 + 2 and how often should I water tomato plants?', tools)
    expect(planner.name).toBe('lexical')
    expect(planned.map((question) => question.toolCalls[0].tool)).toEqual(['arithmetic', 'knowledge_search'])
    expect(session.failure).toMatchObject({ reason: 'bad_response', message: expect.stringContaining('no_such_tool') })
    expect(session.takeNotes()).toEqual([
      { status: 'failed', detail: 'The model did not answer (unusable response); the command is planned from its words instead.', error: expect.stringContaining('no_such_tool') },
    ])
    // Later loops are planned without the model.
    await planner.widen(planned, tools, [])
    expect(chatRequests()).toHaveLength(1)
  })

  it('hands the results back in one message when the conversation was lost in a restart', async () => {
    const session = new ModelSession(provider, 'fixture-chat')
    const question = { text: 'How often should I water tomato plants?', query: 'How often should I water tomato plants?', section: null, toolCalls: [{ tool: 'knowledge_search', input: 'watering', id: 'call_before_restart' }], grade: 0.5, missingWords: ['often'], isSettled: false }
    const evidence: Evidence[] = [{ question: question.text, tool: 'knowledge_search', chunks: [PASSAGE], statement: null, failure: null }]
    const [widened] = await plannerWith(session).widen([question], tools, evidence)
    const [request] = chatRequests()
    expect(request.messages.map((message: { role: string }) => message.role)).toEqual(['system', 'user', 'user'])
    expect(request.messages[2].content).toContain('knowledge_search “watering”:\n“Watering tomato plants”: Tomato plants need deep watering twice a week.')
    // The results are the last user message, so the fixture's model searches once more: a new round.
    expect(widened).toMatchObject({ toolCalls: [{ tool: 'knowledge_search', id: expect.any(String) }], isSettled: false })
  })

  it('searches the question’s own words when the model stops after a tool that found nothing', async () => {
    const session = new ModelSession(provider, 'fixture-chat')
    const planner = plannerWith(session)
    // The fixture's model looks the question up as an article's title; no article has that title, and then it asks
    // for nothing more.
    const [question] = await planner.planCommand('How do I add an article?', tools)
    expect(question.toolCalls).toMatchObject([{ tool: 'article_lookup' }])
    const evidence: Evidence[] = [{ question: question.text, tool: 'article_lookup', chunks: [], statement: null, failure: null }]
    const [widened] = await planner.widen([question], tools, evidence)
    expect(widened).toMatchObject({ toolCalls: [{ tool: 'knowledge_search', input: 'How do I add an article?' }], isSettled: false })
    expect(session.takeNotes().at(-2)).toEqual({ status: 'done', detail: 'Asked the model (fixture-chat) what else to look for; it said it had enough.' })

    // Once the knowledge base has been searched too (in an earlier round), the model's "enough" settles the question.
    const again = plannerWith(new ModelSession(provider, 'fixture-chat'))
    const [asked] = await again.planCommand('How do I add an article?', tools)
    const searched: Evidence[] = [{ question: question.text, tool: 'knowledge_search', chunks: [], statement: null, failure: null }, ...evidence]
    const [settled] = await again.widen([asked], tools, searched)
    expect(settled).toMatchObject({ toolCalls: [], isSettled: true })
  })

  it('names a model the endpoint does not offer in the trace, and asks it once', async () => {
    const session = new ModelSession(provider, 'fixture-model')
    const composer = new SessionComposer({ session, settings: defaultBotSettings, termWeight: () => 1, fallback: new ExtractiveComposer(() => 1), isFailureForTheRun: true })
    const quoted = await composer.composePart({ question: 'tomato plants', focus: 'Watering', chunks: [PASSAGE], citations: new CitationList() })
    expect(quoted?.text).toMatch(/^Tomato plants need deep watering twice a week\b/)
    expect(fixture.log.map((entry) => entry.status)).toEqual([404])
    expect(session.failure).toMatchObject({ reason: 'model_not_found' })
    expect(session.takeNotes()).toEqual([
      { status: 'failed', detail: 'The model did not answer (the model fixture-model is not available at the endpoint); the answer quotes the passages instead.', error: expect.stringContaining('fixture-model') },
    ])
  })

  it('does not take a cancelled run for a model failure', async () => {
    const controller = new AbortController()
    const session = new ModelSession(provider, 'fixture-chat', controller.signal)
    fixture.script('hang')
    const planning = plannerWith(session).planCommand('How often should I water tomato plants?', tools)
    // Cancelled while the model is thinking (the fixture holds the request).
    while (fixture.log.length === 0) await new Promise((resolve) => setTimeout(resolve, 5))
    controller.abort('cancelled')
    await expect(planning).rejects.toBeDefined()
    expect(session.failure).toBeNull()
  })

  it('writes with the model and, for a template section, falls back on its own without stopping the next section', async () => {
    const session = new ModelSession(provider, 'fixture-chat')
    const composer = new SessionComposer({ session, settings: defaultBotSettings, termWeight: () => 1, fallback: new ExtractiveComposer(() => 1), isFailureForTheRun: false })
    const citations = new CitationList()
    const section = { title: 'Watering', instructions: 'How often to water.' }
    fixture.script('server-error=500', { times: 2 })
    const quoted = await composer.composePart({ question: 'tomato plants', focus: 'Watering', section, chunks: [PASSAGE], citations })
    expect(quoted?.text).toMatch(/^Tomato plants need deep watering twice a week\b.*\[1\]/)
    expect(fixture.log.map((entry) => entry.status)).toEqual([500, 500])
    expect(session.takeNotes()).toEqual([
      { status: 'failed', detail: 'The model did not answer (server error); the section “Watering” quotes the passages instead.', error: expect.any(String) },
    ])
    const written = await composer.composePart({ question: 'tomato plants', focus: 'Watering', section, chunks: [PASSAGE], citations })
    expect(written?.citedChunkIds).toEqual([7])
    expect(composer.name).toBe('model')
    expect(chatRequests().at(-1)!.messages[0].content).toContain('You are writing the section “Watering” of a document.')
  })

  it('quotes the passages for a section when the model’s text cites none of them, and shows no refusal', async () => {
    const session = new ModelSession(provider, 'fixture-chat')
    const composer = new SessionComposer({ session, settings: defaultBotSettings, termWeight: () => 1, fallback: new ExtractiveComposer(() => 1), isFailureForTheRun: false })
    const citations = new CitationList()
    const section = { title: 'Semantic firewall and personal data', instructions: '' }
    const passage = { ...PASSAGE, chunkId: 11, title: 'What the semantic firewall does', source: 'What the semantic firewall does', text: 'Personal data here means an email address, a phone number or a card or identity number.' }
    // The fixture's model answers the question, "new staff", which no passage speaks of: "The sources do not answer this question."
    const part = await composer.composePart({ question: 'new staff', focus: `${section.title}\n`, section, chunks: [passage], citations })
    expect(chatRequests()).toHaveLength(1)
    expect(part?.text).not.toMatch(/do not answer/)
    expect(part?.text).toMatch(/^Personal data here means an email address\b.*\[1\]/)
    expect(part?.citedChunkIds).toEqual([11])
    expect(session.takeNotes()).toEqual([{ status: 'done', detail: expect.stringMatching(/without citing any of the passages found, so it quotes them instead\.$/) }])
  })

  it('quotes the passages for a section when the firewall leaves the model none of them', async () => {
    const session = new ModelSession(provider, 'fixture-chat')
    const screenPassage = (text: string) => ({ text: '', removed: [text] })
    const composer = new SessionComposer({ session, settings: defaultBotSettings, termWeight: () => 1, screenPassage, fallback: new ExtractiveComposer(() => 1), isFailureForTheRun: false })
    const section = { title: 'Watering', instructions: 'How often to water.' }
    const part = await composer.composePart({ question: 'tomato plants', focus: 'Watering', section, chunks: [PASSAGE], citations: new CitationList() })
    expect(chatRequests()).toHaveLength(0)
    expect(part?.text).toMatch(/^Tomato plants need deep watering twice a week\b.*\[1\]/)
  })
})
