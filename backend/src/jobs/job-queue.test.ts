import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Database } from '../db/database'
import { openTestPglite } from '../testing/test-pglite'
import { migrate } from '../db/migrate'
import { JobLostError, JobQueue, JobStoppedError } from './job-queue'
import { eventually } from '../testing/eventually'

describe('job queue', () => {
  let db: Database
  let queues: JobQueue[] = []
  beforeEach(async () => {
    db = await openTestPglite()
    await migrate(db)
  })
  afterEach(async () => {
    await Promise.all(queues.map((queue) => queue.stop()))
    queues = []
    await db.close()
  })
  const newQueue = (options: { heartbeatMs?: number; staleAfterMs?: number } = {}) => {
    const queue = new JobQueue(db, { pollMs: 20, ...options })
    queues.push(queue)
    return queue
  }

  it('runs a job and keeps its result', async () => {
    const queue = newQueue()
    queue.register<{ a: number; b: number }, number>('add', async (job) => job.payload.a + job.payload.b)
    await queue.start({ recoverAllRunning: false })
    const job = await queue.enqueue('add', { a: 2, b: 3 })
    const ended = await queue.waitFor(job.id, 5000)
    expect(ended).toMatchObject({ status: 'finished', result: 5, attempts: 1 })
  })

  it('retries a failing job and marks it failed after its last attempt', async () => {
    const queue = newQueue()
    let calls = 0
    queue.register('flaky', async () => {
      calls++
      throw new Error('always broken')
    })
    await queue.start({ recoverAllRunning: false })
    const job = await queue.enqueue('flaky', {}, { maxAttempts: 1 })
    const ended = await queue.waitFor(job.id, 5000)
    expect(ended).toMatchObject({ status: 'failed', error: 'always broken' })
    expect(calls).toBe(1)
  })

  it('resumes a job left running by a worker that died, from its recorded progress', async () => {
    const seen: number[] = []
    const handler = async (job: { payload: { items: number[] }; result: { done: number[] } | null }, context: { reportProgress: (p: number, t: number, r?: { done: number[] }) => Promise<void> }) => {
      const done = job.result?.done ?? []
      for (const item of job.payload.items) {
        if (done.includes(item)) continue
        seen.push(item)
        done.push(item)
        await context.reportProgress(done.length, job.payload.items.length, { done })
      }
      return { done }
    }
    const first = newQueue()
    first.register('items', handler as never)
    const job = await first.enqueue('items', { items: [1, 2, 3] })
    // Simulate a crash after the first item: the row says running with one item done, and nobody holds it.
    await db.query(`UPDATE jobs SET status = 'running', attempts = 1, progress = 1, result = '{"done":[1]}'::jsonb, locked_by = 'dead' WHERE id = $1`, [job.id])

    const second = newQueue()
    second.register('items', handler as never)
    await second.start({ recoverAllRunning: true })
    const ended = await second.waitFor(job.id, 5000)
    expect(ended).toMatchObject({ status: 'finished', progress: 3, result: { done: [1, 2, 3] } })
    expect(seen).toEqual([2, 3])
  })

  it('lets a job be cancelled before it runs', async () => {
    const queue = newQueue()
    queue.register('never', async () => 'ran')
    const job = await queue.enqueue('never', {})
    expect((await queue.cancel(job.id))?.status).toBe('cancelled')
    await queue.start({ recoverAllRunning: false })
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect((await queue.get(job.id))?.status).toBe('cancelled')
  })

  it('requeues a running job whose worker stopped beating, and leaves one with a fresh heartbeat alone', async () => {
    const ran: string[] = []
    const queue = newQueue({ heartbeatMs: 50, staleAfterMs: 1000 })
    queue.register<{ name: string }, string>('named', async (job) => {
      ran.push(job.payload.name)
      return job.payload.name
    })
    const dead = await queue.enqueue('named', { name: 'dead' })
    const alive = await queue.enqueue('named', { name: 'alive' })
    await db.query(`UPDATE jobs SET status = 'running', attempts = 1, locked_by = 'gone', heartbeat_at = now() - interval '1 hour' WHERE id = $1`, [dead.id])
    await db.query(`UPDATE jobs SET status = 'running', attempts = 1, locked_by = 'busy', heartbeat_at = now() + interval '1 hour' WHERE id = $1`, [alive.id])
    // Another server's worker: it may not take over everything that is running, only what went silent.
    await queue.start({ recoverAllRunning: false })
    expect(await queue.waitFor(dead.id, 10_000)).toMatchObject({ status: 'finished', result: 'dead', attempts: 2 })
    const [row] = await db.query<{ status: string; locked_by: string }>(`SELECT status, locked_by FROM jobs WHERE id = $1`, [alive.id])
    expect(row).toEqual({ status: 'running', locked_by: 'busy' })
    expect(ran).toEqual(['dead'])
  })

  it('fails a job whose worker went silent on its last attempt, rather than taking it over again', async () => {
    const ran: string[] = []
    const queue = newQueue({ heartbeatMs: 50, staleAfterMs: 1000 })
    queue.register<{ name: string }, string>('named', async (job) => {
      ran.push(job.payload.name)
      return job.payload.name
    })
    const last = await queue.enqueue('named', { name: 'last' }, { maxAttempts: 2 })
    const again = await queue.enqueue('named', { name: 'again' }, { maxAttempts: 2 })
    await db.query(`UPDATE jobs SET status = 'running', attempts = 2, locked_by = 'gone', heartbeat_at = now() - interval '1 hour' WHERE id = $1`, [last.id])
    await db.query(`UPDATE jobs SET status = 'running', attempts = 1, locked_by = 'gone', heartbeat_at = now() - interval '1 hour' WHERE id = $1`, [again.id])
    await queue.start({ recoverAllRunning: false })
    expect(await queue.waitFor(again.id, 10_000)).toMatchObject({ status: 'finished', attempts: 2 })
    const failed = await queue.waitFor(last.id, 10_000)
    expect(failed).toMatchObject({ status: 'failed', attempts: 2, error: expect.stringContaining('last attempt (2 of 2)') })
    expect(failed!.finishedAt).not.toBeNull()
    expect(ran).toEqual(['again'])

    // The same when this process owns the database and recovers everything left running at its start.
    const owned = await queue.enqueue('named', { name: 'owned' }, { maxAttempts: 1 })
    await db.query(`UPDATE jobs SET status = 'running', attempts = 1, locked_by = 'previous-start' WHERE id = $1`, [owned.id])
    const restarted = newQueue()
    restarted.register('named', async () => 'ran again')
    await restarted.start({ recoverAllRunning: true })
    expect(await restarted.get(owned.id)).toMatchObject({ status: 'failed', attempts: 1 })
  })

  it('refreshes the heartbeat of the jobs it runs', async () => {
    let release!: () => void
    const held = new Promise<void>((resolve) => (release = resolve))
    const queue = newQueue({ heartbeatMs: 50, staleAfterMs: 1000 })
    queue.register('held', () => held)
    await queue.start({ recoverAllRunning: false })
    const job = await queue.enqueue('held', {})
    const heartbeat = async () => (await db.query<{ beat: string | null }>(`SELECT heartbeat_at::text AS beat FROM jobs WHERE id = $1 AND status = 'running'`, [job.id]))[0]?.beat
    await eventually(async () => (await heartbeat()) != null)
    const claimed = await heartbeat()
    await eventually(async () => (await heartbeat()) !== claimed)
    release()
    expect(await queue.waitFor(job.id, 5000)).toMatchObject({ status: 'finished' })
  })

  it('rolls back the work of a worker whose job was taken over, and keeps its late result out', async () => {
    await db.query(`CREATE TABLE effects (job_id text)`)
    let release!: () => void
    const held = new Promise<void>((resolve) => (release = resolve))
    let lost: unknown
    const queue = newQueue()
    queue.register('fenced', async (job, context) => {
      await held
      try {
        await db.transaction(async (tx) => {
          await tx.query(`INSERT INTO effects (job_id) VALUES ($1)`, [job.id])
          await context.reportProgress(1, 1, 'partial', tx)
        })
      } catch (error) {
        lost = error
      }
      return 'late'
    })
    await queue.start({ recoverAllRunning: false })
    const job = await queue.enqueue('fenced', {})
    await eventually(async () => (await queue.get(job.id))?.status === 'running')
    // Another worker took the job over, believing this one dead.
    await db.query(`UPDATE jobs SET locked_by = 'successor' WHERE id = $1`, [job.id])
    release()
    await eventually(async () => lost !== undefined)
    expect(lost).toBeInstanceOf(JobLostError)
    await queue.stop()
    expect(await db.query(`SELECT job_id FROM effects`)).toEqual([])
    expect(await queue.get(job.id)).toMatchObject({ status: 'running', progress: 0, result: null })
  })

  it('gives a job back to the queue without using up an attempt when its worker stops between two steps', async () => {
    const handler = async (job: { payload: { steps: number }; result: { done: number } | null }, context: { signal: AbortSignal; reportProgress: (p: number, t: number, r?: { done: number }) => Promise<void> }) => {
      let done = job.result?.done ?? 0
      while (done < job.payload.steps) {
        if (context.signal.aborted) throw new JobStoppedError()
        done++
        await context.reportProgress(done, job.payload.steps, { done })
        await new Promise((resolve) => setTimeout(resolve, 5))
      }
      return { done }
    }
    const first = newQueue()
    first.register('steps', handler as never)
    await first.start({ recoverAllRunning: false })
    const job = await first.enqueue('steps', { steps: 100_000 }, { maxAttempts: 1 })
    await eventually(async () => ((await first.get(job.id))?.progress ?? 0) > 0)
    await first.stop()
    const stopped = await first.get(job.id)
    expect(stopped).toMatchObject({ status: 'queued', attempts: 0, error: null })
    expect(stopped!.progress).toBeGreaterThan(0)

    await db.query(`UPDATE jobs SET payload = '{"steps": 0}'::jsonb WHERE id = $1`, [job.id])
    const second = newQueue()
    second.register('steps', handler as never)
    await second.start({ recoverAllRunning: false })
    // It resumes from its record (with one attempt allowed, a failed attempt would have ended it).
    expect(await second.waitFor(job.id, 5000)).toMatchObject({ status: 'finished', attempts: 1, result: { done: stopped!.progress } })
  })

  it('hands back a job claimed while it was stopping, before stop() returns, and never starts it', async () => {
    // A poll's claim is on its way to the database when the backend stops: it comes back with a job after stop() was
    // called, and the database may close as soon as stop() returns.
    let isHolding = false
    let claimArrived!: () => void
    const arrived = new Promise<void>((resolve) => (claimArrived = resolve))
    let releaseClaims!: () => void
    const released = new Promise<void>((resolve) => (releaseClaims = resolve))
    const gated = new Proxy(db, {
      get(target, property) {
        if (property === 'query') {
          return async (sql: string, params?: unknown[]) => {
            if (isHolding && sql.includes("SET status = 'running', attempts = attempts + 1")) {
              claimArrived()
              await released
            }
            return target.query(sql, params)
          }
        }
        const value = Reflect.get(target, property, target)
        return typeof value === 'function' ? value.bind(target) : value
      },
    })
    const queue = new JobQueue(gated, { pollMs: 20 })
    queues.push(queue)
    let calls = 0
    queue.register('late', async () => {
      calls++
    })
    await queue.start({ recoverAllRunning: false })
    isHolding = true
    await arrived
    const job = await queue.enqueue('late', {}, { maxAttempts: 3 })
    const stopped = queue.stop()
    releaseClaims()
    await stopped
    expect(await queue.get(job.id)).toMatchObject({ status: 'queued', attempts: 0 })
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(await queue.get(job.id)).toMatchObject({ status: 'queued', attempts: 0 })
    expect(calls).toBe(0)
  })

  it('tells its handlers of a stop as it is called, so one stopped by another part right after is handed back, not failed', async () => {
    // As the backend's close: the queue is told first, then the service whose own signal makes the handler give up.
    const service = new AbortController()
    const queue = newQueue()
    let started = false
    queue.register('wait', async () => {
      started = true
      await new Promise((_, reject) => service.signal.addEventListener('abort', () => reject(new Error('stopped by its service'))))
    })
    await queue.start({ recoverAllRunning: false })
    const job = await queue.enqueue('wait', {}, { maxAttempts: 3 })
    await eventually(async () => started)
    const stopped = queue.stop()
    service.abort()
    await stopped
    expect(await queue.get(job.id)).toMatchObject({ status: 'queued', attempts: 0, error: null })
  })

  it('keeps beating for a job whose handler has not ended yet when its worker stops, so it is never taken over meanwhile', async () => {
    let release!: () => void
    const held = new Promise<void>((resolve) => (release = resolve))
    let started = false
    const queue = newQueue({ heartbeatMs: 50, staleAfterMs: 1000 })
    // A step that does not heed the stop at once.
    queue.register('slow-step', async () => {
      started = true
      await held
      return 'done'
    })
    await queue.start({ recoverAllRunning: false })
    const job = await queue.enqueue('slow-step', {})
    await eventually(async () => started)
    const heartbeat = async () => (await db.query<{ beat: string }>(`SELECT heartbeat_at::text AS beat FROM jobs WHERE id = $1`, [job.id]))[0].beat
    const stopped = queue.stop()
    try {
      const atStop = await heartbeat()
      await eventually(async () => (await heartbeat()) !== atStop)
    } finally {
      release()
    }
    await stopped
    expect(await queue.get(job.id)).toMatchObject({ status: 'finished', result: 'done' })
  })

  describe('jobs held by the process that does their work', () => {
    it('records the job with the work it prepares, beats for it without a worker, and commits the result with its rows', async () => {
      await db.query(`CREATE TABLE effects (job_id text, what text)`)
      const queue = newQueue({ heartbeatMs: 50, staleAfterMs: 1000 })
      const held = await queue.hold('answer', async (tx, jobId) => {
        await tx.query(`INSERT INTO effects (job_id, what) VALUES ($1, 'prepared')`, [jobId])
        return { question: 42 }
      })
      expect(held.payload).toEqual({ question: 42 })
      expect(await queue.get(held.id)).toMatchObject({ status: 'running', attempts: 1, payload: { question: 42 } })
      expect(queue.heldCount).toBe(1)
      const heartbeat = async () => (await db.query<{ beat: string }>(`SELECT heartbeat_at::text AS beat FROM jobs WHERE id = $1`, [held.id]))[0].beat
      const first = await heartbeat()
      // The queue was never started (RUN_WORKER off): the held job is beaten for all the same.
      await eventually(async () => (await heartbeat()) !== first)
      const waiting = queue.waitFor(held.id, 60_000)
      expect(await held.finish('done', (tx) => tx.query(`INSERT INTO effects (job_id, what) VALUES ($1, 'finished')`, [held.id]).then(() => undefined))).toBe(true)
      expect(await waiting).toMatchObject({ status: 'finished', result: 'done' })
      expect((await db.query<{ what: string }>(`SELECT what FROM effects ORDER BY what`)).map((row) => row.what)).toEqual(['finished', 'prepared'])
      expect(queue.heldCount).toBe(0)
    })

    it('is taken over once its process goes silent, and the late result of that process is kept out', async () => {
      await db.query(`CREATE TABLE effects (job_id text, what text)`)
      const silent = newQueue({ heartbeatMs: 60_000, staleAfterMs: 120_000 })
      const held = await silent.hold('answer', async () => ({ question: 7 }), { maxAttempts: 2 })
      const survivor = newQueue({ heartbeatMs: 50, staleAfterMs: 200 })
      survivor.register<{ question: number }, string>('answer', async (job) => `answered ${job.payload.question} again`)
      await survivor.start({ recoverAllRunning: false })
      expect(await survivor.waitFor(held.id, 10_000)).toMatchObject({ status: 'finished', result: 'answered 7 again', attempts: 2 })
      expect(await held.finish('late', (tx) => tx.query(`INSERT INTO effects (job_id, what) VALUES ($1, 'late')`, [held.id]).then(() => undefined))).toBe(false)
      expect(await db.query(`SELECT what FROM effects`)).toEqual([])
      expect(await survivor.get(held.id)).toMatchObject({ result: 'answered 7 again' })
    })

    it('goes back to the queue for its next attempt when the work fails, and to the queue at once when its process stops', async () => {
      const queue = newQueue()
      const failed = await queue.hold('answer', async () => ({}), { maxAttempts: 2 })
      await failed.fail(new Error('the model went away'))
      expect(await queue.get(failed.id)).toMatchObject({ status: 'queued', attempts: 1, error: 'the model went away' })
      const last = await queue.hold('answer', async () => ({}), { maxAttempts: 1 })
      await last.fail(new Error('no second chance'))
      expect(await queue.get(last.id)).toMatchObject({ status: 'failed', error: 'no second chance' })

      const stopped = await queue.hold('answer', async () => ({}), { maxAttempts: 2 })
      await queue.stop()
      expect(await queue.get(stopped.id)).toMatchObject({ status: 'queued', attempts: 0 })
      const worker = newQueue()
      worker.register('answer', async () => 'resumed')
      await worker.start({ recoverAllRunning: false })
      expect(await worker.waitFor(stopped.id, 10_000)).toMatchObject({ status: 'finished', result: 'resumed', attempts: 1 })
      expect(await worker.waitFor(failed.id, 10_000)).toMatchObject({ status: 'finished', result: 'resumed', attempts: 2 })
    })
  })
})
