import { describe, expect, it } from 'vitest'
import { NOT_FOUND_ANSWER } from '../answering/not-found'
import type { ChatRequest, ChatResult, LlmProvider } from '../llm/provider'
import { defaultAgentSettings, defaultBotSettings } from '../modules/settings/settings.defaults'
import { createInitialState } from './agent-state'
import { createReasoning } from './reasoning'
import { ToolRegistry } from './tools/agent-tool'
import { createBuiltInTools } from './tools/built-in-tools'
import { partHeading, WORKFLOW_HANDLERS } from './workflow-steps'
import { runWorkflow } from './workflow-runtime'

describe('partHeading', () => {
  it('capitalises a part and ends a question with a question mark', () => {
    expect(partHeading('Who can publish drafts')).toBe('Who can publish drafts?')
    expect(partHeading('how do I restore a deleted article?')).toBe('How do I restore a deleted article?')
    expect(partHeading(' is the API key secret ')).toBe('Is the API key secret?')
  })

  it('leaves an instruction without a question mark, and a finished sentence as it is', () => {
    expect(partHeading('summarise the drafts')).toBe('Summarise the drafts')
    expect(partHeading('List the roles.')).toBe('List the roles.')
    expect(partHeading('What is new: ')).toBe('What is new:')
  })
})

describe('the general agent with a model', () => {
  /** A model that asks for date_time whatever the command, then says it has enough. */
  const dateAskingModel = (): LlmProvider & { requests: ChatRequest[] } => {
    const requests: ChatRequest[] = []
    return {
      requests,
      listModels: async () => ['scripted'],
      defaultModel: async () => 'scripted',
      async chat(request): Promise<ChatResult> {
        requests.push(request)
        const hasResults = request.messages.at(-1)?.role !== 'user' || request.messages.length > 2
        return { model: 'scripted', text: hasResults ? 'DONE' : '', toolCalls: hasResults ? [] : [{ id: 'call_1', name: 'date_time', arguments: '{}' }], finishReason: 'stop' }
      },
      // eslint-disable-next-line require-yield
      async *stream() {
        throw new Error('The scripted model writes nothing')
      },
    }
  }

  /** Runs the general agent on a command with that model and a knowledge base that finds nothing. */
  const runWithDateAskingModel = async (command: string) => {
    const provider = dateAskingModel()
    const tools = new ToolRegistry(createBuiltInTools({ retriever: { retrieve: async () => [] }, findArticle: async () => [] }))
    const context = {
      signal: new AbortController().signal,
      reasoning: createReasoning(defaultAgentSettings, { weightOf: () => 1, llm: provider, promptSettings: defaultBotSettings, variant: 'general' }),
      tools,
      allowedTools: ['knowledge_search', 'article_lookup', 'date_time', 'arithmetic'],
      weightOf: () => 1,
      timezone: 'UTC',
      sourcesPerSearch: 4,
      scoreThreshold: 0,
      templateName: null,
      now: () => new Date('2026-11-30T16:39:00Z'),
    }
    const start = createInitialState({ command, variant: 'general', maxIteration: 1, template: null })
    const outcome = await runWorkflow({ state: start, next: 'plan' }, WORKFLOW_HANDLERS, context, { isCancelled: async () => false, save: async () => undefined })
    return { provider, state: outcome.state }
  }

  it('does not give a date it was not asked for as the answer: with nothing from the knowledge base, it says nothing was found', async () => {
    const { provider, state } = await runWithDateAskingModel('Tell me about publishing drafts and feedback. '.repeat(90))
    expect(provider.requests).toHaveLength(1)
    expect(state.evidence.map((item) => item.tool)).toEqual(['date_time'])
    expect(state.current_answer).not.toContain('The current date and time')
    expect(state.current_answer).toBe(NOT_FOUND_ANSWER)
    expect(state.sub_questions[0]).toMatchObject({ grade: 0 })
    expect(state.steps.at(-1)?.detail).toMatch(/0 of 1 question answered/)
  })

  it('gives the date as the answer to a question about now that shares no word with it', async () => {
    for (const command of ['Which year are we in?', 'How many days until Christmas?']) {
      const { state } = await runWithDateAskingModel(command)
      expect(state.current_answer, command).toBe('The current date and time in UTC: Monday, 30 November 2026 at 16:39.')
      expect(state.sub_questions[0]).toMatchObject({ grade: 1 })
    }
  })
})
