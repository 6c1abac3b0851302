import type { AgentTraceEntry } from '../../../../contracts/agents'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { startOpenAiFixture, type OpenAiFixture } from '../../../../tests/fixtures/openai-fixture'
import { isPostgresAvailable, publishArticles, startTestBackend, type StorageKind, type TestBackend } from '../../testing/test-backend'
import { defaultAgentSettings } from '../settings/settings.defaults'
import { GARDEN_GUIDE, PERMIT_GUIDE, resetAgentSettings, runAgent, setAgentSettings } from './agents.test-support'

type TraceEntry = Pick<AgentTraceEntry, 'step' | 'iteration' | 'status' | 'tool' | 'detail' | 'error'>

const titlesOf = (answer: { source_list: { metadata: { title: string } }[] }) => answer.source_list.map((source) => source.metadata.title)
const detailsOf = (trace: TraceEntry[]) => trace.map((entry) => entry.detail)
/** Every [n] of a text points into the answer's source list, and there is at least one. */
const expectCitationsInRange = (text: string, sources: unknown[]) => {
  const numbers = [...text.matchAll(/\[(\d+)\]/g)].map((match) => Number(match[1]))
  expect(numbers.length).toBeGreaterThan(0)
  for (const number of numbers) expect(number >= 1 && number <= sources.length, `[${number}] of ${sources.length}`).toBe(true)
}

for (const kind of ['pglite', 'postgres'] as StorageKind[]) {
  describe(`agents with a language model on ${kind}`, async () => {
    const isAvailable = kind === 'pglite' || (await isPostgresAvailable())
    let fixture: OpenAiFixture
    let server: TestBackend

    beforeAll(async () => {
      if (!isAvailable) return
      fixture = await startOpenAiFixture()
      server = await startTestBackend(kind, { LLM_BASE_URL: fixture.baseUrl, LLM_MODELS: 'fixture-chat,fixture-mini' })
      await publishArticles(server, GARDEN_GUIDE)
    })
    afterAll(async () => {
      await server?.stop()
      await fixture?.close()
    })
    beforeEach(async () => {
      if (!isAvailable) return
      fixture.reset()
      await setAgentSettings(server, { toggle_debug: true })
    })
    afterEach(async () => {
      if (isAvailable) await resetAgentSettings(server)
    })

    const chatRequests = () => fixture.requests.filter((request) => Array.isArray(request.messages))
    /** The planning turns: the requests that offered tools. */
    const toolRounds = () => chatRequests().filter((request) => Array.isArray(request.tools))
    /** The requests that wrote text from numbered sources. */
    const writingRequests = () => chatRequests().filter((request) => !request.tools)
    let templateCount = 0
    const createTemplate = async (sections: { title: string; instructions?: string }[], instructions?: string) => {
      const response = await server.call('/admin/create_template', { method: 'POST', body: { name: `Model sheet ${++templateCount}`, sections, ...(instructions ? { instructions } : {}) } })
      expect(response.status).toBe(200)
      return response.body.id as number
    }

    describe.skipIf(!isAvailable)('the general agent', () => {
      it('plans with tool calls, writes the answer with the model from the passages it found, and tells it in plain sentences', async () => {
        const answer = await runAgent(server, { command: 'How often should I water tomato plants?' })
        expect(answer).toMatchObject({ status: 'finished', success: true, found: true })
        expect(answer.answer).toContain('Tomato plants need deep watering twice a week')
        expect(titlesOf(answer)).toContain('Watering tomato plants')
        expectCitationsInRange(answer.answer, answer.source_list)

        const [planning] = toolRounds()
        expect(planning.model).toBe('fixture-chat')
        expect(planning.tools.map((tool: { function: { name: string } }) => tool.function.name)).toEqual(['knowledge_search', 'article_lookup', 'date_time', 'arithmetic'])
        expect(writingRequests()).toHaveLength(1)
        expect(writingRequests()[0]).toMatchObject({ model: 'fixture-chat', stream: true })
        // Its asker is told which model wrote it, as on the Ask screen.
        expect(answer).toMatchObject({ model: 'fixture-chat', note: null })

        const trace: TraceEntry[] = answer.log_agent_ask_qa
        const details = detailsOf(trace)
        expect(details).toContainEqual(expect.stringMatching(/^Asked the model \(fixture-chat\) what to look for; it asked for knowledge_search “How often should I water tomato plants\?”\.$/))
        expect(details).toContainEqual(expect.stringMatching(/^Planned 1 question with the model: /))
        expect(details).toContainEqual(expect.stringMatching(/^Searched for “How often should I water tomato plants\?” with knowledge_search: found \d+ passages? from “Watering tomato plants”/))
        expect(details).toContainEqual(expect.stringMatching(/^The model \(fixture-chat\) wrote the answer from \d+ passages?, citing \d+ sources?\.$/))
        expect(details).toContainEqual(expect.stringMatching(/^Wrote the answer with the model: 1 of 1 question answered/))
        // Readable sentences, not data.
        for (const detail of details) {
          expect(detail).not.toMatch(/^[{[]/)
          expect(detail).toMatch(/[.!?]$/)
        }
      })

      it('asks the model Agent settings’ llm_model names, and the provider’s default for “Use default model”', async () => {
        await setAgentSettings(server, { llm_model: 'fixture-mini' })
        const answer = await runAgent(server, { command: 'When should I prune apple trees?' })
        expect(answer.found).toBe(true)
        expect(chatRequests().length).toBeGreaterThanOrEqual(2)
        expect(new Set(chatRequests().map((request) => request.model))).toEqual(new Set(['fixture-mini']))
        expect(detailsOf(answer.log_agent_ask_qa)).toContainEqual(expect.stringMatching(/^Asked the model \(fixture-mini\)/))

        fixture.reset()
        await setAgentSettings(server, { llm_model: 'Use default model' })
        await runAgent(server, { command: 'When should I prune apple trees?' })
        expect(new Set(chatRequests().map((request) => request.model))).toEqual(new Set(['fixture-chat']))
      })

      it('describes knowledge_search to the model as Agent settings describe it', async () => {
        const description = 'Looks through the garden handbook for the passages on a topic.'
        await setAgentSettings(server, { tools: defaultAgentSettings.tools.map((tool) => (tool.name === 'knowledge_search' ? { ...tool, description } : tool)) })
        await runAgent(server, { command: 'How do I turn a compost heap?' })
        const offered = toolRounds()[0].tools.find((tool: { function: { name: string } }) => tool.function.name === 'knowledge_search')
        expect(offered.function.description).toBe(description)
        expect(offered.function.parameters).toMatchObject({ type: 'object', required: ['query'] })
      })

      it('gives the model the agent’s instructions as its system prompt', async () => {
        const instructions = 'Search for the plant’s name on its own before anything else; the handbook files everything by plant.'
        await setAgentSettings(server, { agents: defaultAgentSettings.agents.map((agent) => (agent.name === 'general' ? { ...agent, instructions } : agent)) })
        await runAgent(server, { command: 'How do I turn a compost heap?' })
        const [system] = toolRounds()[0].messages
        expect(system.role).toBe('system')
        expect(system.content.startsWith(instructions)).toBe(true)
      })

      it('lets the model search again after weak evidence, no more than max_iteration rounds', async () => {
        // A model that keeps asking for searches, and a word no article has: only max_iteration stops the rounds.
        const command = 'How should I water tomato plants in a zyxwvut?'
        await setAgentSettings(server, { max_iteration: 2 })
        fixture.script('tool-rounds', { times: 50 })
        const twice = await runAgent(server, { command })
        expect(toolRounds()).toHaveLength(2)
        // The second round hands the first round's results back to the model as answers to its calls.
        const secondRound = toolRounds()[1].messages
        expect(secondRound.map((message: { role: string }) => message.role)).toEqual(['system', 'user', 'assistant', 'tool'])
        expect(secondRound[3].content).toContain('Tomato plants need deep watering twice a week')
        expect(twice.answer).toContain('Tomato plants need deep watering twice a week')
        expect(detailsOf(twice.log_agent_ask_qa)).toContainEqual(expect.stringMatching(/max_iteration \(2\) is reached/))

        fixture.reset()
        await setAgentSettings(server, { max_iteration: 1 })
        fixture.script('tool-rounds', { times: 50 })
        await runAgent(server, { command })
        expect(toolRounds()).toHaveLength(1)
      })

      it('stops searching when the model says it has enough, although the grade is low', async () => {
        await setAgentSettings(server, { max_iteration: 4 })
        const answer = await runAgent(server, { command: 'How should I water tomato plants in a zyxwvut?' })
        expect(toolRounds()).toHaveLength(2)
        expect(detailsOf(answer.log_agent_ask_qa)).toContainEqual(expect.stringMatching(/^Asked the model \(fixture-chat\) what else to look for; it said it had enough\.$/))
        expect(answer.answer).toContain('Tomato plants need deep watering twice a week')
      })

      it('falls back to the words of the command and quoted passages for the run when the model’s tool call does not parse', async () => {
        fixture.script('bad-tool-args')
        const answer = await runAgent(server, { command: 'How often should I water tomato plants and when should I prune apple trees?' })
        expect(answer).toMatchObject({ status: 'finished', success: true, found: true })
        // The deterministic answer: each question quoted from its passages, with its sources.
        expect(answer.answer).toContain('**How often should I water tomato plants?**')
        expect(answer.answer).toContain('Tomato plants need deep watering twice a week.')
        expect(answer.answer).toContain('Prune apple trees in late winter while they are dormant.')
        expect(titlesOf(answer)).toEqual(expect.arrayContaining(['Watering tomato plants', 'Pruning apple trees']))
        // The model is not asked again in that run, and its asker is told why the answer quotes the passages.
        expect(chatRequests()).toHaveLength(1)
        expect(answer).toMatchObject({ model: null, note: 'The language model did not answer (unusable response); this answer quotes the sources directly.' })
        const trace: TraceEntry[] = answer.log_agent_ask_qa
        expect(trace).toContainEqual(
          expect.objectContaining({
            step: 'plan',
            status: 'failed',
            detail: 'The model did not answer (unusable response); the command is planned from its words instead.',
            error: expect.stringMatching(/not JSON/),
          }),
        )
        expect(detailsOf(trace)).toContainEqual(expect.stringMatching(/^Planned 2 questions from the words of the command/))
        expect(detailsOf(trace)).toContainEqual(expect.stringMatching(/^Wrote the answer by quoting the passages/))
      })

      it('quotes the passages when the model’s answer is cut off, and says so in the trace', async () => {
        fixture.script([])
        fixture.script('cut-off=2')
        const answer = await runAgent(server, { command: 'When should I prune apple trees?' })
        expect(answer).toMatchObject({ status: 'finished', found: true })
        expect(answer.answer).toContain('Prune apple trees in late winter while they are dormant. [1]')
        expect(chatRequests()).toHaveLength(2)
        expect(answer.log_agent_ask_qa).toContainEqual(
          expect.objectContaining({ step: 'compose', status: 'failed', detail: 'The model did not answer (its answer was cut off); the answer quotes the passages instead.' }),
        )
        expect(answer).toMatchObject({ model: null, note: 'The language model did not answer (the answer was cut off); this answer quotes the sources directly.' })
        // The same without the trace: the note is for every asker, not only with toggle_debug on.
        await setAgentSettings(server, { toggle_debug: false })
        const again = await server.call(`/answer?log_id=${answer.log_id}`)
        expect(again.body).toMatchObject({ log_agent_ask_qa: null, model: null, note: answer.note })
      })
    })

    describe.skipIf(!isAvailable)('the government agent', () => {
      it('writes each section with the model from its own passages, cited into one source list', async () => {
        const instructions = 'Gather evidence for one section at a time, from the handbook only.'
        await setAgentSettings(server, { agents: defaultAgentSettings.agents.map((agent) => (agent.name === 'government' ? { ...agent, instructions } : agent)) })
        const templateId = await createTemplate([
          { title: 'Watering', instructions: 'How often and how to water.' },
          { title: 'Frost', instructions: 'Protecting them from frost.' },
        ])
        const answer = await runAgent(server, { command: 'Write a care sheet on tomato plants', variant: 'government', template_id: templateId })
        expect(answer).toMatchObject({ status: 'finished', success: true, found: true })
        const [watering, frost] = answer.sections
        expect(watering.answer).toContain('Tomato plants need deep watering twice a week')
        expect(frost.answer).toContain('Cover tender plants with fleece when frost is forecast')
        for (const section of answer.sections) {
          expectCitationsInRange(section.answer, answer.source_list)
          expect(section.source_numbers.length).toBeGreaterThan(0)
        }
        expect(frost.source_numbers.map((number: number) => answer.source_list[number - 1].metadata.title)).toContain('Protecting plants from frost')

        // One planning turn per section, with the government agent's instructions; one writing request per section.
        expect(toolRounds()).toHaveLength(2)
        for (const round of toolRounds()) expect(round.messages[0].content.startsWith(instructions)).toBe(true)
        const writing = writingRequests()
        expect(writing).toHaveLength(2)
        expect(writing[0].messages[0].content).toContain('You are writing the section “Watering” of a document.')
        expect(writing[1].messages[0].content).toContain('You are writing the section “Frost” of a document.')
        expect(detailsOf(answer.log_agent_ask_qa)).toContainEqual(expect.stringMatching(/^The model \(fixture-chat\) wrote the section “Frost” from \d+ passages?, citing \d+ sources?\.$/))
      })

      it('writes every section by the template’s own instructions, with the section’s', async () => {
        const instructions = 'Write for a gardener in a hurry: plain words, no jargon.'
        const templateId = await createTemplate(
          [
            { title: 'Watering', instructions: 'How often and how to water.' },
            { title: 'Frost', instructions: 'Protecting them from frost.' },
          ],
          instructions,
        )
        const answer = await runAgent(server, { command: 'Write a care sheet on tomato plants', variant: 'government', template_id: templateId })
        expect(answer).toMatchObject({ status: 'finished', found: true })
        const writing = writingRequests()
        expect(writing).toHaveLength(2)
        for (const request of writing) expect(request.messages[0].content).toContain(`Instructions for the whole document: ${instructions}`)
        expect(writing[0].messages[0].content).toContain('You are writing the section “Watering” of a document. Its instructions: How often and how to water.')
      })

      it('falls back to quoting for the one section the model fails on', async () => {
        const templateId = await createTemplate([
          { title: 'Watering', instructions: 'How often and how to water.' },
          { title: 'Frost', instructions: 'Protecting them from frost.' },
        ])
        // The two planning turns go through; the first section's writing is cut off, the second's is not.
        fixture.script([], { times: 2 })
        fixture.script('cut-off=2')
        const answer = await runAgent(server, { command: 'Write a care sheet on tomato plants', variant: 'government', template_id: templateId })
        expect(answer).toMatchObject({ status: 'finished', found: true })
        const [watering, frost] = answer.sections
        expect(watering.answer).toContain('Tomato plants need deep watering twice a week.')
        expect(frost.answer).toContain('Cover tender plants with fleece when frost is forecast')
        expect(writingRequests()).toHaveLength(2)
        const details = detailsOf(answer.log_agent_ask_qa)
        expect(details).toContain('The model did not answer (its answer was cut off); the section “Watering” quotes the passages instead.')
        expect(details).toContainEqual(expect.stringMatching(/^The model \(fixture-chat\) wrote the section “Frost”/))
        expectCitationsInRange(answer.answer, answer.source_list)
        expect(answer).toMatchObject({
          model: 'fixture-chat',
          note: 'The language model did not answer (the answer was cut off) for one section of this answer; it quotes the sources directly.',
        })
      })
    })

    describe.skipIf(!isAvailable)('quoting articles written with headings', () => {
      beforeAll(async () => {
        if (isAvailable) await publishArticles(server, PERMIT_GUIDE)
      })
      // The fixture's model quotes the sentence of a passage that best matches the question, on one line, as a model
      // quoting its sources may: the passage it reads must give it prose to quote, not "## Fees".
      const HEADING_MARKS = /(?:^|\s)#{1,6}(?=\s)/

      it('shows no heading marks in the answer, whoever writes it, the model or the quotes it falls back on', async () => {
        const command = 'How much does a parking permit cost?'
        const written = await runAgent(server, { command })
        expect(written).toMatchObject({ status: 'finished', found: true })
        expect(written.answer).toContain('A resident parking permit costs 60 euros a year')
        expect(written.answer).not.toMatch(HEADING_MARKS)
        expect(detailsOf(written.log_agent_ask_qa)).toContainEqual(expect.stringMatching(/^The model \(fixture-chat\) wrote the answer/))

        fixture.script([])
        fixture.script('cut-off=2')
        const quoted = await runAgent(server, { command })
        expect(quoted.answer).toContain('A resident parking permit costs 60 euros a year')
        expect(quoted.answer).not.toMatch(HEADING_MARKS)

        // The Ask screen's answers are written the same way.
        const asked = await server.call('/ask_qa', { method: 'POST', body: { command } })
        expect(asked.body.result).toContain('A resident parking permit costs 60 euros a year')
        expect(asked.body.result).not.toMatch(HEADING_MARKS)
      })

      it('shows no heading marks in a section of a brief beyond its own heading', async () => {
        const templateId = await createTemplate([{ title: 'Who may apply', instructions: 'Who is eligible.' }])
        const answer = await runAgent(server, { command: 'Write a brief on parking permits', variant: 'government', template_id: templateId })
        expect(answer).toMatchObject({ status: 'finished', found: true })
        expect(answer.sections[0].answer).toContain('are eligible for a parking permit')
        expect(answer.sections[0].answer).not.toMatch(HEADING_MARKS)
        expect(answer.answer.split('\n').filter((line: string) => HEADING_MARKS.test(line))).toEqual([`# Model sheet ${templateCount}`, '## Who may apply'])
      })
    })
  })
}
