import { performance } from 'node:perf_hooks'
import { setImmediate as nextTurn } from 'node:timers/promises'
import type { ArticleContent, ArticleInput, ArticlesPage, ArticleUpdate, DraftsPage, DraftsTableQuery, LazyTableQuery, PublishProgress, ReadArticle } from '../../../../contracts/articles'
import type { Database, Queryable } from '../../db/database'
import { InvalidInputError, NotFoundError } from '../../errors'
import { JobStoppedError, type Job, type JobContext, type JobQueue } from '../../jobs/job-queue'
import type { KnowledgeService } from '../knowledge/knowledge.service'
import { locatePassages, normalizeLineEnds } from '../../retrieval/passage-offsets'
import { sourceOf } from '../../ingest/source-of'
import { articlesRepository as repository } from './articles.repository'

export const PUBLISH_JOB = 'publish_drafts'

interface PublishPayload {
  draftIds: number[]
}
type PublishResult = Pick<PublishProgress, 'published' | 'failed'>

/**
 * A publish commits drafts in batches, each batch with its progress record in one transaction, and gives the
 * event loop a turn between batches: a batch ends after this many drafts or milliseconds, whichever comes first.
 */
const PUBLISH_BATCH_DRAFTS = 50
const PUBLISH_BATCH_MS = 20

/** Drafts (temporary articles), their publication into the indexed knowledge base, and published articles. */
export class ArticlesService {
  constructor(
    private readonly db: Database,
    private readonly knowledge: KnowledgeService,
    private readonly jobs: JobQueue,
  ) {
    jobs.register<PublishPayload, PublishResult>(PUBLISH_JOB, (job, context) => this.runPublish(job, context))
  }

  async createDraft(input: ArticleInput): Promise<number> {
    return repository.insertDraft(this.db, { title: input.title, content: input.content, metadata: { source: input.title, ...input.metadata } })
  }

  async listDrafts(query: DraftsTableQuery): Promise<DraftsPage> {
    const page = await repository.listDrafts(this.db, query)
    return {
      success: true,
      total_count: page.total,
      rows: page.rows.map((draft) => ({ id: draft.id, title: draft.title, metadata: draft.metadata, timestamp: draft.updatedAt.toISOString() })),
    }
  }

  async listArticles(query: LazyTableQuery): Promise<ArticlesPage> {
    const page = await repository.listArticles(this.db, query)
    return {
      success: true,
      total_count: page.total,
      rows: page.rows.map((article, position) => [
        query.first + position + 1,
        article.title,
        article.metadata,
        article.id,
        article.updatedAt.toISOString(),
      ]),
    }
  }

  async articleContent(id: number): Promise<ArticleContent> {
    const article = await repository.findArticle(this.db, id)
    if (!article) throw new NotFoundError(`No article with id ${id}`)
    return { success: true, id, title: article.title, content: article.content, metadata: article.metadata, timestamp: article.updatedAt.toISOString() }
  }

  /**
   * A published article as a reader sees it: its Markdown, where it came from, and where each passage answers cite
   * sits in the text. Articles belong to no organisation (ADR 090): every signed-in caller reads every one.
   */
  async readArticle(id: number): Promise<ReadArticle> {
    const article = await repository.findArticle(this.db, id)
    if (!article) throw new NotFoundError(`No article with id ${id}`)
    const content = normalizeLineEnds(article.content)
    const passages = await repository.passagesOf(this.db, id)
    const spans = locatePassages(content, passages.map((passage) => passage.text))
    return {
      success: true,
      id,
      title: article.title,
      content,
      timestamp: article.updatedAt.toISOString(),
      source: sourceOf(article.metadata),
      passages: passages.map((passage, index) => ({ id: passage.id, ordinal: passage.ordinal, start: spans[index]?.start ?? null, end: spans[index]?.end ?? null })),
    }
  }

  async draftContent(id: number): Promise<ArticleContent> {
    const draft = await repository.findDraft(this.db, id)
    if (!draft) throw new NotFoundError(`No draft with id ${id}`)
    return { success: true, id, title: draft.title, content: draft.content, metadata: draft.metadata, timestamp: draft.updatedAt.toISOString() }
  }

  /** Changes a published article and re-indexes it in the same transaction. */
  async updateArticle(update: ArticleUpdate): Promise<ArticleContent> {
    await this.db.transaction(async (tx) => {
      // Index writers lock before any row, so two of them never wait for each other (ADR 070).
      await this.knowledge.lockIndexWrites(tx)
      const article = await repository.updateArticle(tx, update.id, update)
      if (!article) throw new NotFoundError(`No article with id ${update.id}`)
      const chunkCount = await this.knowledge.indexArticle(tx, article)
      if (chunkCount === 0) throw new InvalidInputError('content', 'The article has no searchable text')
    })
    return this.articleContent(update.id)
  }

  /** Deletes published articles, their index entries, and marks their sources deleted in the query logs. */
  async deleteArticles(ids: number[]): Promise<number> {
    return this.db.transaction(async (tx) => {
      await this.knowledge.lockIndexWrites(tx)
      let count = 0
      for (const id of ids) {
        await this.knowledge.unindexArticle(tx, id)
        await repository.markSourcesDeleted(tx, id)
        if (await repository.deleteArticle(tx, id)) count++
      }
      return count
    })
  }

  async deleteArticle(id: number): Promise<void> {
    if ((await this.deleteArticles([id])) === 0) throw new NotFoundError(`No article with id ${id}`)
  }

  async deleteArticlesByTitle(title: string): Promise<number> {
    const ids = await repository.articleIdsByTitle(this.db, title)
    if (ids.length === 0) throw new NotFoundError(`No article titled "${title}"`)
    return this.deleteArticles(ids)
  }

  async updateDraft(update: ArticleUpdate): Promise<ArticleContent> {
    const draft = await repository.updateDraft(this.db, update.id, update)
    if (!draft) throw new NotFoundError(`No draft with id ${update.id}`)
    return this.draftContent(update.id)
  }

  async deleteDraft(id: number): Promise<void> {
    if (!(await repository.deleteDraft(this.db, id))) throw new NotFoundError(`No draft with id ${id}`)
  }

  deleteAllDrafts(): Promise<number> {
    return repository.deleteAllDrafts(this.db)
  }

  /** The correction loop: a question and its corrected answer become a draft to review. */
  async createDraftFromAnswer(question: string, answer: string, logId?: number): Promise<number> {
    return repository.insertDraft(this.db, {
      title: question,
      content: answer,
      metadata: { source: 'Corrected answer', ...(logId ? { log_id: logId } : {}) },
    })
  }

  listTitles(): Promise<string[]> {
    return repository.listTitles(this.db)
  }

  /** Starts publishing the given drafts (all drafts when none are named) as a persisted job. */
  async startPublish(ids?: number[]): Promise<Job> {
    const draftIds = ids ? await repository.existingDraftIds(this.db, ids) : await repository.draftIds(this.db)
    const missing = ids?.filter((id) => !draftIds.includes(id)) ?? []
    if (missing.length > 0) throw new NotFoundError(`No draft with id ${missing.join(', ')}`)
    if (draftIds.length === 0) throw new NotFoundError('There are no drafts to publish')
    return this.jobs.enqueue(PUBLISH_JOB, { draftIds } satisfies PublishPayload, { total: draftIds.length })
  }

  /** Progress of a publish job: the one named, else the latest. */
  async publishProgress(taskId?: string): Promise<PublishProgress> {
    const job = taskId ? await this.jobs.get(taskId) : await this.jobs.latest(PUBLISH_JOB)
    if (taskId && (!job || job.kind !== PUBLISH_JOB)) throw new NotFoundError(`No publish task ${taskId}`, { status: 'not found' })
    if (!job) {
      return { success: true, task_id: null, status: 'idle', progress: 0, total: 0, published: [], failed: [], message: 'No publish has run yet' }
    }
    const result = (job.result as PublishResult | null) ?? { published: [], failed: [] }
    const message =
      job.status === 'finished'
        ? `Published ${result.published.length} of ${job.total} drafts${result.failed.length ? `; ${result.failed.length} failed` : ''}`
        : job.status === 'failed'
          ? `Publishing failed: ${job.error ?? 'unknown error'}`
          : `Publishing ${job.progress} of ${job.total} drafts`
    return {
      success: job.status !== 'failed',
      task_id: job.id,
      status: job.status,
      progress: job.progress,
      total: job.total,
      published: result.published,
      failed: result.failed,
      message,
    }
  }

  /** Publishes and indexes a set of published articles straight away (the demo knowledge base). */
  async createPublished(articles: ArticleInput[]): Promise<number[]> {
    const ids: number[] = []
    for (const article of articles) {
      ids.push(
        await this.db.transaction(async (tx) => {
          await this.knowledge.lockIndexWrites(tx)
          const id = await repository.insertArticle(tx, { title: article.title, content: article.content, metadata: { source: article.title, ...article.metadata } })
          await this.knowledge.indexArticle(tx, { id, title: article.title, content: article.content })
          return id
        }),
      )
    }
    return ids
  }

  /**
   * Publishes the job's drafts in short batches. Each batch commits its drafts together with the job's progress
   * and partial result, so a worker killed at any point leaves a record that says exactly which drafts moved:
   * the resumed job skips those and its report counts every draft once.
   */
  private async runPublish(job: Job<PublishPayload, PublishResult>, context: JobContext<PublishResult>): Promise<PublishResult> {
    // A resumed job starts from what its earlier attempt recorded.
    const result: PublishResult = job.result ?? { published: [], failed: [] }
    const done = new Set([...result.published, ...result.failed].map((entry) => entry.draft_id))
    const pending = job.payload.draftIds.filter((draftId) => !done.has(draftId))
    const total = job.payload.draftIds.length
    let next = 0
    while (next < pending.length) {
      // A stopping worker leaves between batches; the job resumes from the last one's record.
      if (context.signal.aborted) throw new JobStoppedError()
      const recorded = { published: result.published.length, failed: result.failed.length }
      try {
        next = await this.db.transaction(async (tx) => {
          await this.knowledge.lockIndexWrites(tx)
          const end = await this.publishBatch(tx, pending, next, result)
          await context.reportProgress(result.published.length + result.failed.length, total, result, tx)
          return end
        })
      } catch (error) {
        // Nothing of the batch committed: forget it, so a retry's record is right.
        result.published.length = recorded.published
        result.failed.length = recorded.failed
        throw error
      }
      // Asks, health checks and other jobs run between batches.
      await nextTurn()
    }
    return result
  }

  /** Publishes drafts from `pending[start]` on until the batch is full; returns where the next batch starts. */
  private async publishBatch(tx: Queryable, pending: number[], start: number, result: PublishResult): Promise<number> {
    const began = performance.now()
    let position = start
    while (position < pending.length && position - start < PUBLISH_BATCH_DRAFTS && performance.now() - began < PUBLISH_BATCH_MS) {
      const draftId = pending[position++]
      // A draft that cannot be published is undone alone and listed as failed; the rest of the batch stays.
      await tx.query('SAVEPOINT publish_draft')
      try {
        result.published.push(await this.publishDraft(tx, draftId))
        await tx.query('RELEASE SAVEPOINT publish_draft')
      } catch (error) {
        await tx.query('ROLLBACK TO SAVEPOINT publish_draft')
        const draft = await repository.findDraft(tx, draftId)
        result.failed.push({ draft_id: draftId, title: draft?.title ?? '', error: error instanceof Error ? error.message : String(error) })
      }
    }
    return position
  }

  /** Moves one draft into the knowledge base inside the batch's transaction. */
  private async publishDraft(tx: Queryable, draftId: number) {
    const draft = await repository.lockDraft(tx, draftId)
    // Publishing records its progress in the same transaction, so a missing draft was deleted by someone.
    if (!draft) throw new Error('The draft no longer exists')
    const articleId = await repository.insertArticle(tx, draft)
    const chunkCount = await this.knowledge.indexArticle(tx, { id: articleId, title: draft.title, content: draft.content })
    if (chunkCount === 0) throw new Error(`"${draft.title}" has no searchable text`)
    await repository.deleteDraft(tx, draftId)
    return { draft_id: draftId, article_id: articleId, title: draft.title }
  }
}
