import { stringify } from 'csv-stringify/sync'
import type { z } from 'zod'
import type { FavoriteBody, QueryLog, QueryLogsPage, QueryLogsQuery } from '../../../../contracts/query-logs'
import type { Database } from '../../db/database'
import { AppError, InvalidInputError, NotFoundError } from '../../errors'
import { spreadsheetSafeRow } from './csv-cells'
import type { CurrentUser } from '../identity/identity.types'
import { queryLogsRepository as repository, type LogScope, type QueryLogRecord } from './query-logs.repository'

export const toQueryLog = (record: QueryLogRecord): QueryLog => ({
  id: record.id,
  command: record.command,
  answer: record.answer,
  status: record.status,
  mode: record.mode,
  feedback: record.feedback,
  feedback_reason: record.feedbackReason,
  source_list: record.sourceList,
  related_list: record.relatedList,
  comment_id: record.comment ? record.id : null,
  comment: record.comment,
  has_comment: Boolean(record.comment) || record.comments.length > 0,
  comment_list: record.comments.map((comment) => ({
    id: comment.id,
    comment_id: comment.id,
    has_comment: true,
    comment: comment.comment,
    username: comment.username,
    timestamp: comment.createdAt.toISOString(),
  })),
  username: record.username,
  timestamp: record.createdAt.toISOString(),
  duration_ms: record.durationMs,
  variant: record.variant,
  steps: record.steps,
  llm_model: record.answering.model,
  llm_fallback: record.answering.fallback,
  llm_tokens_in: record.answering.tokensIn,
  llm_tokens_out: record.answering.tokensOut,
  llm_first_token_ms: record.answering.firstTokenMs,
  llm_total_ms: record.answering.totalMs,
  answer_note: record.answering.note,
  unsupported: record.answering.unsupported,
  screened_passages: record.answering.screenedPassages,
})

/**
 * Administrators see and change every organisation's logs; editors their own organisation's; users only their
 * own (their questions, their feedback, their agent runs).
 */
export const scopeOf = (user: CurrentUser): LogScope => ({
  organizationId: user.role === 'admin' ? null : user.organizationId,
  userId: user.role === 'user' ? user.id : null,
})

const sourcesText = (record: QueryLogRecord) =>
  record.sourceList.map((source) => `${source.metadata.title}${source.metadata.is_deleted ? ' (deleted)' : ''}`).join('; ')

/** The query log: reading, feedback, comments, saved queries and CSV exports. */
export class QueryLogsService {
  constructor(private readonly db: Database) {}

  async page(user: CurrentUser, query: z.infer<typeof QueryLogsQuery>): Promise<QueryLogsPage> {
    const records = await repository.page(this.db, {
      limit: query.limit,
      lastId: query.last_id,
      status: query.status,
      scope: scopeOf(user),
      search: query.q || undefined,
      from: query.from,
      to: query.to,
      filters: query.filters,
      sortField: query.sortField,
      order: query.sortOrder === 1 ? 1 : -1,
    })
    return {
      success: true,
      message: records.length ? `${records.length} logs` : 'No more logs',
      result: records.map(toQueryLog),
      last_id: records.length ? records[records.length - 1].id : null,
    }
  }

  async one(user: CurrentUser, logId: number): Promise<QueryLog> {
    const log = toQueryLog(await this.require(user, logId))
    // Comments are the editors' notes on a log: a user reading their own question does not see them.
    return user.role === 'user' ? { ...log, comment_id: null, comment: null, has_comment: false, comment_list: [] } : log
  }

  async setFeedback(user: CurrentUser, logId: number, feedback: 'like' | 'dislike' | null, reason?: string): Promise<QueryLog> {
    await this.require(user, logId)
    await repository.setFeedback(this.db, logId, feedback, reason)
    return this.one(user, logId)
  }

  async setMainComment(user: CurrentUser, logId: number, comment: string | null): Promise<{ log: QueryLog; message: string }> {
    const log = await this.require(user, logId)
    await repository.setMainComment(this.db, logId, comment)
    const message = comment === null ? 'Comment deleted' : log.comment ? 'Comment updated' : 'Comment added'
    return { log: await this.one(user, logId), message }
  }

  async addComment(user: CurrentUser, logId: number, comment: string): Promise<QueryLog> {
    await this.require(user, logId)
    await repository.addComment(this.db, logId, user.id, comment)
    return this.one(user, logId)
  }

  async updateComment(user: CurrentUser, commentId: number, comment: string): Promise<QueryLog> {
    const logId = await this.requireComment(user, commentId)
    await repository.updateComment(this.db, commentId, comment)
    return this.one(user, logId)
  }

  async deleteComment(user: CurrentUser, commentId: number): Promise<QueryLog> {
    const logId = await this.requireComment(user, commentId)
    await repository.deleteComment(this.db, commentId)
    return this.one(user, logId)
  }

  async favorites(user: CurrentUser) {
    const rows = await repository.favorites(this.db, user.id, scopeOf(user))
    return rows.map((row) => ({ id: row.id, log_id: row.log_id, comment: row.comment, command: row.command, answer: row.answer, timestamp: row.created_at.toISOString() }))
  }

  /**
   * SEED.md's client edits an entry of a log's comment list through add_query_favorite, naming it by
   * `comment_list_id`; comments are the editors' notes, so a user may not. The entry must be on that log.
   */
  async saveListComment(user: CurrentUser, logId: number, commentListId: number, comment: string): Promise<number> {
    if (user.role === 'user') throw new AppError(403, 'Forbidden', 'Only editors and administrators change the comments of a log')
    if (!comment.trim()) throw new InvalidInputError('comment', 'comment is required to change an entry of the comment list')
    const entry = await repository.findComment(this.db, commentListId)
    if (!entry || entry.logId !== logId) throw new NotFoundError(`No comment ${commentListId} on query log ${logId}`)
    await this.require(user, logId)
    await repository.updateComment(this.db, commentListId, comment)
    return commentListId
  }

  /** delete_query_favorite with `comment_list_id`: deletes that entry of a log's comment list (editors and administrators). */
  async deleteListComment(user: CurrentUser, commentListId: number): Promise<void> {
    if (user.role === 'user') throw new AppError(403, 'Forbidden', 'Only editors and administrators delete the comments of a log')
    await this.deleteComment(user, commentListId)
  }

  async saveFavorite(user: CurrentUser, body: z.infer<typeof FavoriteBody>): Promise<number> {
    // A caller saves the questions they can see: a user their own, an editor any of their organisation's.
    await this.require(user, body.log_id)
    const id = await repository.saveFavorite(this.db, user.id, body.log_id, body.comment, body.id ?? undefined)
    if (!id) throw new NotFoundError(`No saved query ${body.id}`)
    return id
  }

  async deleteFavorite(user: CurrentUser, id: number): Promise<void> {
    if (!(await repository.deleteFavorite(this.db, user.id, id))) throw new NotFoundError(`No saved query ${id}`)
  }

  /** query_logs.csv: every log in the caller's scope; `related` names the articles a not-found answer pointed to. */
  async csv(user: CurrentUser): Promise<string> {
    const records = await repository.all(this.db, scopeOf(user))
    return stringify(
      records.map((record) =>
        spreadsheetSafeRow([
          record.id,
          record.createdAt.toISOString(),
          record.username ?? '',
          record.mode,
          record.status,
          record.command,
          record.answer ?? '',
          sourcesText(record),
          record.relatedList.map((article) => article.title).join('; '),
          record.feedback ?? '',
          record.feedbackReason ?? '',
          [record.comment, ...record.comments.map((comment) => comment.comment)].filter(Boolean).join(' | '),
          record.durationMs ?? '',
        ]),
      ),
      { header: true, columns: ['id', 'timestamp', 'user', 'mode', 'status', 'question', 'answer', 'sources', 'related', 'feedback', 'feedback_reason', 'comments', 'duration_ms'] },
    )
  }

  /** The dataset CSV: question, answer, sources, feedback, comments (for evaluation and fine-tuning). */
  async datasetCsv(user: CurrentUser): Promise<string> {
    const records = await repository.all(this.db, scopeOf(user))
    return stringify(
      records
        .filter((record) => record.answer !== null)
        .map((record) =>
          spreadsheetSafeRow([
            record.command,
            record.answer ?? '',
            sourcesText(record),
            record.feedback ?? '',
            [record.comment, ...record.comments.map((comment) => comment.comment)].filter(Boolean).join(' | '),
          ]),
        ),
      { header: true, columns: ['question', 'answer', 'sources', 'feedback', 'comments'] },
    )
  }

  private async require(user: CurrentUser, logId: number): Promise<QueryLogRecord> {
    const log = await repository.find(this.db, logId, scopeOf(user))
    // A log outside the caller's scope is reported as missing, not forbidden: its existence is not disclosed.
    if (!log) throw new NotFoundError(`No query log ${logId}`)
    return log
  }

  private async requireComment(user: CurrentUser, commentId: number): Promise<number> {
    const comment = await repository.findComment(this.db, commentId)
    if (!comment) throw new NotFoundError(`No comment ${commentId}`)
    await this.require(user, comment.logId)
    return comment.logId
  }
}
