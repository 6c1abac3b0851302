import { z } from 'zod'
import { AgentSettingsAnswer, BotSettingsAnswer, StateFields, WorkflowGraph, AgentSettingsUpdate, BotSettingsUpdate } from '../../contracts/settings'
import { callApi, type ApiSession } from './api.server'

/** The bot settings with the model choices ('Use default model' first). */
export function getBotSettings(session: ApiSession) {
  return callApi('/admin/bot_setting', { session, schema: BotSettingsAnswer })
}

export function updateBotSettings(session: ApiSession, update: z.input<typeof BotSettingsUpdate>) {
  return callApi('/admin/bot_setting', { session, method: 'PUT', body: update, schema: BotSettingsAnswer })
}

/** The agent settings with the model choices ('Use default model' first). */
export function getAgentSettings(session: ApiSession) {
  return callApi('/admin/agent_setting', { session, schema: AgentSettingsAnswer })
}

export function updateAgentSettings(session: ApiSession, update: z.input<typeof AgentSettingsUpdate>) {
  return callApi('/admin/agent_setting', { session, method: 'PUT', body: update, schema: AgentSettingsAnswer })
}

/** Nodes and edges of the configured agent workflow of one variant. */
export function getWorkflowGraph(session: ApiSession, variant: 'general' | 'government') {
  return callApi('/admin/vis-network', { session, method: 'POST', body: { variant }, schema: WorkflowGraph })
}

/** The agent's state fields, without current_answer and current_grade (SEED.md §5). */
export async function getStateFields(session: ApiSession) {
  const answer = await callApi('/admin/vis-network-agent-state-fields', { session, schema: StateFields })
  return answer.result.filter((field) => field !== 'current_answer' && field !== 'current_grade')
}
