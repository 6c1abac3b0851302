import type { AgentSection, AgentTraceEntry, AgentVariant } from '../../../../contracts/agents'
import type { Source } from '../../../../contracts/ask'
import type { Queryable } from '../../db/database'
import type { CitableChunk } from '../../answering/citations'
import type { LogScope, LogStatus } from '../query-logs/query-logs.repository'

/** An agent run as the query log records it. */
export interface AgentRunRecord {
  id: number
  command: string
  answer: string | null
  sourceList: Source[]
  status: LogStatus
  taskId: string | null
  timezone: string | null
  variant: AgentVariant | null
  templateId: number | null
  steps: AgentTraceEntry[] | null
  sections: AgentSection[] | null
  error: string | null
  isCancelled: boolean
  /** The language model that wrote the answer (or some of its parts); null when it quotes the sources. */
  model: string | null
  /** Why parts of the answer quote the sources although a model is configured (the model failed). */
  note: string | null
}

interface AgentRunRow {
  id: number
  command: string
  answer: string | null
  source_list: Source[]
  status: LogStatus
  task_id: string | null
  timezone: string | null
  variant: AgentVariant | null
  template_id: number | null
  steps: AgentTraceEntry[] | null
  sections: AgentSection[] | null
  error: string | null
  cancelled_at: Date | null
  llm_model: string | null
  answer_note: string | null
}

const toRecord = (row: AgentRunRow): AgentRunRecord => ({
  id: row.id,
  command: row.command,
  answer: row.answer,
  sourceList: row.source_list,
  status: row.status,
  taskId: row.task_id,
  timezone: row.timezone,
  variant: row.variant,
  templateId: row.template_id,
  steps: row.steps,
  sections: row.sections,
  error: row.error,
  isCancelled: row.cancelled_at !== null,
  model: row.llm_model,
  note: row.answer_note,
})

export interface RunOutcomeRecord {
  answer: string | null
  sourceList: Source[]
  status: Exclude<LogStatus, 'pending'>
  steps: AgentTraceEntry[]
  sections: AgentSection[] | null
  error: string | null
  durationMs: number
  /** With a language model: how the answer was written (WritingReport). */
  model?: string | null
  fallback?: string | null
  note?: string | null
}

/** SQL for agent runs: their columns of the query log, and the article lookup tool's title search. */
export const agentsRepository = {
  async setRunOf(db: Queryable, logId: number, run: { variant: AgentVariant; templateId: number | null }): Promise<void> {
    await db.query(`UPDATE query_logs SET variant = $2, template_id = $3 WHERE id = $1`, [logId, run.variant, run.templateId])
  },

  /** One run's log, if the scope allows it. */
  async findRun(db: Queryable, logId: number, scope: LogScope = { organizationId: null }): Promise<AgentRunRecord | undefined> {
    const [row] = await db.query<AgentRunRow>(
      `SELECT id, command, answer, source_list, status, task_id, timezone, variant, template_id, steps, sections, error, cancelled_at,
              llm_model, answer_note
         FROM query_logs WHERE id = $1 AND ($2::int IS NULL OR organization_id = $2) AND ($3::int IS NULL OR user_id = $3)`,
      [logId, scope.organizationId, scope.userId ?? null],
    )
    return row ? toRecord(row) : undefined
  },

  /**
   * Records how a run ended, unless it already has (a cancellation got there first). The log is the one place
   * a run's end is decided, so a run and its cancellation never both win.
   */
  async completeRun(db: Queryable, logId: number, outcome: RunOutcomeRecord): Promise<boolean> {
    const rows = await db.query(
      `UPDATE query_logs SET answer = $2, source_list = $3::jsonb, status = $4, steps = $5::jsonb, sections = $6::jsonb, error = $7, duration_ms = $8,
              llm_model = $9, llm_fallback = $10, answer_note = $11
        WHERE id = $1 AND status = 'pending' RETURNING id`,
      [
        logId,
        outcome.answer,
        JSON.stringify(outcome.sourceList),
        outcome.status,
        JSON.stringify(outcome.steps),
        outcome.sections ? JSON.stringify(outcome.sections) : null,
        outcome.error,
        outcome.durationMs,
        outcome.model ?? null,
        outcome.fallback ?? null,
        outcome.note ?? null,
      ],
    )
    return rows.length > 0
  },

  /** Ends a run that has not ended yet as cancelled (logged as failed); false when it had already ended. */
  async cancelRun(db: Queryable, logId: number, steps: AgentTraceEntry[], durationMs: number): Promise<boolean> {
    const rows = await db.query(
      `UPDATE query_logs SET status = 'failed', error = 'The run was cancelled', cancelled_at = now(), steps = $2::jsonb, duration_ms = $3
        WHERE id = $1 AND status = 'pending' RETURNING id`,
      [logId, JSON.stringify(steps), durationMs],
    )
    return rows.length > 0
  },

  /**
   * The passages of the published article whose title matches, in their order: an exact title (ignoring case
   * and accents) first, else the shortest title containing the words.
   */
  async findArticleByTitle(db: Queryable, title: string, limit: number): Promise<CitableChunk[]> {
    const rows = await db.query<{ id: number; article_id: number; text: string; title: string; metadata: Record<string, unknown> }>(
      `SELECT c.id, c.article_id, c.text, a.title, a.metadata
         FROM chunks c JOIN articles a ON a.id = c.article_id
        WHERE a.id = (
          SELECT id FROM articles WHERE strpos(fold_text(title), fold_text($1)) > 0
           ORDER BY fold_text(title) = fold_text($1) DESC, length(title), id LIMIT 1)
        ORDER BY c.ordinal LIMIT $2`,
      [title, limit],
    )
    // An article named by its title is exactly what was asked for: it ranks as a full match.
    return rows.map((row) => ({
      chunkId: row.id,
      articleId: row.article_id,
      title: row.title,
      text: row.text,
      source: typeof row.metadata.source === 'string' ? row.metadata.source : row.title,
      score: 1,
    }))
  },
}
