import { parseWithZod } from '@conform-to/zod/v4'
import { z } from 'zod'
import { AskAnswer, AskModels, AskThread, AskThreads } from '../../contracts/ask'
import { FavoriteSaved, LogChanged } from '../../contracts/query-logs'
import { BotInfo, WhoAmI } from '../../contracts/settings'
import { markdownExcerptShowing, toMarkdownDocument } from '~/components/markdown/markdown-document'
import { callApi, callApiForFile, type ApiSession } from './api.server'
import { FEEDBACK_REASON_MAX_LENGTH, QUESTION_MAX_LENGTH, SAVED_COMMENT_MAX_LENGTH } from './ask-limits'

/** How much of a quoted passage a source card shows, as plain text. */
export const SOURCE_EXCERPT_LENGTH = 240

/**
 * An answer as the page shows it: its text parsed as Markdown (`result_document`) and each source's passage cut to a
 * plain-text excerpt for its card, one that shows the sentence the answer quotes from it (ADR 245). Both happen here on
 * the server, so the parser never ships to the browser (the page's script budget, ADR 041).
 */
export function forReading<Answer extends { result?: unknown; source_list?: { page_content: string }[] }>(answer: Answer) {
  return {
    ...answer,
    result_document: typeof answer.result === 'string' && answer.result ? toMarkdownDocument(answer.result) : null,
    source_list: (answer.source_list ?? []).map((source) => ({
      ...source,
      page_content: markdownExcerptShowing(source.page_content, SOURCE_EXCERPT_LENGTH, typeof answer.result === 'string' ? answer.result : undefined),
    })),
  }
}

/** Asks a question; with `threadId`, as a follow-up in that thread (one of the user's own). */
export function askQuestion(session: ApiSession, command: string, timezone?: string, model?: string, threadId?: number) {
  return callApi('/ask_qa', { session, method: 'POST', body: { command, timezone, model, thread_id: threadId }, schema: AskAnswer })
}

/** One of the user's own threads, each answer parsed as Markdown like getAnswer's. */
export async function getThread(session: ApiSession, threadId: number) {
  const thread = await callApi('/ask_thread', { session, query: { thread_id: threadId }, schema: AskThread })
  return { ...thread, turns: thread.turns.map(forReading) }
}

/**
 * How many of the user's threads the Ask page lists, and how many a page once they ask to see more (the API's most
 * at a time).
 */
export const RECENT_THREADS = 8
export const MORE_RECENT_THREADS = 50

/**
 * The user's own recent threads, by their first question: `limit` of them after the `offset` newest, and whether
 * there are older ones (the next one is read to tell).
 */
export async function getRecentThreads(session: ApiSession, limit = RECENT_THREADS, offset = 0) {
  if (limit < MORE_RECENT_THREADS) {
    // Within the API's most at a time, one call reads the one more that tells.
    const { threads } = await callApi('/ask_threads', { session, query: { limit: limit + 1, offset }, schema: AskThreads })
    return { threads: threads.slice(0, limit), hasMore: threads.length > limit }
  }
  const [page, next] = await Promise.all([
    callApi('/ask_threads', { session, query: { limit, offset }, schema: AskThreads }),
    callApi('/ask_threads', { session, query: { limit: 1, offset: offset + limit }, schema: AskThreads }),
  ])
  return { threads: page.threads, hasMore: next.threads.length > 0 }
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
  return forReading(await callApi('/ask_qa_answer', { session, method: 'POST', body: { task_id: taskId }, schema: AskAnswer }))
}

/** The answer recorded in a query log (a streamed answer has no task), parsed as Markdown like getAnswer's. */
export async function getAnswerOfLog(session: ApiSession, logId: number) {
  return forReading(await callApi('/answer', { session, query: { log_id: logId }, schema: AskAnswer }))
}

export function getWhoAmI(session: ApiSession) {
  return callApi('/who_am_i', { session, schema: WhoAmI })
}

export function getBotInfo(session: ApiSession) {
  return callApi('/admin/bot_info', { session, schema: BotInfo })
}

/** SEED.md's feedback call; the reason (optional, beyond SEED.md) goes with it when given. */
export function sendFeedback(session: ApiSession, logId: number, feedback: 'like' | 'dislike', reason?: string) {
  return callApi('/ask_qa_feedback', { session, method: 'PUT', body: { log_id: logId, feedback, reason }, schema: LogChanged })
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
  /** A follow-up: the thread it continues. */
  thread: z.coerce.number().int().positive().max(2_147_483_647).optional(),
})
/**
 * The answer a form on the Ask page comes back to: its task (`task`), or its log for a streamed answer (`log`), in
 * its thread (`thread`).
 */
const AnswerAddress = {
  task: z.string().min(1).optional(),
  log: z.coerce.number().int().positive().max(2_147_483_647).optional(),
  thread: z.coerce.number().int().positive().max(2_147_483_647).optional(),
}
const hasAnswerAddress = (form: { task?: string; log?: number }) => form.task !== undefined || form.log !== undefined
export const FeedbackForm = z
  .object({
    intent: z.literal('feedback'),
    log_id: z.coerce.number().int().positive(),
    feedback: z.enum(['like', 'dislike']),
    reason: z.string().trim().max(FEEDBACK_REASON_MAX_LENGTH).optional(),
    ...AnswerAddress,
  })
  .refine(hasAnswerAddress)
export const FavoriteForm = z
  .object({ intent: z.literal('favorite'), log_id: z.coerce.number().int().positive(), comment: z.string().trim().max(SAVED_COMMENT_MAX_LENGTH).default(''), ...AnswerAddress })
  .refine(hasAnswerAddress)
export const ToggleForm = z.object({ intent: z.literal('toggleBotInfo'), task: z.string().optional(), log: z.string().optional(), thread: z.string().optional() })
/** The way to ask: the knowledge base's answer (expert) or the agent (agent); the choice is remembered. */
/**
 * A switch of the way to ask, posted by the form the user is typing in: its text (a question or the agent's command)
 * comes along, so the other way's field starts with it.
 */
export const ModeForm = z.object({
  mode: z.enum(['expert', 'agent']),
  question: z.string().optional(),
  command: z.string().optional(),
  /** Sent by the page's script, which has switched the fields itself: the choice is only remembered. */
  remember_only: z.literal('1').optional(),
})

export function parseAskForm(formData: FormData) {
  return parseWithZod(formData, { schema: AskForm })
}
