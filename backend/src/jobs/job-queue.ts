import { randomUUID } from 'node:crypto'
import { EventEmitter } from 'node:events'
import { setImmediate as nextTurn } from 'node:timers/promises'
import type { Database, Queryable } from '../db/database'

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
  /**
   * Records progress (and a partial result) so a restart resumes from it and check calls can report it, then
   * gives the event loop a turn. Given the transaction that did the work, the record commits with the work, and
   * it throws JobLostError (rolling the work back) when the job is no longer this worker's: cancelled, or taken
   * over after this worker was presumed dead.
   */
  reportProgress(progress: number, total: number, partialResult?: Result, tx?: Queryable): Promise<void>
  /**
   * Aborted when this process stops its worker. A handler that sees it stops at its next safe point by throwing
   * (JobStoppedError, say): the job then goes back to the queue at once, without counting as a failed attempt.
   */
  signal: AbortSignal
}

/** Thrown by a handler that stops between two steps because its worker is stopping. */
export class JobStoppedError extends Error {
  constructor() {
    super('The worker stopped; the job resumes from its recorded progress')
    this.name = 'JobStoppedError'
  }
}

/**
 * Thrown by a handler that cannot run this job here (it needs something this worker lacks): the job goes back to the
 * queue without counting as an attempt, for another worker, after `delayMs`; `message` is kept as its error meanwhile.
 */
export class JobDeferredError extends Error {
  constructor(
    message: string,
    readonly delayMs: number,
  ) {
    super(message)
    this.name = 'JobDeferredError'
  }
}

/** Thrown by a handler for a job no attempt can ever do: it fails at once, whatever attempts remain. */
export class JobAbandonedError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'JobAbandonedError'
  }
}

/** The job was cancelled or taken over by another worker: whatever this worker was doing for it must not commit. */
export class JobLostError extends Error {
  constructor(jobId: string) {
    super(`Job ${jobId} is no longer held by this worker`)
    this.name = 'JobLostError'
  }
}

/**
 * A job this process already runs, outside the queue's claiming (see JobQueue.hold): durable and pollable like any
 * other, and beaten for like the jobs this worker claimed, so that it is taken over if this process dies.
 */
export interface HeldJob<Payload = unknown> {
  readonly id: string
  readonly payload: Payload
  /**
   * Ends the job as finished; `write` (the work's own rows) commits in the same transaction, and only while the
   * job is still this process's. Resolves false, writing nothing, when it was taken over or cancelled meanwhile.
   */
  finish(result: unknown, write?: (tx: Queryable) => Promise<void>): Promise<boolean>
  /** The attempt failed: the job goes back to the queue for its next attempt (as a claimed job's would), or fails. */
  fail(error: unknown): Promise<void>
}

export type JobHandler<Payload = unknown, Result = unknown> = (job: Job<Payload, Result>, context: JobContext<Result>) => Promise<Result>

export interface JobQueueOptions {
  workerId?: string
  pollMs: number
  concurrency?: number
  /** How often a worker refreshes the heartbeat of the jobs it runs. */
  heartbeatMs?: number
  /** A running job whose heartbeat is older than this belonged to a worker that died: it is queued again. */
  staleAfterMs?: number
}

export const DEFAULT_HEARTBEAT_MS = 5000
export const DEFAULT_STALE_AFTER_MS = 20_000

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
 * A running job's worker refreshes its heartbeat; a job whose heartbeat stops is requeued and resumes from its
 * recorded progress. Every write a worker makes for a job names the worker, so one presumed dead that wakes
 * up again changes nothing (ADR 072). Queued and ended jobs are announced by NOTIFY, so workers and waiters in
 * other processes hear of them at once; polling remains for a lost notification.
 */
export class JobQueue {
  private readonly handlers = new Map<string, JobHandler<any, any>>()
  private readonly events = new EventEmitter()
  private readonly workerId: string
  private readonly concurrency: number
  private readonly heartbeatMs: number
  private readonly staleAfterMs: number
  private running = 0
  private isStarted = false
  /** Whether this process owns the database (PGlite): running jobs of others cannot exist after start. */
  private ownsDatabase = false
  private timer: NodeJS.Timeout | undefined
  private heartbeat: NodeJS.Timeout | undefined
  private listening: Promise<(() => Promise<void>) | undefined> | undefined
  private stopping = new AbortController()
  private readonly active = new Set<Promise<void>>()
  /** Claiming under way: stop() waits for it, so a job claimed as the stop came is handed back before it returns. */
  private readonly fills = new Set<Promise<void>>()
  /** Jobs this process runs outside its claiming (hold): beaten for, and handed back to the queue on stop. */
  private readonly held = new Set<string>()

  constructor(
    private readonly db: Database,
    private readonly options: JobQueueOptions,
  ) {
    this.workerId = options.workerId ?? `worker-${process.pid}-${randomUUID().slice(0, 8)}`
    this.concurrency = options.concurrency ?? 4
    this.heartbeatMs = options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS
    this.staleAfterMs = options.staleAfterMs ?? DEFAULT_STALE_AFTER_MS
    if (!(this.staleAfterMs >= 2 * this.heartbeatMs)) throw new RangeError('A job may be stale only after at least two missed heartbeats')
    this.events.setMaxListeners(0)
  }

  /** This worker's name, as recorded in locked_by of the jobs it runs. */
  get id(): string {
    return this.workerId
  }

  /** How many jobs this process is running now. */
  get runningCount(): number {
    return this.running
  }

  /** How many jobs this process holds (see hold) and has not ended yet. */
  get heldCount(): number {
    return this.held.size
  }

  get isWorking(): boolean {
    return this.isStarted
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

  /**
   * Records a job that this process is already working on, as running and held by this worker (its first attempt),
   * in one transaction with what `prepare` writes (it is given the job's id and returns the payload). The caller
   * ends it with finish() or fail(). Until then the job's heartbeat is kept, whether or not this process claims
   * jobs (RUN_WORKER); if the process dies, the heartbeat stops and a worker takes the job over as a stale one,
   * and a handler registered for `kind` runs it again from its payload.
   */
  async hold<Payload>(kind: string, prepare: (tx: Queryable, jobId: string) => Promise<Payload>, options: { maxAttempts?: number } = {}): Promise<HeldJob<Payload>> {
    const id = randomUUID()
    const maxAttempts = options.maxAttempts ?? 3
    const payload = await this.db.transaction(async (tx) => {
      const prepared = await prepare(tx, id)
      await tx.query(
        `INSERT INTO jobs (id, kind, payload, status, attempts, max_attempts, locked_by, locked_at, heartbeat_at) VALUES ($1, $2, $3, 'running', 1, $4, $5, now(), now())`,
        [id, kind, JSON.stringify(prepared), maxAttempts, this.workerId],
      )
      return prepared
    })
    this.held.add(id)
    this.startHeartbeat()
    const release = () => {
      this.held.delete(id)
      this.events.emit(`ended:${id}`)
    }
    return {
      id,
      payload,
      finish: async (result, write) => {
        try {
          return await this.db.transaction(async (tx) => {
            const [row] = await tx.query(
              `UPDATE jobs SET status = 'finished', result = $2::jsonb, error = NULL, finished_at = now(), updated_at = now(), locked_by = NULL
                WHERE id = $1 AND status = 'running' AND locked_by = $3 RETURNING id`,
              [id, JSON.stringify(result ?? null), this.workerId],
            )
            if (!row) return false
            await write?.(tx)
            return true
          })
        } finally {
          release()
        }
      },
      fail: async (error) => {
        const message = error instanceof Error ? error.message : String(error)
        const isFinal = 1 >= maxAttempts
        try {
          await this.db.query(
            `UPDATE jobs SET status = $2, error = $3, locked_by = NULL, updated_at = now(),
                run_after = now() + interval '2 seconds', finished_at = CASE WHEN $2 = 'failed' THEN now() ELSE NULL END
              WHERE id = $1 AND status = 'running' AND locked_by = $4`,
            [id, isFinal ? 'failed' : 'queued', message, this.workerId],
          )
        } finally {
          // Retried after the same pause as a claimed job's first failure: the next poll after it claims it.
          release()
        }
      },
    }
  }

  async get(id: string): Promise<Job | undefined> {
    const [row] = await this.db.query<JobRow>(`SELECT ${JOB_COLUMNS} FROM jobs WHERE id = $1`, [id])
    return row ? toJob(row) : undefined
  }

  /** The newest job of `kind`; with `match`, the newest whose payload contains it. */
  async latest(kind: string, match?: Record<string, unknown>): Promise<Job | undefined> {
    const [row] = await this.db.query<JobRow>(
      `SELECT ${JOB_COLUMNS} FROM jobs WHERE kind = $1 AND ($2::jsonb IS NULL OR payload @> $2::jsonb) ORDER BY created_at DESC, id LIMIT 1`,
      [kind, match ? JSON.stringify(match) : null],
    )
    return row ? toJob(row) : undefined
  }

  /**
   * Queues a job unless one of `kind` (whose payload contains `match`, when given) is queued or running already, in
   * any process on this database: the check and the insert are one transaction under an advisory lock on the kind, so
   * two processes asking at once get one job. Resolves with the job queued or found.
   */
  async enqueueUnlessPending(
    kind: string,
    payload: unknown,
    options: { total?: number; maxAttempts?: number; match?: Record<string, unknown> } = {},
  ): Promise<{ job: Job; isNew: boolean }> {
    const found = await this.db.transaction(async (tx) => {
      await tx.query(`SELECT pg_advisory_xact_lock(hashtext('kb_jobs.' || current_schema() || '.' || $1))`, [kind])
      const [pending] = await tx.query<JobRow>(
        `SELECT ${JOB_COLUMNS} FROM jobs WHERE kind = $1 AND status IN ('queued', 'running') AND ($2::jsonb IS NULL OR payload @> $2::jsonb)
          ORDER BY created_at, id LIMIT 1`,
        [kind, options.match ? JSON.stringify(options.match) : null],
      )
      if (pending) return { job: toJob(pending), isNew: false }
      const [row] = await tx.query<JobRow>(
        `INSERT INTO jobs (id, kind, payload, total, max_attempts) VALUES ($1, $2, $3, $4, $5) RETURNING ${JOB_COLUMNS}`,
        [randomUUID(), kind, JSON.stringify(payload), options.total ?? 0, options.maxAttempts ?? 3],
      )
      return { job: toJob(row), isNew: true }
    })
    if (found.isNew) this.wake()
    return found
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
    await this.listenForJobs()
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

  /**
   * Starts claiming jobs. Jobs left running by a dead worker are put back in the queue first: all of them when
   * this process owns the database (PGlite), else those whose heartbeat is stale, then and before every claim.
   */
  async start({ recoverAllRunning }: { recoverAllRunning: boolean }): Promise<void> {
    if (this.isStarted) return
    this.isStarted = true
    this.stopping = new AbortController()
    this.ownsDatabase = recoverAllRunning
    await this.listenForJobs()
    await this.requeueStale(recoverAllRunning)
    this.startHeartbeat()
    this.schedule(0)
  }

  /**
   * Stops claiming, tells running handlers to stop (context.signal) and waits for them, beating for their jobs until
   * they end. The telling happens before
   * this returns its promise, so a caller may stop other parts after it and handlers failing then count as stopped.
   */
  async stop(): Promise<void> {
    this.isStarted = false
    this.stopping.abort()
    if (this.timer) clearTimeout(this.timer)
    await Promise.allSettled([...this.fills])
    // The heartbeat goes on until the handlers have ended: a job still running here is never taken over as stale and
    // run twice at once. A handler that ignores the signal holds the stop up (the process's supervisor ends it).
    await Promise.allSettled([...this.active])
    await this.handBackHeld()
    if (this.heartbeat) clearInterval(this.heartbeat)
    this.heartbeat = undefined
    const stopListening = await this.listening?.catch(() => undefined)
    this.listening = undefined
    await stopListening?.().catch(() => undefined)
  }

  /** Hears of jobs queued (wakes this worker) and ended (wakes waiters) in any process on this database. */
  private listenForJobs(): Promise<unknown> {
    this.listening ??= (async () => {
      const [row] = await this.db.query<{ channel: string }>(`SELECT 'kb_jobs.' || current_schema() AS channel`)
      return this.db.listen(row.channel, (payload) => {
        if (payload === undefined) return this.wake()
        const [status, id] = payload.split(' ')
        if (status === 'queued') this.wake()
        else if (id) this.events.emit(`ended:${id}`)
      })
    })().catch(() => undefined) // without notifications, polling still works
    return this.listening
  }

  /** Refreshes the heartbeat of every job this worker runs. */
  private startHeartbeat(): void {
    if (this.heartbeat) return
    this.heartbeat = setInterval(() => void this.beat(), this.heartbeatMs)
    this.heartbeat.unref()
  }

  /** Held jobs go back to the queue at once on stop, as a stopped handler's do: their work here is not awaited. */
  private async handBackHeld(): Promise<void> {
    if (this.held.size === 0) return
    const ids = [...this.held]
    this.held.clear()
    await this.handBack(ids)
  }

  /**
   * Gives jobs this worker holds back to the queue without using up an attempt: they were interrupted by its stop,
   * not failed. If the database cannot be reached, the next start requeues them (PGlite) or stale recovery does.
   */
  private async handBack(ids: string[], deferral?: { delayMs: number; reason: string }): Promise<void> {
    await this.db
      .query(
        `UPDATE jobs SET status = 'queued', attempts = GREATEST(attempts - 1, 0), locked_by = NULL, heartbeat_at = NULL,
            run_after = now() + ($3::int * interval '1 millisecond'), error = COALESCE($4, error), updated_at = now()
          WHERE id = ANY($1::text[]) AND status = 'running' AND locked_by = $2`,
        [ids, this.workerId, Math.max(0, Math.round(deferral?.delayMs ?? 0)), deferral?.reason ?? null],
      )
      .catch(() => undefined)
  }

  private async beat(): Promise<void> {
    if (this.running === 0 && this.held.size === 0) return
    await this.db
      .query(`UPDATE jobs SET heartbeat_at = now() WHERE locked_by = $1 AND status = 'running'`, [this.workerId])
      .catch(() => undefined) // the next beat tries again; the stale limit allows for several misses
  }

  /**
   * Puts jobs whose worker went silent back in the queue, or fails them when that was their last attempt (a job that
   * brings its worker down would otherwise be taken over, and bring the next one down, without end).
   */
  private async requeueStale(all: boolean): Promise<void> {
    const rows = await this.db.query<{ id: string; status: JobState }>(
      `UPDATE jobs SET status = CASE WHEN attempts >= max_attempts THEN 'failed' ELSE 'queued' END,
          error = CASE WHEN attempts >= max_attempts
            THEN 'Its worker stopped while running it, on its last attempt (' || attempts || ' of ' || max_attempts || ')' ELSE error END,
          finished_at = CASE WHEN attempts >= max_attempts THEN now() ELSE NULL END,
          locked_by = NULL, locked_at = NULL, heartbeat_at = NULL, updated_at = now()
        WHERE status = 'running' AND ($1::boolean OR (
          locked_by IS DISTINCT FROM $3 AND COALESCE(heartbeat_at, locked_at) < now() - ($2::int * interval '1 millisecond')))
        RETURNING id, status`,
      [all, this.staleAfterMs, this.workerId],
    )
    for (const row of rows) if (row.status === 'failed') this.events.emit(`ended:${row.id}`)
  }

  private wake(): void {
    if (this.isStarted) this.schedule(0)
  }

  private schedule(delayMs: number): void {
    if (!this.isStarted) return
    if (this.timer) clearTimeout(this.timer)
    this.timer = setTimeout(() => {
      const filling = this.fill().finally(() => this.fills.delete(filling))
      this.fills.add(filling)
    }, delayMs)
  }

  /** Claims jobs until the concurrency limit is reached or the queue is empty. */
  private async fill(): Promise<void> {
    if (!this.isStarted) return
    try {
      while (this.isStarted && this.running < this.concurrency) {
        const job = await this.claim()
        if (!job) break
        // Claimed as stop() was called: its handler is not started, and the job goes back at once (stop() waits for this).
        if (!this.isStarted) {
          await this.handBack([job.id])
          break
        }
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
    // A process owning its database recovered everything at start; another process's job cannot go stale.
    if (!this.ownsDatabase) await this.requeueStale(false)
    const [row] = await this.db.query<JobRow>(
      `UPDATE jobs SET status = 'running', attempts = attempts + 1, locked_by = $1, locked_at = now(), heartbeat_at = now(), updated_at = now()
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
    const stopping = this.stopping.signal
    const context: JobContext<unknown> = {
      signal: stopping,
      reportProgress: async (progress, total, partialResult, tx) => {
        const updated = await (tx ?? this.db).query(
          `UPDATE jobs SET progress = $2, total = $3, result = COALESCE($4::jsonb, result), heartbeat_at = now(), updated_at = now()
            WHERE id = $1 AND status = 'running' AND locked_by = $5 RETURNING id`,
          [job.id, progress, total, partialResult === undefined ? null : JSON.stringify(partialResult), this.workerId],
        )
        if (tx && updated.length === 0) throw new JobLostError(job.id)
        // Long jobs report often: between two reports, HTTP requests and other jobs get their turn.
        if (!tx) await nextTurn()
      },
    }
    try {
      const result = await handler(job, context)
      await this.db.query(
        `UPDATE jobs SET status = 'finished', result = $2::jsonb, error = NULL, finished_at = now(), updated_at = now(), locked_by = NULL
          WHERE id = $1 AND status = 'running' AND locked_by = $3`,
        [job.id, JSON.stringify(result ?? null), this.workerId],
      )
    } catch (error) {
      if (stopping.aborted) {
        // Interrupted by this worker's shutdown, not failed: another worker (or this one's next start) resumes it.
        await this.handBack([job.id])
        return
      }
      if (error instanceof JobDeferredError) {
        // Not for this worker: another one takes it, without an attempt spent here.
        await this.handBack([job.id], { delayMs: error.delayMs, reason: error.message })
        return
      }
      const message = error instanceof Error ? error.message : String(error)
      const isFinal = job.attempts >= job.maxAttempts || error instanceof JobAbandonedError
      await this.db
        .query(
          `UPDATE jobs SET status = $2, error = $3, locked_by = NULL, updated_at = now(),
              run_after = now() + ($4::int * interval '1 second'), finished_at = CASE WHEN $2 = 'failed' THEN now() ELSE NULL END
            WHERE id = $1 AND status = 'running' AND locked_by = $5`,
          [job.id, isFinal ? 'failed' : 'queued', message, 2 ** job.attempts, this.workerId],
        )
        .catch(() => undefined)
    } finally {
      this.events.emit(`ended:${job.id}`)
    }
  }
}
