import { z } from 'zod'
import { AskAnswer } from '../../contracts/ask'
import { WhoAmI } from '../../contracts/settings'
import { TemplatesPage } from '../../contracts/templates'
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

export function listTemplateChoices(session: ApiSession) {
  return callApi('/admin/get_templates', { session, schema: TemplatesPage })
}

/** The agent query shortcuts (Agent settings' query_shortcut_N), the enabled ones with a command. */
export async function listAgentShortcuts(session: ApiSession): Promise<string[]> {
  const whoAmI = await callApi('/who_am_i', { session, query: { target: 'agent' }, schema: WhoAmI })
  return whoAmI.query_shortcuts.filter((shortcut) => shortcut.enabled && shortcut.query.trim()).map((shortcut) => shortcut.query.trim())
}
