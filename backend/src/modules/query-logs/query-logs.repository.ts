import type { AgentTraceEntry } from '../../../../contracts/agents'
import type { RelatedArticle, Source } from '../../../../contracts/ask'
import { LOG_FILTER_COLUMNS, type LogFilters } from '../../../../contracts/query-logs'
import { addParameter, columnFiltersSql, foldedContains, type FilterColumnSql } from '../../db/column-filters-sql'
import type { Queryable } from '../../db/database'

export type LogStatus = 'pending' | 'answered' | 'not_found' | 'blocked' | 'failed'

/** How a question ended: its answer, the sources it cites, and with a not-found answer the articles that may help. */
export interface LogOutcome {
  answer: string | null
  sourceList: Source[]
  status: LogStatus
  durationMs: number
  relatedList?: RelatedArticle[]
}

/** A question as logged when asked, with its outcome when it was answered at once. */
export interface QuestionLogEntry {
  command: string
  timezone?: string
  mode: string
  userId?: number
  organizationId?: number
  threadId?: number
  taskId?: string
  outcome?: LogOutcome
  metrics?: AnswerMetricsRecord
}

export interface LogCommentRecord {
  id: number
  logId: number
  comment: string
  username: string | null
  createdAt: Date
}

export interface QueryLogRecord {
  id: number
  command: string
  answer: string | null
  sourceList: Source[]
  /** With a not-found answer: the articles that may help (ADR 314). */
  relatedList: RelatedArticle[]
  status: LogStatus
  mode: string
  feedback: 'like' | 'dislike' | null
  /** Why, in the asker's words (optional with the feedback). */
  feedbackReason: string | null
  /** The conversation it belongs to: the log id of its first question (null for agent runs). */
  threadId: number | null
  comment: string | null
  taskId: string | null
  durationMs: number | null
  variant: string | null
  steps: AgentTraceEntry[]
  userId: number | null
  organizationId: number | null
  username: string | null
  createdAt: Date
  comments: LogCommentRecord[]
  answering: AnswerMetricsRecord
}

/** How an answer was written when a language model is configured (all null for quoted answers). */
export interface AnswerMetricsRecord {
  model: string | null
  /** Why the quoted answer replaced the model's (the model's failure), or null. */
  fallback: string | null
  tokensIn: number | null
  tokensOut: number | null
  firstTokenMs: number | null
  totalMs: number | null
  note: string | null
  unsupported: string[]
  screenedPassages: number | null
}

interface QueryLogRow {
  id: number
  command: string
  answer: string | null
  source_list: Source[]
  related_list?: RelatedArticle[] | null
  status: LogStatus
  mode: string
  feedback: 'like' | 'dislike' | null
  feedback_reason?: string | null
  thread_id?: number | null
  comment: string | null
  task_id: string | null
  duration_ms: number | null
  variant: string | null
  steps: AgentTraceEntry[] | null
  user_id: number | null
  organization_id: number | null
  username: string | null
  created_at: Date
  llm_model?: string | null
  llm_fallback?: string | null
  llm_tokens_in?: number | null
  llm_tokens_out?: number | null
  llm_first_token_ms?: number | null
  llm_total_ms?: number | null
  answer_note?: string | null
  unsupported_sentences?: string[] | null
  screened_passages?: number | null
}

/**
 * Which logs a caller may see: one organisation's, or all (administrators); and within it one user's own, or
 * everyone's (null or absent).
 */
export interface LogScope {
  organizationId: number | null
  userId?: number | null
}

const toRecord = (row: QueryLogRow, comments: LogCommentRecord[] = []): QueryLogRecord => ({
  id: row.id,
  command: row.command,
  answer: row.answer,
  sourceList: row.source_list,
  relatedList: row.related_list ?? [],
  status: row.status,
  mode: row.mode,
  feedback: row.feedback,
  feedbackReason: row.feedback_reason ?? null,
  threadId: row.thread_id ?? null,
  comment: row.comment,
  taskId: row.task_id,
  durationMs: row.duration_ms,
  variant: row.variant,
  steps: row.steps ?? [],
  userId: row.user_id,
  organizationId: row.organization_id,
  username: row.username,
  createdAt: row.created_at,
  comments,
  answering: {
    model: row.llm_model ?? null,
    fallback: row.llm_fallback ?? null,
    tokensIn: row.llm_tokens_in ?? null,
    tokensOut: row.llm_tokens_out ?? null,
    firstTokenMs: row.llm_first_token_ms ?? null,
    totalMs: row.llm_total_ms ?? null,
    note: row.answer_note ?? null,
    unsupported: row.unsupported_sentences ?? [],
    screenedPassages: row.screened_passages ?? null,
  },
})

// Status filters of the Logs screen, as SQL conditions (never built from input).
const STATUS_CONDITIONS = {
  all: 'TRUE',
  liked: `l.feedback = 'like'`,
  disliked: `l.feedback = 'dislike'`,
  'no feedback': 'l.feedback IS NULL',
  commented: `((l.comment IS NOT NULL AND l.comment <> '') OR EXISTS (SELECT 1 FROM query_log_comments c WHERE c.log_id = l.id))`,
  'not found': `l.status = 'not_found'`,
  blocked: `l.status = 'blocked'`,
  failed: `l.status = 'failed'`,
} as const

export type LogStatusFilter = keyof typeof STATUS_CONDITIONS

// Whitelisted expressions of the logs table's column filters (contracts/query-logs.ts: LOG_FILTER_COLUMNS).
const LOG_FILTER_SQL: Record<keyof typeof LOG_FILTER_COLUMNS, FilterColumnSql> = {
  command: { kind: LOG_FILTER_COLUMNS.command, expression: 'fold_text(l.command)' },
  answer: { kind: LOG_FILTER_COLUMNS.answer, expression: "fold_text(COALESCE(l.answer, ''))" },
  username: { kind: LOG_FILTER_COLUMNS.username, expression: "fold_text(COALESCE(u.username, ''))" },
  id: { kind: LOG_FILTER_COLUMNS.id, expression: 'l.id' },
  duration_ms: { kind: LOG_FILTER_COLUMNS.duration_ms, expression: 'l.duration_ms' },
  timestamp: { kind: LOG_FILTER_COLUMNS.timestamp, expression: 'l.created_at' },
}

/** What a page of the logs table asks for. */
export interface LogPageQuery {
  limit: number
  lastId?: number
  status: LogStatusFilter
  scope: LogScope
  /** Found in the question or the answer, ignoring case and accents. */
  search?: string
  /** Calendar days (YYYY-MM-DD, UTC), both included. */
  from?: string
  to?: string
  filters?: LogFilters
  sortField: 'id' | 'timestamp'
  order: 1 | -1
}

const SELECT_LOG = `SELECT l.*, u.username FROM query_logs l LEFT JOIN users u ON u.id = l.user_id`

/** The words of the table's search, each once: none for an empty search. */
export const searchWords = (search: string | undefined): string[] => [...new Set((search ?? '').split(/\s+/).filter(Boolean))]

async function withComments(db: Queryable, rows: QueryLogRow[]): Promise<QueryLogRecord[]> {
  if (rows.length === 0) return []
  const comments = await db.query<{ id: number; log_id: number; comment: string; username: string | null; created_at: Date }>(
    `SELECT c.id, c.log_id, c.comment, u.username, c.created_at FROM query_log_comments c LEFT JOIN users u ON u.id = c.user_id
      WHERE c.log_id = ANY($1::int[]) ORDER BY c.id`,
    [rows.map((row) => row.id)],
  )
  const byLog = new Map<number, LogCommentRecord[]>()
  for (const comment of comments) {
    const list = byLog.get(comment.log_id) ?? []
    list.push({ id: comment.id, logId: comment.log_id, comment: comment.comment, username: comment.username, createdAt: comment.created_at })
    byLog.set(comment.log_id, list)
  }
  return rows.map((row) => toRecord(row, byLog.get(row.id)))
}

/** SQL for the query log: every question asked, its answer, sources, feedback and comments. */
export const queryLogsRepository = {
  async insertPending(db: Queryable, entry: { command: string; timezone?: string; mode: string; userId?: number; organizationId?: number }): Promise<number> {
    const [row] = await db.query<{ id: number }>(
      `INSERT INTO query_logs (command, timezone, mode, user_id, organization_id) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
      [entry.command, entry.timezone ?? null, entry.mode, entry.userId ?? null, entry.organizationId ?? null],
    )
    return row.id
  },

  /**
   * Logs a question in one statement: its thread (`threadId`, or a thread of its own: the new row's id) and task
   * id, and, when it is already answered, its outcome and how it was written. Without `outcome` it is `pending`.
   */
  async insertQuestion(db: Queryable, entry: QuestionLogEntry): Promise<{ id: number; threadId: number }> {
    return (await queryLogsRepository.insertQuestions(db, [entry]))[0] as { id: number; threadId: number }
  },

  /** Logs several questions as `insertQuestion` does, in one statement; their ids and threads in the order given. */
  async insertQuestions(db: Queryable, entries: readonly QuestionLogEntry[]): Promise<{ id: number; threadId: number }[]> {
    if (entries.length === 0) return []
    const rows = entries.map((entry, position) => {
      const { outcome, metrics } = entry
      return {
        position,
        thread_id: entry.threadId ?? null,
        command: entry.command,
        timezone: entry.timezone ?? null,
        mode: entry.mode,
        user_id: entry.userId ?? null,
        organization_id: entry.organizationId ?? null,
        task_id: entry.taskId ?? null,
        answer: outcome?.answer ?? null,
        source_list: outcome?.sourceList ?? [],
        related_list: outcome?.relatedList ?? [],
        status: outcome?.status ?? 'pending',
        duration_ms: outcome?.durationMs ?? null,
        llm_model: metrics?.model ?? null,
        llm_fallback: metrics?.fallback ?? null,
        llm_tokens_in: metrics?.tokensIn ?? null,
        llm_tokens_out: metrics?.tokensOut ?? null,
        llm_first_token_ms: metrics?.firstTokenMs ?? null,
        llm_total_ms: metrics?.totalMs ?? null,
        answer_note: metrics?.note ?? null,
        unsupported_sentences: metrics?.unsupported.length ? metrics.unsupported : null,
        screened_passages: metrics?.screenedPassages ?? null,
      }
    })
    // Each row draws its id first, so that a question starting its own thread names itself in the same row.
    const inserted = await db.query<{ id: number; thread_id: number; position: number }>(
      `WITH input AS (
         SELECT nextval(pg_get_serial_sequence('query_logs', 'id'))::int AS id, r.*
           FROM jsonb_to_recordset($1::jsonb) AS r(position int, thread_id int, command text, timezone text, mode text, user_id int,
                organization_id int, task_id text, answer text, source_list jsonb, related_list jsonb, status text, duration_ms int, llm_model text,
                llm_fallback text, llm_tokens_in int, llm_tokens_out int, llm_first_token_ms int, llm_total_ms int, answer_note text,
                unsupported_sentences jsonb, screened_passages int)
          ORDER BY r.position
       ), logged AS (
         INSERT INTO query_logs (id, thread_id, command, timezone, mode, user_id, organization_id, task_id, answer, source_list, related_list, status, duration_ms,
                                 llm_model, llm_fallback, llm_tokens_in, llm_tokens_out, llm_first_token_ms, llm_total_ms, answer_note,
                                 unsupported_sentences, screened_passages)
         SELECT id, COALESCE(thread_id, id), command, timezone, mode, user_id, organization_id, task_id, answer, source_list, COALESCE(related_list, '[]'::jsonb), status, duration_ms,
                llm_model, llm_fallback, llm_tokens_in, llm_tokens_out, llm_first_token_ms, llm_total_ms, answer_note,
                NULLIF(unsupported_sentences, 'null'::jsonb), screened_passages
           FROM input
         RETURNING id, thread_id
       )
       SELECT logged.id, logged.thread_id, input.position FROM logged JOIN input ON input.id = logged.id`,
      [JSON.stringify(rows)],
    )
    const byPosition = new Map(inserted.map((row) => [row.position, { id: row.id, threadId: row.thread_id }]))
    return entries.map((_, position) => byPosition.get(position) as { id: number; threadId: number })
  },

  /** The log a task id was given to, if the scope allows it (answers given at once have a task id but no job). */
  async findByTask(db: Queryable, taskId: string, scope: LogScope = { organizationId: null }): Promise<QueryLogRecord | undefined> {
    const rows = await db.query<QueryLogRow>(
      `${SELECT_LOG} WHERE l.task_id = $1 AND ($2::int IS NULL OR l.organization_id = $2) AND ($3::int IS NULL OR l.user_id = $3) ORDER BY l.id LIMIT 1`,
      [taskId, scope.organizationId, scope.userId ?? null],
    )
    return (await withComments(db, rows))[0]
  },

  async setTask(db: Queryable, id: number, taskId: string): Promise<void> {
    await db.query(`UPDATE query_logs SET task_id = $2 WHERE id = $1`, [id, taskId])
  },

  /**
   * Ends a pending log with its answer; `metrics` (how a model wrote it) goes in the same write. A log that has ended
   * already is left as it is (another process answered the question first): resolves false then.
   */
  async complete(
    db: Queryable,
    id: number,
    outcome: LogOutcome,
    metrics?: AnswerMetricsRecord,
  ): Promise<boolean> {
    if (!metrics) {
      const rows = await db.query(
        `UPDATE query_logs SET answer = $2, source_list = $3::jsonb, status = $4, duration_ms = $5, related_list = $6::jsonb WHERE id = $1 AND status = 'pending' RETURNING id`,
        [id, outcome.answer, JSON.stringify(outcome.sourceList), outcome.status, outcome.durationMs, JSON.stringify(outcome.relatedList ?? [])],
      )
      return rows.length > 0
    }
    const rows = await db.query(
      `UPDATE query_logs SET answer = $2, source_list = $3::jsonb, status = $4, duration_ms = $5, llm_model = $6, llm_fallback = $7,
              llm_tokens_in = $8, llm_tokens_out = $9, llm_first_token_ms = $10, llm_total_ms = $11, answer_note = $12,
              unsupported_sentences = $13::jsonb, screened_passages = $14, related_list = $15::jsonb
        WHERE id = $1 AND status = 'pending' RETURNING id`,
      [
        id,
        outcome.answer,
        JSON.stringify(outcome.sourceList),
        outcome.status,
        outcome.durationMs,
        metrics.model,
        metrics.fallback,
        metrics.tokensIn,
        metrics.tokensOut,
        metrics.firstTokenMs,
        metrics.totalMs,
        metrics.note,
        metrics.unsupported.length ? JSON.stringify(metrics.unsupported) : null,
        metrics.screenedPassages,
        JSON.stringify(outcome.relatedList ?? []),
      ],
    )
    return rows.length > 0
  },

  /** One log, if the scope allows it. */
  async find(db: Queryable, id: number, scope: LogScope = { organizationId: null }): Promise<QueryLogRecord | undefined> {
    const rows = await db.query<QueryLogRow>(
      `${SELECT_LOG} WHERE l.id = $1 AND ($2::int IS NULL OR l.organization_id = $2) AND ($3::int IS NULL OR l.user_id = $3)`,
      [id, scope.organizationId, scope.userId ?? null],
    )
    return (await withComments(db, rows))[0]
  },

  /**
   * One page of the table: the status, search, date range and column filters, in the scope, sorted by id or time
   * (newest first unless `order` is 1), keyset-paged: the rows after `lastId` in that order.
   */
  async page(db: Queryable, options: LogPageQuery): Promise<QueryLogRecord[]> {
    const params: unknown[] = []
    const add = (value: unknown) => addParameter(params, value)
    const conditions: string[] = [`(${STATUS_CONDITIONS[options.status]})`]
    if (options.scope.organizationId !== null) conditions.push(`l.organization_id = ${add(options.scope.organizationId)}`)
    if (options.scope.userId) conditions.push(`l.user_id = ${add(options.scope.userId)}`)
    // Every word of the search, in any order, each in the question or in the answer.
    for (const word of searchWords(options.search)) {
      const text = add(word)
      conditions.push(`(${foldedContains('fold_text(l.command)', text)} OR ${foldedContains("fold_text(COALESCE(l.answer, ''))", text)})`)
    }
    if (options.from) conditions.push(`(l.created_at AT TIME ZONE 'UTC')::date >= ${add(options.from)}::date`)
    if (options.to) conditions.push(`(l.created_at AT TIME ZONE 'UTC')::date <= ${add(options.to)}::date`)
    if (options.filters) conditions.push(columnFiltersSql(options.filters, LOG_FILTER_SQL, params))
    const direction = options.order === 1 ? 'ASC' : 'DESC'
    const after = options.order === 1 ? '>' : '<'
    if (options.lastId) {
      const lastId = add(options.lastId)
      if (options.sortField === 'id') conditions.push(`l.id ${after} ${lastId}`)
      else {
        // The last row's own time is the cursor (a vanished row pages from the start, never fails).
        const edge = options.order === 1 ? `'-infinity'::timestamptz` : `'infinity'::timestamptz`
        conditions.push(`(l.created_at, l.id) ${after} (COALESCE((SELECT created_at FROM query_logs WHERE id = ${lastId}), ${edge}), ${lastId})`)
      }
    }
    const orderBy = options.sortField === 'id' ? `l.id ${direction}` : `l.created_at ${direction}, l.id ${direction}`
    const rows = await db.query<QueryLogRow>(`${SELECT_LOG} WHERE ${conditions.join(' AND ')} ORDER BY ${orderBy} LIMIT ${add(options.limit)}`, params)
    return withComments(db, rows)
  },

  /** Every log in scope, oldest first, for the CSV exports. */
  async all(db: Queryable, scope: LogScope): Promise<QueryLogRecord[]> {
    const rows = await db.query<QueryLogRow>(`${SELECT_LOG} WHERE ($1::int IS NULL OR l.organization_id = $1) AND ($2::int IS NULL OR l.user_id = $2) ORDER BY l.id`, [
      scope.organizationId,
      scope.userId ?? null,
    ])
    return withComments(db, rows)
  },

  /** Sets the feedback; a reason given (empty clears it) replaces the one before, none leaves it. */
  async setFeedback(db: Queryable, id: number, feedback: 'like' | 'dislike' | null, reason?: string): Promise<void> {
    await db.query(
      `UPDATE query_logs SET feedback = $2, feedback_at = now(), feedback_reason = CASE WHEN $3::boolean THEN NULLIF($4, '') ELSE feedback_reason END WHERE id = $1`,
      [id, feedback, reason !== undefined, reason ?? null],
    )
  },

  async setMainComment(db: Queryable, id: number, comment: string | null): Promise<void> {
    await db.query(`UPDATE query_logs SET comment = $2 WHERE id = $1`, [id, comment])
  },

  async addComment(db: Queryable, logId: number, userId: number, comment: string): Promise<number> {
    const [row] = await db.query<{ id: number }>(`INSERT INTO query_log_comments (log_id, user_id, comment) VALUES ($1, $2, $3) RETURNING id`, [
      logId,
      userId,
      comment,
    ])
    return row.id
  },

  async findComment(db: Queryable, id: number): Promise<{ id: number; logId: number } | undefined> {
    const [row] = await db.query<{ id: number; log_id: number }>(`SELECT id, log_id FROM query_log_comments WHERE id = $1`, [id])
    return row ? { id: row.id, logId: row.log_id } : undefined
  },

  async updateComment(db: Queryable, id: number, comment: string): Promise<void> {
    await db.query(`UPDATE query_log_comments SET comment = $2, updated_at = now() WHERE id = $1`, [id, comment])
  },

  async deleteComment(db: Queryable, id: number): Promise<void> {
    await db.query(`DELETE FROM query_log_comments WHERE id = $1`, [id])
  },

  /** A user's saved queries, of the logs their scope still lets them see. */
  async favorites(db: Queryable, userId: number, scope: LogScope) {
    return db.query<{ id: number; log_id: number; comment: string; command: string; answer: string | null; created_at: Date }>(
      `SELECT f.id, f.log_id, f.comment, l.command, l.answer, f.created_at FROM query_favorites f JOIN query_logs l ON l.id = f.log_id
        WHERE f.user_id = $1 AND ($2::int IS NULL OR l.organization_id = $2) AND ($3::int IS NULL OR l.user_id = $3) ORDER BY f.id DESC`,
      [userId, scope.organizationId, scope.userId ?? null],
    )
  },

  /** Saves a query for a user; saving the same log again updates its comment. */
  async saveFavorite(db: Queryable, userId: number, logId: number, comment: string, id?: number): Promise<number | undefined> {
    if (id) {
      const rows = await db.query<{ id: number }>(
        `UPDATE query_favorites SET comment = $3, log_id = $4, updated_at = now() WHERE id = $1 AND user_id = $2 RETURNING id`,
        [id, userId, comment, logId],
      )
      return rows[0]?.id
    }
    const [row] = await db.query<{ id: number }>(
      `INSERT INTO query_favorites (user_id, log_id, comment) VALUES ($1, $2, $3)
         ON CONFLICT (user_id, log_id) DO UPDATE SET comment = EXCLUDED.comment, updated_at = now() RETURNING id`,
      [userId, logId, comment],
    )
    return row.id
  },

  async deleteFavorite(db: Queryable, userId: number, id: number): Promise<boolean> {
    const rows = await db.query(`DELETE FROM query_favorites WHERE id = $1 AND user_id = $2 RETURNING id`, [id, userId])
    return rows.length > 0
  },
}
