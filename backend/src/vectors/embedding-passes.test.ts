import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Database } from '../db/database'
import { JobQueue } from '../jobs/job-queue'
import type { EmbeddingsProvider } from '../llm/provider'
import { KnowledgeService } from '../modules/knowledge/knowledge.service'
import { isPostgresAvailable, openTwoHandles, type StorageKind } from '../testing/test-backend'
import { eventually } from '../testing/eventually'
import { EMBED_JOB, EmbeddingPasses } from './embedding-passes'
import { GARDEN_ARTICLES } from './vectors.test-support'

const postgresAvailable = await isPostgresAvailable()

/** Vectors made up from the input's length, with the inputs sent counted. */
function countingProvider(model: string) {
  const sent: string[] = []
  const provider: EmbeddingsProvider = {
    model,
    async embed(inputs) {
      sent.push(...inputs)
      return inputs.map((input) => [input.length % 7, 1, 2])
    },
  }
  return { provider, sent }
}

for (const kind of ['pglite', 'postgres'] as StorageKind[]) {
  describe.skipIf(kind === 'postgres' && !postgresAvailable)(`embedding passes of several processes, on ${kind}`, () => {
    // Two handles on one database, as two processes have (on PGlite, one process: the same handle twice).
    let first: Database
    let second: Database
    let close: (() => Promise<void>) | undefined
    const stops: (() => Promise<void>)[] = []
    beforeEach(async () => {
      ;({ first, second, close } = await openTwoHandles(kind))
      const knowledge = new KnowledgeService(first)
      await first.transaction(async (tx) => {
        for (const article of GARDEN_ARTICLES) {
          const [{ id }] = await tx.query<{ id: number }>(`INSERT INTO articles (title, content) VALUES ($1, $2) RETURNING id`, [article.title, article.content])
          await knowledge.indexArticle(tx, { id, title: article.title, content: article.content })
        }
      })
    })
    afterEach(async () => {
      for (const stop of stops.splice(0).reverse()) await stop()
      await close?.()
      close = undefined
    })

    /** A process: its job queue (started or not) and its embedding passes with `model`. */
    const aProcess = (db: Database, model: string, options: { otherModelGiveUpMs?: number } = {}) => {
      const queue = new JobQueue(db, { pollMs: 20 })
      const embedding = countingProvider(model)
      const passes = new EmbeddingPasses(db, queue, embedding.provider, { otherModelDelayMs: 100, ...options })
      stops.push(async () => {
        await passes.stop()
        await queue.stop()
      })
      return { queue, passes, sent: embedding.sent }
    }
    const pendingPasses = async () =>
      (await first.query<{ count: number }>(`SELECT count(*)::int AS count FROM jobs WHERE kind = $1 AND status IN ('queued', 'running')`, [EMBED_JOB]))[0].count

    it('queues one pass across processes however many of them notice a change at once', async () => {
      const one = aProcess(first, 'garden-embed')
      const other = aProcess(second, 'garden-embed')
      for (let round = 0; round < 8; round++) {
        // Two more processes' checks at once, as each does on the same index notification.
        const third = new EmbeddingPasses(first, one.queue, countingProvider('garden-embed').provider)
        const fourth = new EmbeddingPasses(second, other.queue, countingProvider('garden-embed').provider)
        await Promise.all([one.passes.check('index'), other.passes.check('index'), third.check('index'), fourth.check('index')])
        expect({ round, pending: await pendingPasses() }).toEqual({ round, pending: 1 })
        await first.query(`DELETE FROM jobs WHERE kind = $1`, [EMBED_JOB])
      }
    })

    it('embeds each chunk once when two processes with workers follow the same changes', async () => {
      const one = aProcess(first, 'garden-embed')
      const other = aProcess(second, 'garden-embed')
      await Promise.all([one.queue.start({ recoverAllRunning: false }), other.queue.start({ recoverAllRunning: false })])
      const [a, b] = await Promise.all([one.passes.check('index'), other.passes.check('index')])
      // Both checks name the one pass, unless the workers already finished it when the later check looked: that check
      // then finds every chunk embedded and queues nothing.
      const pass = a ?? b
      expect(pass).toBeDefined()
      if (a && b) expect(a.id).toBe(b.id)
      expect(await one.queue.waitFor(pass!.id, 30_000)).toMatchObject({ status: 'finished' })
      const [{ chunks }] = await first.query<{ chunks: number }>(`SELECT count(*)::int AS chunks FROM chunks`)
      expect(one.sent.length + other.sent.length).toBe(chunks)
    })

    it('leaves a pass for another model to a worker that has it, without spending an attempt', async () => {
      const old = aProcess(first, 'old-embed')
      const fresh = aProcess(second, 'new-embed')
      // The process restarted with the new model queues its pass; only the old model's worker runs jobs yet.
      const queued = await fresh.passes.check('model_change')
      expect(queued?.payload).toMatchObject({ model: 'new-embed' })
      await old.queue.start({ recoverAllRunning: false })
      await old.queue.waitFor(queued!.id, 0)
      // Read once: the old worker takes the pass up again every 100 ms, so a second read may find it running.
      let handed: Awaited<ReturnType<typeof old.queue.get>> | undefined
      const handedBack = async () => {
        const job = await old.queue.get(queued!.id)
        if (job?.status === 'queued' && (job.error ?? '').includes('new-embed')) handed = job
        return handed !== undefined
      }
      await eventually(handedBack)
      expect(handed).toMatchObject({ status: 'queued', attempts: 0 })
      expect(old.sent).toEqual([])

      await fresh.queue.start({ recoverAllRunning: false })
      const ended = await fresh.queue.waitFor(queued!.id, 30_000)
      expect(ended).toMatchObject({ status: 'finished', result: { model: 'new-embed' } })
      expect((ended!.result as { embedded: number }).embedded).toBeGreaterThan(0)
      expect(old.sent).toEqual([])
      const [{ count }] = await first.query<{ count: number }>(`SELECT count(*)::int AS count FROM chunk_embeddings WHERE model = 'new-embed'`)
      expect(count).toBeGreaterThan(0)
    })

    it('fails a pass for a model no worker has had for too long, saying so', async () => {
      const fresh = aProcess(second, 'new-embed')
      const queued = await fresh.passes.check('model_change')
      await first.query(`UPDATE jobs SET created_at = now() - interval '1 hour' WHERE id = $1`, [queued!.id])
      const old = aProcess(first, 'old-embed', { otherModelGiveUpMs: 60_000 })
      await old.queue.start({ recoverAllRunning: false })
      const ended = await old.queue.waitFor(queued!.id, 30_000)
      expect(ended).toMatchObject({ status: 'failed', error: expect.stringContaining('No worker with the embedding model new-embed') })
      expect(old.sent).toEqual([])
    })
  })
}
