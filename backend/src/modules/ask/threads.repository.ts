import type { Queryable } from '../../db/database'

/** One earlier question of a thread and its answer, as the next question's context. */
export interface ThreadTurnRecord {
  logId: number
  command: string
  answer: string | null
  status: string
}

export interface ThreadSummaryRecord {
  threadId: number
  command: string
  turns: number
  lastAskedAt: Date
}

/**
 * SQL of conversations: a thread is the expert questions sharing a `thread_id`, the log id of the first one. Every
 * read is limited to the thread's owner: a thread is someone's conversation, not a log to curate (editors and
 * administrators read logs through the query-log calls).
 */
export const threadsRepository = {
  /** Whether the thread exists and is the user's own. */
  async isOwnThread(db: Queryable, threadId: number, userId: number): Promise<boolean> {
    const rows = await db.query(`SELECT 1 FROM query_logs WHERE id = $1 AND thread_id = $1 AND mode = 'expert' AND user_id = $2`, [threadId, userId])
    return rows.length > 0
  },

  /**
   * For a question about to be asked in a thread: undefined when the thread is not the user's own (or does not
   * exist), else its latest `limit` answered questions, oldest first. One read for both.
   */
  async ownThreadTurns(db: Queryable, threadId: number, userId: number, limit: number): Promise<ThreadTurnRecord[] | undefined> {
    const rows = await db.query<{ id: number | null; command: string | null; answer: string | null; status: string | null }>(
      `SELECT e.id, e.command, e.answer, e.status
         FROM (SELECT id FROM query_logs WHERE id = $1 AND thread_id = $1 AND mode = 'expert' AND user_id = $2) r
         LEFT JOIN LATERAL (SELECT id, command, answer, status FROM query_logs
                             WHERE thread_id = r.id AND mode = 'expert' AND user_id = $2 AND status IN ('answered', 'not_found')
                             ORDER BY id DESC LIMIT $3) e ON true
        ORDER BY e.id DESC`,
      [threadId, userId, limit],
    )
    if (rows.length === 0) return undefined
    return rows
      .filter((row) => row.id !== null)
      .reverse()
      .map((row) => ({ logId: row.id!, command: row.command!, answer: row.answer, status: row.status! }))
  },

  /** The log ids of a thread, oldest first, if the thread is the user's own (else none). */
  async turnIds(db: Queryable, threadId: number, userId: number): Promise<number[]> {
    const rows = await db.query<{ id: number }>(`SELECT id FROM query_logs WHERE thread_id = $1 AND mode = 'expert' AND user_id = $2 ORDER BY id`, [
      threadId,
      userId,
    ])
    return rows.map((row) => row.id)
  },

  /** The answered questions of a thread before `beforeLogId`, the latest `limit` of them, oldest first. */
  async earlierTurns(db: Queryable, logId: number, limit: number): Promise<ThreadTurnRecord[]> {
    const rows = await db.query<{ id: number; command: string; answer: string | null; status: string }>(
      `SELECT e.id, e.command, e.answer, e.status FROM query_logs l
         JOIN query_logs e ON e.thread_id = l.thread_id AND e.id < l.id AND e.mode = 'expert' AND e.user_id IS NOT DISTINCT FROM l.user_id
        WHERE l.id = $1 AND e.status IN ('answered', 'not_found')
        ORDER BY e.id DESC LIMIT $2`,
      [logId, limit],
    )
    return rows.reverse().map((row) => ({ logId: row.id, command: row.command, answer: row.answer, status: row.status }))
  },

  /** The user's threads, the most recently continued first. */
  async recent(db: Queryable, userId: number, limit: number, offset = 0): Promise<ThreadSummaryRecord[]> {
    const rows = await db.query<{ thread_id: number; command: string; turns: number | string; last_asked_at: Date }>(
      `SELECT t.thread_id, f.command, t.turns, t.last_asked_at
         FROM (SELECT thread_id, count(*) AS turns, max(created_at) AS last_asked_at, max(id) AS last_id FROM query_logs
                WHERE user_id = $1 AND mode = 'expert' AND thread_id IS NOT NULL GROUP BY thread_id) t
         JOIN query_logs f ON f.id = t.thread_id
        ORDER BY t.last_id DESC LIMIT $2 OFFSET $3`,
      [userId, limit, offset],
    )
    return rows.map((row) => ({ threadId: row.thread_id, command: row.command, turns: Number(row.turns), lastAskedAt: row.last_asked_at }))
  },
}
