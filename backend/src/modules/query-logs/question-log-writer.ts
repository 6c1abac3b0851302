import type { Queryable } from '../../db/database'
import { queryLogsRepository, type QuestionLogEntry } from './query-logs.repository'

/** Rows written by one statement at most: a bound on its size, far above what arrives while one is written. */
const MAX_ROWS_PER_STATEMENT = 200

interface Waiting {
  entry: QuestionLogEntry
  resolve: (logged: { id: number; threadId: number }) => void
  reject: (error: unknown) => void
}

/**
 * Writes answered questions' log rows (ADR 140) with one statement in flight at a time: a row that arrives while
 * one is being written, or in the same turn of the event loop as others, goes with them in one statement.
 * Alone, a row is written in the next turn. Under load this turns a write per question into a write per batch, which is
 * what one embedded database can keep up with. A failed batch is written again row by row, so that one bad row
 * fails only its own question.
 */
export class QuestionLogWriter {
  private readonly waiting: Waiting[] = []
  private writing = false

  constructor(private readonly db: Queryable) {}

  insert(entry: QuestionLogEntry): Promise<{ id: number; threadId: number }> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ entry, resolve, reject })
      if (this.writing) return
      this.writing = true
      // After this turn of the event loop: the questions answered in the same turn go in one statement (an
      // embedded database writes synchronously, so none would arrive while a write is in flight).
      setImmediate(() => void this.drain())
    })
  }

  private async drain(): Promise<void> {
    try {
      while (this.waiting.length > 0) {
        const batch = this.waiting.splice(0, MAX_ROWS_PER_STATEMENT)
        try {
          const logged = await queryLogsRepository.insertQuestions(this.db, batch.map((waiting) => waiting.entry))
          batch.forEach((waiting, position) => waiting.resolve(logged[position] as { id: number; threadId: number }))
        } catch (error) {
          if (batch.length === 1) batch[0]?.reject(error)
          else for (const waiting of batch) await queryLogsRepository.insertQuestion(this.db, waiting.entry).then(waiting.resolve, waiting.reject)
        }
      }
    } finally {
      this.writing = false
    }
  }
}
