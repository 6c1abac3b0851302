import { expect } from 'vitest'
import type { AgentTool } from '../../agents/tools/agent-tool'
import { defaultAgentSettings } from '../settings/settings.defaults'
import type { Caller, TestBackend } from '../../testing/test-backend'

/** A small garden guide: each article answers one kind of question. */
export const GARDEN_GUIDE = [
  {
    title: 'Watering tomato plants',
    content:
      '# Watering tomato plants\n\nTomato plants need deep watering twice a week. Water the soil, not the leaves, to prevent blight.\n\nIn hot weather, mulch keeps the roots cool and moist.',
  },
  {
    title: 'Pruning apple trees',
    content: 'Prune apple trees in late winter while they are dormant. Remove crossing branches and open the centre to light.',
  },
  {
    title: 'Composting kitchen scraps',
    content: 'A compost heap turns kitchen scraps into soil. Mix green waste with brown leaves and turn the heap every fortnight.',
  },
  {
    title: 'Protecting plants from frost',
    content: 'Cover tender plants with fleece when frost is forecast. Move pots against a south-facing wall and water them in the morning.',
  },
]

/**
 * Two permits, each with its own fees: a brief on one must not quote the other's. Each part of an article is
 * under its own heading, as the articles of a real knowledge base are.
 */
export const PERMIT_GUIDE = [
  {
    title: 'Parking permits',
    content:
      '# Parking permits\n\n## Eligibility\n\nResidents whose home lies inside a controlled parking zone are eligible for a parking permit, one per registered vehicle.\n\n' +
      '## Fees\n\nA resident parking permit costs 60 euros a year, and a visitor parking permit 2 euros a day.\n\n' +
      '## How to apply\n\nApply for a parking permit online with proof of address and the vehicle registration; the permit comes by post within ten days.',
  },
  {
    title: 'Building permits',
    content:
      '# Building permits\n\n## Fees\n\nA building permit costs 0.5 percent of the construction budget, with a minimum fee of 200 euros paid when the plans are filed.\n\n' +
      '## Inspections\n\nAn inspector visits the building site before the foundations are poured and again before the building is occupied.',
  },
]

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Starts an agent run and returns the first answer (status queued, running or already finished). */
export async function startRun(server: TestBackend, body: Record<string, unknown>, as?: Caller) {
  const response = await server.call('/ask_qa', { method: 'POST', body: { mode: 'agent', ...body }, as })
  expect(response.status, JSON.stringify(response.body)).toBe(200)
  return response.body
}

/** Polls POST /ask_qa_answer, as the web screen does, until the run has ended. */
export async function waitForRun(server: TestBackend, taskId: string, as?: Caller) {
  for (let attempt = 0; attempt < 400; attempt++) {
    const { body } = await server.call('/ask_qa_answer', { method: 'POST', body: { task_id: taskId }, as })
    if (!['queued', 'running'].includes(body.status)) return body
    await sleep(50)
  }
  throw new Error(`agent run ${taskId} did not end`)
}

export async function runAgent(server: TestBackend, body: Record<string, unknown>, as?: Caller) {
  return waitForRun(server, (await startRun(server, body, as)).task_id, as)
}

export async function setAgentSettings(server: TestBackend, update: Record<string, unknown>) {
  const response = await server.call('/admin/agent_setting', { method: 'PUT', body: update })
  expect(response.status, JSON.stringify(response.body)).toBe(200)
}

/** Puts Agent settings back as a new installation has them. */
export async function resetAgentSettings(server: TestBackend) {
  await setAgentSettings(server, defaultAgentSettings)
}

/**
 * A test tool that holds a run inside its retrieve step until it is released or the run is stopped: a slow run
 * made deterministic. It applies to questions with the word "hold".
 */
export function createHoldTool() {
  let markStarted!: () => void
  let release!: () => void
  const started = new Promise<void>((resolve) => (markStarted = resolve))
  const released = new Promise<void>((resolve) => (release = resolve))
  const tool: AgentTool = {
    name: 'hold',
    kind: 'knowledge',
    inputFor: (question) => (/\bhold\b/i.test(question) ? question : undefined),
    run: (_input, context) =>
      new Promise((resolve, reject) => {
        markStarted()
        context.signal.addEventListener('abort', () => reject(new Error('stopped while holding')), { once: true })
        void released.then(() => resolve({ chunks: [], statement: null, summary: 'released' }))
      }),
  }
  return { tool, started, release }
}

/** Registers a tool in the backend and lets the given agents call it. */
export async function enableTool(server: TestBackend, tool: AgentTool, agentNames: string[] = ['general']) {
  server.backend.services.agents.tools.register(tool)
  await setAgentSettings(server, {
    tools: [...defaultAgentSettings.tools, { name: tool.name, description: 'A tool for tests' }],
    agents: defaultAgentSettings.agents.map((agent) =>
      agentNames.includes(agent.name) ? { ...agent, [`${agent.name}_tools`]: `${agent[`${agent.name}_tools`]}, ${tool.name}` } : agent,
    ),
  })
}
