import { z } from 'zod'
import { AskAnswer } from '../../contracts/ask'
import { WhoAmI } from '../../contracts/settings'
import { TemplatesPage, type Template } from '../../contracts/templates'
import { callApi, type ApiSession } from './api.server'
import type { AgentVariant } from '~/utils/agent.server'

export function startAgentRun(session: ApiSession, run: { command: string; variant: AgentVariant; templateId?: number; timezone?: string }) {
  return callApi('/ask_qa', {
    session,
    method: 'POST',
    body: { command: run.command, mode: 'agent', variant: run.variant, template_id: run.templateId, timezone: run.timezone },
    schema: AskAnswer,
  })
}

export function getAgentRun(session: ApiSession, taskId: string) {
  return callApi('/ask_qa_answer', { session, method: 'POST', body: { task_id: taskId }, schema: AskAnswer })
}

export function cancelAgentRun(session: ApiSession, taskId: string) {
  return callApi('/ask_qa_cancel', { session, method: 'POST', body: { task_id: taskId }, schema: z.object({ success: z.boolean() }).passthrough() })
}

/** The templates the government agent can fill: those with sections (one saved before they were required may have none). */
export const templateChoicesOf = (rows: Pick<Template, 'id' | 'name' | 'sections'>[]) =>
  rows.filter((row) => row.sections.length > 0).map((row) => ({ id: row.id, name: row.name }))

export async function listTemplateChoices(session: ApiSession) {
  return templateChoicesOf((await callApi('/admin/get_templates', { session, schema: TemplatesPage })).rows)
}

/**
 * What Agent settings give the agent screens: the query shortcuts (query_shortcut_N, the enabled ones with a command)
 * and the variants that run (each has an agent named after it; the others are off).
 */
export async function getAgentScreenSettings(session: ApiSession): Promise<{ shortcuts: string[]; runnableVariants: AgentVariant[] }> {
  const whoAmI = await callApi('/who_am_i', { session, query: { target: 'agent' }, schema: WhoAmI })
  return {
    shortcuts: whoAmI.query_shortcuts.filter((shortcut) => shortcut.enabled && shortcut.query.trim()).map((shortcut) => shortcut.query.trim()),
    runnableVariants: whoAmI.agent_variants ?? [],
  }
}
