import { z } from 'zod'
import { Id } from './common'
import { AgentTraceEntry } from './agents'
import { RelatedArticle, Source } from './ask'
import { ColumnFilter, filtersParamOf } from './article-filters'

export const PAGE_SIZE_LOGS = 50

// PRODUCT.md's filter, and the questions the knowledge base had no answer for: what editors look for to add articles.
export const LogStatusFilter = z.enum(['all', 'liked', 'disliked', 'no feedback', 'commented', 'not found', 'blocked', 'failed'])

/** Filterable columns of the logs table and the kind of each. */
export const LOG_FILTER_COLUMNS = { command: 'text', answer: 'text', username: 'text', id: 'numeric', duration_ms: 'numeric', timestamp: 'date' } as const

export const LogFilters = z
  .object({ command: ColumnFilter, answer: ColumnFilter, username: ColumnFilter, id: ColumnFilter, duration_ms: ColumnFilter, timestamp: ColumnFilter })
  .partial()
  .strict()
export type LogFilters = z.infer<typeof LogFilters>

/** The logs are sorted by when they were asked (their id follows it), newest first unless sortOrder is 1. */
export const LogSortField = z.enum(['id', 'timestamp'])

/** A calendar day, YYYY-MM-DD (a date range's ends are whole days in UTC, both included). */
const Day = (name: string) =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, `${name} is a date as YYYY-MM-DD`)
    .refine((value) => {
      const date = new Date(`${value}T00:00:00Z`)
      return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value)
    }, `${name} is not a calendar day`)

/**
 * GET /query_logs: SEED.md's limit, last_id and status, plus a text search (`q`: every word of it, in any order, in
 * the question or the answer, ignoring case and accents), a date range (`from`, `to`), column filters and the sort order. last_id pages in that order.
 */
export const QueryLogsQuery = z
  .object({
    limit: z.coerce.number().int().min(1).max(500).default(PAGE_SIZE_LOGS),
    last_id: z.coerce.number().int().min(0).max(2_147_483_647).optional(),
    status: LogStatusFilter.default('all'),
    q: z.string().trim().max(500, 'q is at most 500 characters').optional(),
    // An empty value matches everything (SEED.md §5), so an empty end is no end.
    from: z.preprocess((value) => (value === '' ? undefined : value), Day('from').optional()),
    to: z.preprocess((value) => (value === '' ? undefined : value), Day('to').optional()),
    sortField: LogSortField.default('id'),
    sortOrder: z.coerce.number().int().refine((value) => value === 1 || value === -1, 'sortOrder is 1 or -1').default(-1),
    filters: filtersParamOf(LogFilters).optional(),
  })
  .refine((query) => !query.from || !query.to || query.from <= query.to, { message: 'from is after to', path: ['from'] })

/** An entry of a log's comment list (SEED.md §3: id, comment_id, has_comment, comment). */
export const LogComment = z.object({
  id: z.number().int(),
  comment_id: z.number().int(),
  has_comment: z.boolean(),
  comment: z.string(),
  username: z.string().nullable(),
  timestamp: z.string(),
})

export const QueryLog = z.object({
  id: z.number().int(),
  command: z.string(),
  answer: z.string().nullable(),
  status: z.string(),
  mode: z.string(),
  feedback: z.enum(['like', 'dislike']).nullable(),
  /** Why, in the asker's words (optional with the feedback). */
  feedback_reason: z.string().nullable().optional(),
  source_list: z.array(Source),
  /** With a not-found answer: the articles whose passages came close to the question (ADR 314); empty otherwise. */
  related_list: z.array(RelatedArticle).optional(),
  comment_id: z.number().int().nullable(),
  comment: z.string().nullable(),
  has_comment: z.boolean(),
  comment_list: z.array(LogComment),
  username: z.string().nullable(),
  timestamp: z.string(),
  duration_ms: z.number().int().nullable(),
  /** Agent runs: which agent (general or government) and the steps it took; null and [] for other questions. */
  variant: z.string().nullable(),
  steps: z.array(AgentTraceEntry),
  /** The language model that wrote the answer (or was asked and failed); null for quoted answers. */
  llm_model: z.string().nullable(),
  /** Why the model's answer was replaced by a quoted one (timeout, rate_limited, server, connection, interrupted, bad_response, refused, model_not_found, error); null when it was not. */
  llm_fallback: z.string().nullable(),
  llm_tokens_in: z.number().int().nullable(),
  llm_tokens_out: z.number().int().nullable(),
  /** Milliseconds from the request to the model to its first word, and to its end. */
  llm_first_token_ms: z.number().int().nullable(),
  llm_total_ms: z.number().int().nullable(),
  /** The note shown with the answer (why it quotes the sources although a model is configured). */
  answer_note: z.string().nullable(),
  /** Sentences of the answer, as written in it, that cite nothing and that no source supports. */
  unsupported: z.array(z.string()),
  /** Passages the firewall screened (instructions to the model taken out) before the model read them. */
  screened_passages: z.number().int().nullable(),
})
export type QueryLog = z.infer<typeof QueryLog>

export const QueryLogsPage = z.object({
  success: z.literal(true),
  message: z.string(),
  result: z.array(QueryLog),
  last_id: z.number().int().nullable(),
})
export type QueryLogsPage = z.infer<typeof QueryLogsPage>

export const LogIdQuery = z.object({ log_id: Id('log_id') })

/** GET /query_logs/query_log answers a result list with the one log. */
export const QueryLogAnswer = z.object({ success: z.literal(true), message: z.string(), result: z.array(QueryLog) })

/** SEED.md: booleans may arrive as strings; like/dislike, 1/-1 and true/false are all understood; none clears it. */
export const FeedbackValue = z
  .union([z.enum(['like', 'dislike', 'none', 'good', 'bad', 'true', 'false', '1', '-1', '0']), z.boolean(), z.literal(1), z.literal(-1), z.literal(0), z.null()])
  .transform((value): 'like' | 'dislike' | null => {
    if (value === 'like' || value === 'good' || value === 'true' || value === '1' || value === true || value === 1) return 'like'
    if (value === 'dislike' || value === 'bad' || value === 'false' || value === '-1' || value === false || value === -1) return 'dislike'
    return null
  })

export const FeedbackBody = z.object({
  log_id: Id('log_id'),
  feedback: FeedbackValue,
  /** Beyond SEED.md, optional: why, in the asker's words (empty clears it). */
  reason: z.string().trim().max(1000, 'reason is at most 1000 characters').optional(),
})

export const MainCommentBody = z.object({
  log_id: Id('log_id'),
  comment: z.string().trim().min(1, 'comment is required').max(5000, 'comment is at most 5000 characters'),
})

export const ListCommentBody = MainCommentBody
export const ListCommentUpdate = z.object({
  id: Id('id'),
  comment: z.string().trim().min(1, 'comment is required').max(5000, 'comment is at most 5000 characters'),
})
export const IdQuery = z.object({ id: Id('id') })

/** The changed log comes back so a screen updates it in place. */
export const LogChanged = z.object({ success: z.literal(true), message: z.string(), result: QueryLog })

export const Favorite = z.object({
  id: z.number().int(),
  log_id: z.number().int(),
  comment: z.string(),
  command: z.string(),
  answer: z.string().nullable(),
  timestamp: z.string(),
})

export const FavoritesAnswer = z.object({ success: z.literal(true), result: z.array(Favorite) })

/** SEED.md: {log_id, comment, id, comment_list_id, and more}; with an id it updates that saved query. */
export const FavoriteBody = z
  .object({
    log_id: Id('log_id'),
    comment: z.string().trim().max(5000, 'comment is at most 5000 characters').default(''),
    id: Id('id').optional().nullable(),
    comment_list_id: Id('comment_list_id').optional().nullable(),
  })
  .passthrough()

/** Query of DELETE /query_logs/delete_query_favorite: a saved query's id, or (comment_list_id) an entry of a log's comment list. */
export const FavoriteDeleteQuery = z
  .object({ id: Id('id').optional(), comment_list_id: Id('comment_list_id').optional() })
  .refine((query) => Boolean(query.id) !== Boolean(query.comment_list_id), { message: 'give id or comment_list_id, one of them', path: ['id'] })

export const FavoriteSaved = z.object({ success: z.literal(true), message: z.string(), error: z.null(), id: z.number().int() })
