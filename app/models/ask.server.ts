import { parseWithZod } from '@conform-to/zod/v4'
import { z } from 'zod'
import { AskAnswer } from '../../contracts/ask'
import { FavoriteSaved, LogChanged } from '../../contracts/query-logs'
import { BotInfo, WhoAmI } from '../../contracts/settings'
import { toMarkdownDocument } from '~/components/markdown/markdown-document'
import { callApi, callApiForFile, type ApiSession } from './api.server'
import { QUESTION_MAX_LENGTH } from './ask-limits'

export function askQuestion(session: ApiSession, command: string, timezone?: string) {
  return callApi('/ask_qa', { session, method: 'POST', body: { command, timezone }, schema: AskAnswer })
}

/**
 * An answer, with its text also parsed as Markdown (`result_document`): the Ask page renders that, so the parser runs
 * here on the server and never ships to the browser (the page's script budget, ADR 041).
 */
export async function getAnswer(session: ApiSession, taskId: string) {
  const answer = await callApi('/ask_qa_answer', { session, method: 'POST', body: { task_id: taskId }, schema: AskAnswer })
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
})
export const FeedbackForm = z.object({ intent: z.literal('feedback'), log_id: z.coerce.number().int().positive(), feedback: z.enum(['like', 'dislike']), task: z.string().min(1) })
export const FavoriteForm = z.object({ intent: z.literal('favorite'), log_id: z.coerce.number().int().positive(), comment: z.string().trim().max(5000).default(''), task: z.string().min(1) })
export const ToggleForm = z.object({ intent: z.literal('toggleBotInfo'), task: z.string().optional() })

export function parseAskForm(formData: FormData) {
  return parseWithZod(formData, { schema: AskForm })
}
