import type { EmbeddingsProgress } from '../../../contracts/embeddings'
import type { Database } from '../db/database'
import { JobAbandonedError, JobDeferredError, type Job, type JobContext, type JobQueue } from '../jobs/job-queue'
import { LlmError, type EmbeddingsProvider } from '../llm/provider'
import { knowledgeRepository } from '../modules/knowledge/knowledge.repository'
import { vectorsRepository as repository, type ChunkToEmbed, type ChunkVector } from './vectors.repository'

export const EMBED_JOB = 'embed_chunks'

export type PassReason = 'start' | 'index' | 'model_change'

interface EmbedPayload {
  model: string
  reason: PassReason
}

export interface EmbedResult {
  model: string
  /** Chunks given a vector by this pass. */
  embedded: number
  /** Chunks the endpoint refused to embed (each tried alone); they stay without a vector. */
  refused: number[]
  /** Vectors of the previous model dropped once every chunk had one of this model. */
  droppedOldVectors: number
}

export interface EmbeddingPassesOptions {
  /** Chunks read and sent to the endpoint per round (the provider splits further into its own batches). */
  batchSize?: number
  /** How often to look for chunks a lost notification or a finishing pass left without a vector. */
  checkIntervalMs?: number
  /** How long a pass for another model waits after this worker hands it back, for a worker that has that model. */
  otherModelDelayMs?: number
  /** A pass for another model older than this is failed: no worker with that model is left to run it. */
  otherModelGiveUpMs?: number
  log?: (message: string) => void
}

const DEFAULT_BATCH = 64
const DEFAULT_CHECK_MS = 30_000
const DEFAULT_OTHER_MODEL_DELAY_MS = 5_000
const DEFAULT_OTHER_MODEL_GIVE_UP_MS = 10 * 60_000

/** What the embedding endpoint is given for a chunk: its article's title, then its text. */
export const embeddingInput = (chunk: Pick<ChunkToEmbed, 'title' | 'text'>) => `${chunk.title}\n\n${chunk.text}`

/**
 * Keeps every chunk of the knowledge base embedded with the configured model, as persisted jobs (ADR 085). A pass
 * embeds the chunks that have no vector of the model, in batches, each batch's vectors committed with the job's
 * progress, so a restart resumes it. Passes start when the index changes (any process's publish, edit or delete
 * notifies), at start, and when a check finds chunks left over; a change of model at start is a pass like any other,
 * after which the old model's vectors are dropped. Publishing needs no change: it only has to index.
 */
export class EmbeddingPasses {
  private readonly batchSize: number
  private readonly checkIntervalMs: number
  private readonly otherModelDelayMs: number
  private readonly otherModelGiveUpMs: number
  private readonly log: (message: string) => void
  /** Chunks the endpoint refused in an earlier pass of this process: not tried again until a restart. */
  private readonly refused = new Set<number>()
  private stopListening: (() => Promise<void>) | undefined
  private timer: NodeJS.Timeout | undefined
  private checking: Promise<Job | undefined> | undefined
  /** The index log position at the last check that left nothing to embed or a pass queued. */
  private checkedIndexSeq = -1
  private isStopped = false

  constructor(
    private readonly db: Database,
    private readonly jobs: JobQueue,
    private readonly provider: EmbeddingsProvider,
    options: EmbeddingPassesOptions = {},
  ) {
    this.batchSize = Math.max(1, options.batchSize ?? DEFAULT_BATCH)
    this.checkIntervalMs = options.checkIntervalMs ?? DEFAULT_CHECK_MS
    this.otherModelDelayMs = options.otherModelDelayMs ?? DEFAULT_OTHER_MODEL_DELAY_MS
    this.otherModelGiveUpMs = options.otherModelGiveUpMs ?? DEFAULT_OTHER_MODEL_GIVE_UP_MS
    this.log = options.log ?? (() => undefined)
    jobs.register<EmbedPayload, EmbedResult>(EMBED_JOB, (job, context) => this.runPass(job, context))
  }

  get model(): string {
    return this.provider.model
  }

  /** Notices a change of model, queues a pass if chunks lack a vector, and follows the index from now on. */
  async start(): Promise<void> {
    this.isStopped = false
    const recorded = await repository.recordedModel(this.db)
    const reason: PassReason = recorded !== undefined && recorded !== this.model ? 'model_change' : 'start'
    if (reason === 'model_change') this.log(`embedding model changed from ${recorded} to ${this.model}: every chunk is embedded again`)
    const channel = await knowledgeRepository.indexChannel(this.db)
    this.stopListening = await this.db.listen(channel, () => void this.check('index').catch(() => undefined))
    this.timer = setInterval(() => void this.checkIfChanged().catch(() => undefined), this.checkIntervalMs)
    this.timer.unref()
    await this.check(reason)
  }

  async stop(): Promise<void> {
    this.isStopped = true
    if (this.timer) clearInterval(this.timer)
    this.timer = undefined
    const stop = this.stopListening
    this.stopListening = undefined
    await stop?.().catch(() => undefined)
    await this.checking?.catch(() => undefined)
  }

  /**
   * Queues a pass when some chunk has no vector of the model and no pass for the model is waiting or running in any
   * process (one at a time across processes: the check and the queueing are one step, see enqueueUnlessPending); one
   * check at a time. A pass already running may have read its last batch before the latest publish: the periodic check
   * looks again.
   */
  check(reason: PassReason = 'index'): Promise<Job | undefined> {
    this.checking ??= this.checkOnce(reason).finally(() => {
      this.checking = undefined
    })
    return this.checking
  }

  private async checkIfChanged(): Promise<void> {
    if (this.isStopped) return
    if ((await repository.latestIndexSeq(this.db)) !== this.checkedIndexSeq) await this.check('index')
  }

  private async checkOnce(reason: PassReason): Promise<Job | undefined> {
    if (this.isStopped) return undefined
    const indexSeq = await repository.latestIndexSeq(this.db)
    const [next] = await repository.chunksWithoutVector(this.db, this.model, 1, [...this.refused])
    let job: Job | undefined
    if (next) {
      const { chunks, embedded } = await repository.counts(this.db, this.model)
      ;({ job } = await this.jobs.enqueueUnlessPending(EMBED_JOB, { model: this.model, reason } satisfies EmbedPayload, {
        total: Math.max(1, chunks - embedded),
        match: { model: this.model },
      }))
    } else {
      await this.finishModelChange()
    }
    this.checkedIndexSeq = indexSeq
    return job
  }

  /** Every chunk has a vector of the model: the vectors of other models go, and the model is recorded. */
  private async finishModelChange(): Promise<number> {
    let dropped = 0
    if ((await repository.otherModels(this.db, this.model)).length > 0) dropped = await repository.deleteOtherModels(this.db, this.model)
    if ((await repository.recordedModel(this.db)) !== this.model) await repository.recordModel(this.db, this.model)
    if (dropped > 0) this.log(`dropped ${dropped} vectors of the previous embedding model`)
    return dropped
  }

  private async runPass(job: Job<EmbedPayload, EmbedResult>, context: JobContext<EmbedResult>): Promise<EmbedResult> {
    const model = this.model
    if (job.payload.model !== model) {
      // Vectors of one model are made by a worker that has it (a rolling change of model runs both for a while).
      const waited = Date.now() - job.createdAt.getTime()
      if (waited > this.otherModelGiveUpMs) {
        throw new JobAbandonedError(`No worker with the embedding model ${job.payload.model} took this pass within ${Math.round(waited / 1000)} s (this one has ${model})`)
      }
      throw new JobDeferredError(`Waiting for a worker with the embedding model ${job.payload.model} (this one has ${model})`, this.otherModelDelayMs)
    }
    // A resumed pass goes on from what its earlier attempt committed.
    const result: EmbedResult = job.result && job.result.model === model ? job.result : { model, embedded: 0, refused: [], droppedOldVectors: 0 }
    for (const id of result.refused) this.refused.add(id)
    for (;;) {
      const batch = await repository.chunksWithoutVector(this.db, model, this.batchSize, result.refused)
      if (batch.length === 0) break
      const vectors = await this.embedBatch(batch, result.refused)
      await this.db.transaction(async (tx) => {
        result.embedded += await repository.save(tx, model, vectors)
        const { chunks, embedded } = await repository.counts(tx, model)
        const remaining = Math.max(0, chunks - embedded - result.refused.length)
        await context.reportProgress(result.embedded, result.embedded + remaining, result, tx)
      })
    }
    result.droppedOldVectors = await this.finishModelChange()
    for (const id of result.refused) this.refused.add(id)
    if (result.refused.length > 0) this.log(`the embeddings endpoint refused ${result.refused.length} chunks; they are found by keyword only`)
    return result
  }

  /**
   * Vectors for a batch of chunks. A batch the endpoint refuses (one input it will not take, such as one too long for
   * the model) is sent again one chunk at a time, and chunks refused alone are noted and left out. Any other failure
   * ends the attempt; the job queue tries again later, resuming after the last committed batch.
   */
  private async embedBatch(batch: ChunkToEmbed[], refused: number[]): Promise<ChunkVector[]> {
    try {
      const vectors = await this.provider.embed(batch.map(embeddingInput))
      return batch.map((chunk, index) => ({ chunkId: chunk.chunkId, vector: vectors[index] }))
    } catch (error) {
      if (!isRefusal(error)) throw error
      if (batch.length === 1) {
        refused.push(batch[0].chunkId)
        return []
      }
    }
    const vectors: ChunkVector[] = []
    for (const chunk of batch) vectors.push(...(await this.embedBatch([chunk], refused)))
    return vectors
  }

  /** What check_embeddings reports about vectors: the last pass, and how many chunks have a vector of the model. */
  async progress(): Promise<EmbeddingsProgress> {
    const model = this.model
    const [{ chunks, embedded }, job] = await Promise.all([repository.counts(this.db, model), this.jobs.latest(EMBED_JOB, { model })])
    const result = job?.result as EmbedResult | null | undefined
    const refused = result?.model === model ? result.refused.length : 0
    const base = { model, task_id: job?.id ?? null, progress: job?.progress ?? 0, total: job?.total ?? 0, embedded, chunks, refused }
    if (!job) {
      return { ...base, status: 'idle', message: chunks === embedded ? `All ${chunks} passages have vectors (${model})` : `${embedded} of ${chunks} passages have vectors (${model}); a pass starts shortly` }
    }
    const counted = `${embedded} of ${chunks} passages have vectors (${model})`
    const message =
      job.status === 'failed'
        ? `Embedding failed: ${job.error ?? 'unknown error'}; ${counted}`
        : job.status === 'queued' || job.status === 'running'
          ? `Embedding ${job.progress} of ${job.total} passages; ${counted}`
          : refused > 0
            ? `${counted}; the endpoint refused ${refused}`
            : counted
    return { ...base, status: job.status, message }
  }
}

function isRefusal(error: unknown): boolean {
  return error instanceof LlmError && error.kind === 'refused'
}
