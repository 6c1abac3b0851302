import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Retriever } from '../../answering/retriever'
import { openDatabase, type Database } from '../../db/database'
import { migrate } from '../../db/migrate'
import { JobQueue } from '../../jobs/job-queue'
import { eventually } from '../../testing/eventually'
import { freshPostgresUrl, isPostgresAvailable, type StorageKind } from '../../testing/test-backend'
import { openTestPglite } from '../../testing/test-pglite'
import type { AgentsService } from '../agents/agents.service'
import { KnowledgeService } from '../knowledge/knowledge.service'
import { queryLogsRepository as logs } from '../query-logs/query-logs.repository'
import { SettingsService } from '../settings/settings.service'
import { AskService } from './ask.service'

const postgresAvailable = await isPostgresAvailable()

/** A retriever that finds nothing, once let go: the answer is in writing until then. */
function gatedRetriever() {
  let release!: () => void
  const gate = new Promise<void>((resolve) => (release = resolve))
  let calls = 0
  const retriever: Retriever = {
    name: 'gated',
    async retrieve() {
      calls++
      await gate
      return []
    },
    termWeight: () => 1,
  }
  return { retriever, release, calls: () => calls }
}

for (const kind of ['pglite', 'postgres'] as StorageKind[]) {
  describe.skipIf(kind === 'postgres' && !postgresAvailable)(`a question answered as a queued job, on ${kind}`, () => {
    let db: Database
    let drop: (() => Promise<void>) | undefined
    let queue: JobQueue
    let gated: ReturnType<typeof gatedRetriever>
    beforeEach(async () => {
      if (kind === 'postgres') {
        const schema = await freshPostgresUrl()
        drop = schema.drop
        db = await openDatabase({ url: schema.url, dataDir: '' })
      } else {
        db = await openTestPglite()
      }
      await migrate(db)
      queue = new JobQueue(db, { pollMs: 20, workerId: 'this-worker' })
      gated = gatedRetriever()
      new AskService(db, queue, new KnowledgeService(db), new SettingsService(db), 0, undefined as unknown as AgentsService, undefined, gated.retriever)
    })
    afterEach(async () => {
      gated.release()
      await queue.stop()
      await db.close()
      await drop?.()
      drop = undefined
    })

    /** A question logged pending with its `ask` job queued, as a process that died or failed once leaves it. */
    const queuedQuestion = async () => {
      const { id: logId } = await logs.insertQuestion(db, { command: 'How often do tomato plants need watering?', mode: 'expert' })
      const job = await queue.enqueue('ask', { logId }, { maxAttempts: 2 })
      return { logId, jobId: job.id }
    }
    const logOf = async (logId: number) => (await db.query<{ status: string; answer: string | null }>(`SELECT status, answer FROM query_logs WHERE id = $1`, [logId]))[0]

    it('keeps the answer of the worker that took the job over, not the late one of the worker it was taken from', async () => {
      const { logId, jobId } = await queuedQuestion()
      await queue.start({ recoverAllRunning: false })
      await eventually(async () => gated.calls() === 1)
      // Presumed dead, this worker lost the job; its successor answered.
      await db.query(`UPDATE jobs SET locked_by = 'successor' WHERE id = $1`, [jobId])
      await db.query(`UPDATE query_logs SET status = 'answered', answer = 'the successor''s answer' WHERE id = $1`, [logId])
      gated.release()
      await eventually(async () => queue.runningCount === 0)
      expect(await logOf(logId)).toEqual({ status: 'answered', answer: "the successor's answer" })
    })

    it('writes nothing while the job is another worker’s, even when the log is still pending', async () => {
      const { logId, jobId } = await queuedQuestion()
      await queue.start({ recoverAllRunning: false })
      await eventually(async () => gated.calls() === 1)
      await db.query(`UPDATE jobs SET locked_by = 'successor' WHERE id = $1`, [jobId])
      gated.release()
      await eventually(async () => queue.runningCount === 0)
      expect(await logOf(logId)).toEqual({ status: 'pending', answer: null })
      expect(await queue.get(jobId)).toMatchObject({ status: 'running' })
    })

    it('does not answer again a question whose log was written before its job ended', async () => {
      const { logId, jobId } = await queuedQuestion()
      await db.query(`UPDATE query_logs SET status = 'answered', answer = 'written before the process died' WHERE id = $1`, [logId])
      await queue.start({ recoverAllRunning: false })
      expect(await queue.waitFor(jobId, 10_000)).toMatchObject({ status: 'finished' })
      expect(gated.calls()).toBe(0)
      expect(await logOf(logId)).toEqual({ status: 'answered', answer: 'written before the process died' })
    })

    it('gives the job back, its log still pending, when the worker stops while the answer is in writing', async () => {
      const { logId, jobId } = await queuedQuestion()
      await queue.start({ recoverAllRunning: false })
      await eventually(async () => gated.calls() === 1)
      const stopped = queue.stop()
      gated.release()
      await stopped
      expect(await queue.get(jobId)).toMatchObject({ status: 'queued', attempts: 0 })
      expect(await logOf(logId)).toEqual({ status: 'pending', answer: null })
    })
  })
}
