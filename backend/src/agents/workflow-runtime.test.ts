import { describe, expect, it } from 'vitest'
import { createInitialState, type AgentCheckpoint } from './agent-state'
import { ExtractiveComposer } from '../answering/extractive-composer'
import { LexicalPlanner } from './lexical-planner'
import { ToolRegistry } from './tools/agent-tool'
import { runWorkflow, type StepContext, type StepHandler } from './workflow-runtime'

const contextWith = (signal: AbortSignal): StepContext => ({
  signal,
  reasoning: { planner: new LexicalPlanner(), composer: new ExtractiveComposer(() => 1) },
  tools: new ToolRegistry(),
  allowedTools: [],
  weightOf: () => 1,
  timezone: 'UTC',
  sourcesPerSearch: 4,
  scoreThreshold: 0,
  templateName: null,
  now: () => new Date('2025-01-01T00:00:00Z'),
})

const start = (): AgentCheckpoint => ({ state: createInitialState({ command: 'anything', variant: 'general', maxIteration: 3, template: null }), next: 'plan' })
const passTo =
  (next: 'retrieve' | 'grade' | 'compose' | 'plan' | 'end' | 'fill_template'): StepHandler =>
  async (state) => ({ state: { ...state, iteration: state.iteration + 1 }, next })
const handlers = { plan: passTo('retrieve'), retrieve: passTo('grade'), grade: passTo('compose'), compose: passTo('end'), fill_template: passTo('end') }
const hooks = (saved: AgentCheckpoint[] = [], isCancelled = false) => ({ isCancelled: async () => isCancelled, save: async (checkpoint: AgentCheckpoint) => void saved.push(checkpoint) })

describe('runWorkflow', () => {
  it('follows the transitions to the end, saving a checkpoint after every step', async () => {
    const saved: AgentCheckpoint[] = []
    const outcome = await runWorkflow(start(), handlers, contextWith(new AbortController().signal), hooks(saved))
    expect(outcome.kind).toBe('ended')
    expect(saved.map((checkpoint) => checkpoint.next)).toEqual(['retrieve', 'grade', 'compose', 'end'])
  })

  it('resumes at the step a checkpoint names', async () => {
    const saved: AgentCheckpoint[] = []
    await runWorkflow({ ...start(), next: 'grade' }, handlers, contextWith(new AbortController().signal), hooks(saved))
    expect(saved.map((checkpoint) => checkpoint.next)).toEqual(['compose', 'end'])
  })

  it('refuses a hand-over the workflow graph does not have', async () => {
    const run = runWorkflow(start(), { ...handlers, plan: passTo('compose') }, contextWith(new AbortController().signal), hooks())
    await expect(run).rejects.toThrow('Step plan may not hand over to compose')
  })

  it('refuses a step of the other variant', async () => {
    await expect(runWorkflow({ ...start(), next: 'fill_template' }, handlers, contextWith(new AbortController().signal), hooks())).rejects.toThrow(
      'The general workflow has no step fill_template',
    )
  })

  it('stops between steps when the run is cancelled elsewhere', async () => {
    const outcome = await runWorkflow(start(), handlers, contextWith(new AbortController().signal), hooks([], true))
    expect(outcome).toMatchObject({ kind: 'stopped', reason: 'cancelled' })
  })

  it('stops inside a step on shutdown, keeping the state of the last finished step', async () => {
    const controller = new AbortController()
    const slow: StepHandler = () => {
      controller.abort('shutdown')
      return Promise.reject(new Error('aborted'))
    }
    const saved: AgentCheckpoint[] = []
    const outcome = await runWorkflow(start(), { ...handlers, retrieve: slow }, contextWith(controller.signal), hooks(saved))
    expect(outcome).toMatchObject({ kind: 'stopped', reason: 'shutdown' })
    expect(saved.map((checkpoint) => checkpoint.next)).toEqual(['retrieve'])
    expect(outcome.state.iteration).toBe(1)
  })
})
