import { randomUUID } from 'node:crypto'
import { EventEmitter } from 'node:events'
import type { Database } from '../db/database'

export type JobState = 'queued' | 'running' | 'finished' | 'failed' | 'cancelled'

export interface Job<Payload = unknown, Result = unknown> {
  id: string
  kind: string
  payload: Payload
  status: JobState
  progress: number
  total: number
  result: Result | null
  error: string | null
  attempts: number
  maxAttempts: number
  createdAt: Date
  finishedAt: Date | null
}

export interface JobContext<Result> {
  /** Records progress (and a partial result) so a restart resumes from it and check calls can report it. */
  reportProgress(progress: number, total: number, partialResult?: Result): Promise<void>
}

export type JobHandler<Payload = unknown, Result = unknown> = (job: Job<Payload, Result>, context: JobContext<Result>) => Promise<Result>

export interface JobQueueOptions {
  workerId?: string
  pollMs: number
  concurrency?: number
  /** A running job whose worker has not reported for this long is taken over by another worker. */
  staleAfterMs?: number
}

interface JobRow {
  id: string
  kind: string
  payload: unknown
  status: JobState
  progress: number
  total: number
  result: unknown
  error: string | null
  attempts: number
  max_attempts: number
  created_at: Date
  finished_at: Date | null
}

const toJob = (row: JobRow): Job => ({
  id: row.id,
  kind: row.kind,
  payload: row.payload,
  status: row.status,
  progress: row.progress,
  total: row.total,
  result: row.result,
  error: row.error,
  attempts: row.attempts,
  maxAttempts: row.max_attempts,
  createdAt: row.created_at,
  finishedAt: row.finished_at,
})

const JOB_COLUMNS = 'id, kind, payload, status, progress, total, result, error, attempts, max_attempts, created_at, finished_at'

/**
 * A job queue persisted in the jobs table. Workers claim with FOR UPDATE SKIP LOCKED, so several processes
 * on one PostgreSQL server each take a job once; on PGlite the worker runs inside the backend process.
 */
export class JobQueue {
  private readonly handlers = new Map<string, JobHandler<any, any>>()
  private readonly events = new EventEmitter()
  private readonly workerId: string
  private readonly concurrency: number
  private readonly staleAfterMs: number
  private running = 0
  private isStarted = false
  private timer: NodeJS.Timeout | undefined
  private readonly active = new Set<Promise<void>>()

  constructor(
    private readonly db: Database,
    private readonly options: JobQueueOptions,
  ) {
    this.workerId = options.workerId ?? `worker-${process.pid}-${randomUUID().slice(0, 8)}`
    this.concurrency = options.concurrency ?? 4
    this.staleAfterMs = options.staleAfterMs ?? 5 * 60_000
    this.events.setMaxListeners(0)
  }

  register<Payload, Result>(kind: string, handler: JobHandler<Payload, Result>): void {
    this.handlers.set(kind, handler)
  }

  async enqueue(kind: string, payload: unknown, options: { total?: number; maxAttempts?: number } = {}): Promise<Job> {
    const [row] = await this.db.query<JobRow>(
      `INSERT INTO jobs (id, kind, payload, total, max_attempts) VALUES ($1, $2, $3, $4, $5) RETURNING ${JOB_COLUMNS}`,
      [randomUUID(), kind, JSON.stringify(payload), options.total ?? 0, options.maxAttempts ?? 3],
    )
    this.wake()
    return toJob(row)
  }

  async get(id: string): Promise<Job | undefined> {
    const [row] = await this.db.query<JobRow>(`SELECT ${JOB_COLUMNS} FROM jobs WHERE id = $1`, [id])
    return row ? toJob(row) : undefined
  }

  async latest(kind: string): Promise<Job | undefined> {
    const [row] = await this.db.query<JobRow>(`SELECT ${JOB_COLUMNS} FROM jobs WHERE kind = $1 ORDER BY created_at DESC, id LIMIT 1`, [kind])
    return row ? toJob(row) : undefined
  }

  /** Cancels a job that has not ended; a running handler finishes its current step and its result is discarded. */
  async cancel(id: string): Promise<Job | undefined> {
    const [row] = await this.db.query<JobRow>(
      `UPDATE jobs SET status = 'cancelled', finished_at = now(), updated_at = now()
        WHERE id = $1 AND status IN ('queued', 'running') RETURNING ${JOB_COLUMNS}`,
      [id],
    )
    if (row) this.events.emit(`ended:${id}`)
    return row ? toJob(row) : this.get(id)
  }

  /** Resolves with the job once it has ended, or with its current state after `timeoutMs`. */
  async waitFor(id: string, timeoutMs: number): Promise<Job | undefined> {
    const ended = (job: Job | undefined) => !job || ['finished', 'failed', 'cancelled'].includes(job.status)
    const current = await this.get(id)
    if (ended(current) || timeoutMs <= 0) return current
    await new Promise<void>((resolve) => {
      // In-process completion wakes us at once; polling covers a job finished by another process.
      const poll = setInterval(async () => {
        if (ended(await this.get(id).catch(() => undefined))) finish()
      }, Math.max(50, Math.min(this.options.pollMs, 250)))
      const deadline = setTimeout(finish, timeoutMs)
      const listener = () => finish()
      this.events.once(`ended:${id}`, listener)
      function finish() {
        clearInterval(poll)
        clearTimeout(deadline)
        resolve()
      }
    })
    this.events.removeAllListeners(`ended:${id}`)
    return this.get(id)
  }

  /** Starts claiming jobs. Jobs left running by a dead worker are put back in the queue first. */
  async start({ recoverAllRunning }: { recoverAllRunning: boolean }): Promise<void> {
    if (this.isStarted) return
    this.isStarted = true
    await this.requeueStale(recoverAllRunning)
    this.schedule(0)
  }

  async stop(): Promise<void> {
    this.isStarted = false
    if (this.timer) clearTimeout(this.timer)
    await Promise.allSettled([...this.active])
  }

  private async requeueStale(all: boolean): Promise<void> {
    await this.db.query(
      `UPDATE jobs SET status = 'queued', locked_by = NULL, locked_at = NULL, updated_at = now()
        WHERE status = 'running' AND ($1::boolean OR locked_at < now() - ($2::int * interval '1 millisecond'))`,
      [all, this.staleAfterMs],
    )
  }

  private wake(): void {
    if (this.isStarted) this.schedule(0)
  }

  private schedule(delayMs: number): void {
    if (!this.isStarted) return
    if (this.timer) clearTimeout(this.timer)
    this.timer = setTimeout(() => void this.fill(), delayMs)
  }

  /** Claims jobs until the concurrency limit is reached or the queue is empty. */
  private async fill(): Promise<void> {
    if (!this.isStarted) return
    try {
      while (this.isStarted && this.running < this.concurrency) {
        const job = await this.claim()
        if (!job) break
        this.running++
        const task = this.execute(job).finally(() => {
          this.running--
          this.active.delete(task)
          this.schedule(0)
        })
        this.active.add(task)
      }
    } catch {
      // The database may be closing during shutdown; the next poll tries again.
    }
    this.schedule(this.options.pollMs)
  }

  private async claim(): Promise<Job | undefined> {
    const kinds = [...this.handlers.keys()]
    if (kinds.length === 0) return undefined
    await this.requeueStale(false)
    const [row] = await this.db.query<JobRow>(
      `UPDATE jobs SET status = 'running', attempts = attempts + 1, locked_by = $1, locked_at = now(), updated_at = now()
        WHERE id = (
          SELECT id FROM jobs WHERE status = 'queued' AND run_after <= now() AND kind = ANY($2::text[])
          ORDER BY created_at, id FOR UPDATE SKIP LOCKED LIMIT 1)
        RETURNING ${JOB_COLUMNS}`,
      [this.workerId, kinds],
    )
    return row ? toJob(row) : undefined
  }

  private async execute(job: Job): Promise<void> {
    const handler = this.handlers.get(job.kind)!
    const context: JobContext<unknown> = {
      reportProgress: async (progress, total, partialResult) => {
        await this.db.query(
          `UPDATE jobs SET progress = $2, total = $3, result = COALESCE($4::jsonb, result), locked_at = now(), updated_at = now()
            WHERE id = $1 AND status = 'running'`,
          [job.id, progress, total, partialResult === undefined ? null : JSON.stringify(partialResult)],
        )
      },
    }
    try {
      const result = await handler(job, context)
      await this.db.query(
        `UPDATE jobs SET status = 'finished', result = $2::jsonb, error = NULL, finished_at = now(), updated_at = now(), locked_by = NULL
          WHERE id = $1 AND status = 'running'`,
        [job.id, JSON.stringify(result ?? null)],
      )
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error)
      const isFinal = job.attempts >= job.maxAttempts
      await this.db
        .query(
          `UPDATE jobs SET status = $2, error = $3, locked_by = NULL, updated_at = now(),
              run_after = now() + ($4::int * interval '1 second'), finished_at = CASE WHEN $2 = 'failed' THEN now() ELSE NULL END
            WHERE id = $1 AND status = 'running'`,
          [job.id, isFinal ? 'failed' : 'queued', message, 2 ** job.attempts],
        )
        .catch(() => undefined)
    } finally {
      this.events.emit(`ended:${job.id}`)
    }
  }
}
