import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openDatabase, type Database } from '../db/database'
import { migrate } from '../db/migrate'
import { JobQueue } from './job-queue'

describe('job queue', () => {
  let db: Database
  let queues: JobQueue[] = []
  beforeEach(async () => {
    db = await openDatabase({ url: 'memory://', dataDir: '' })
    await migrate(db)
  })
  afterEach(async () => {
    await Promise.all(queues.map((queue) => queue.stop()))
    queues = []
    await db.close()
  })
  const newQueue = () => {
    const queue = new JobQueue(db, { pollMs: 20 })
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
})
