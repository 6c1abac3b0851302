import { parseWithZod } from '@conform-to/zod/v4'
import { z } from 'zod'
import { AskAnswer, AskModels } from '../../contracts/ask'
import { FavoriteSaved, LogChanged } from '../../contracts/query-logs'
import { BotInfo, WhoAmI } from '../../contracts/settings'
import { toMarkdownDocument } from '~/components/markdown/markdown-document'
import { callApi, callApiForFile, type ApiSession } from './api.server'
import { QUESTION_MAX_LENGTH } from './ask-limits'

export function askQuestion(session: ApiSession, command: string, timezone?: string, model?: string) {
  return callApi('/ask_qa', { session, method: 'POST', body: { command, timezone, model }, schema: AskAnswer })
}

/** Whether a language model writes the answers, and the models an asker may choose (Bot settings' multiple_model). */
export function getAskModels(session: ApiSession) {
  return callApi('/ask_models', { session, schema: AskModels })
}

/**
 * An answer, with its text also parsed as Markdown (`result_document`): the Ask page renders that, so the parser runs
 * here on the server and never ships to the browser (the page's script budget, ADR 041).
 */
export async function getAnswer(session: ApiSession, taskId: string) {
  const answer = await callApi('/ask_qa_answer', { session, method: 'POST', body: { task_id: taskId }, schema: AskAnswer })
  return { ...answer, result_document: answer.result ? toMarkdownDocument(answer.result) : null }
}

/** The answer recorded in a query log (a streamed answer has no task), parsed as Markdown like getAnswer's. */
export async function getAnswerOfLog(session: ApiSession, logId: number) {
  const answer = await callApi('/answer', { session, query: { log_id: logId }, schema: AskAnswer })
  return { ...answer, result_document: answer.result ? toMarkdownDocument(answer.result) : null }
}

export function getWhoAmI(session: ApiSession) {
  return callApi('/who_am_i', { session, schema: WhoAmI })
}

export function getBotInfo(session: ApiSession) {
  return callApi('/admin/bot_info', { session, schema: BotInfo })
}

export function sendFeedback(session: ApiSession, logId: number, feedback: 'like' | 'dislike') {
  return callApi('/ask_qa_feedback', { session, method: 'PUT', body: { log_id: logId, feedback }, schema: LogChanged })
}

export function saveFavorite(session: ApiSession, logId: number, comment: string) {
  return callApi('/query_logs/add_query_favorite', { session, method: 'POST', body: { log_id: logId, comment }, schema: FavoriteSaved })
}

export const DOCX_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'

/** The answer of a task as a Word document, straight from the backend (checked by the caller). */
export function convertAnswerToDocx(session: ApiSession, markdown: string) {
  return callApiForFile('/admin/convert_doc', { session, method: 'POST', body: { doc: markdown } })
}

export const AnswerIdentity = z.object({ task: z.string().min(1) })

// The Ask page's forms are checked here, on the server only: the page ships no schema library (its JavaScript budget).
const AskForm = z.object({
  question: z
    .string({ error: 'Please enter a question' })
    .trim()
    .min(1, 'Please enter a question')
    .max(QUESTION_MAX_LENGTH, `A question is at most ${QUESTION_MAX_LENGTH} characters`),
  timezone: z.string().max(100).optional(),
  /** The model chosen on the form (multiple_model); empty means the default model. */
  model: z.string().trim().max(200, 'A model name is at most 200 characters').optional(),
})
/** The answer a form on the Ask page comes back to: its task (`task`), or its log for a streamed answer (`log`). */
const AnswerAddress = { task: z.string().min(1).optional(), log: z.coerce.number().int().positive().optional() }
const hasAnswerAddress = (form: { task?: string; log?: number }) => form.task !== undefined || form.log !== undefined
export const FeedbackForm = z
  .object({ intent: z.literal('feedback'), log_id: z.coerce.number().int().positive(), feedback: z.enum(['like', 'dislike']), ...AnswerAddress })
  .refine(hasAnswerAddress)
export const FavoriteForm = z
  .object({ intent: z.literal('favorite'), log_id: z.coerce.number().int().positive(), comment: z.string().trim().max(5000).default(''), ...AnswerAddress })
  .refine(hasAnswerAddress)
export const ToggleForm = z.object({ intent: z.literal('toggleBotInfo'), task: z.string().optional(), log: z.string().optional() })

export function parseAskForm(formData: FormData) {
  return parseWithZod(formData, { schema: AskForm })
}
