import type { CrawlPageResult, IngestFileResult, IngestLimits, IngestProgress } from '../../../../contracts/ingest'
import type { Config } from '../../config'
import type { Database } from '../../db/database'
import { ConflictError, NotFoundError } from '../../errors'
import type { ExtractionLimits } from '../../ingest/extracted-document'
import { GuardedFetcher } from '../../ingest/guarded-fetch'
import type { HostResolver } from '../../ingest/ssrf-guard'
import { TimedTextTranscriptSource } from '../../ingest/youtube/timedtext-transcript-source'
import type { TranscriptSource } from '../../ingest/youtube/transcript-source'
import type { Job, JobQueue } from '../../jobs/job-queue'
import type { BlobStore } from '../../storage/blob-store'
import { createBlobStore } from '../../storage/create-blob-store'
import { CrawlService } from './crawl.service'
import { CRAWL_JOB, UPLOAD_JOB } from './ingest-job'
import { ingestRepository as repository } from './ingest.repository'
import { UploadService } from './upload.service'
import { YoutubeService } from './youtube.service'

/** Replacements for external services, for tests: a fake DNS resolver, another transcript source. */
export interface IngestOverrides {
  resolveHost?: HostResolver
  transcripts?: TranscriptSource
}

export interface IngestSettings {
  /** How long an upload request waits for its job before answering with the job still running. */
  waitMs: number
  limits: IngestLimits
  extraction: ExtractionLimits
  crawl: { pageTimeoutMs: number; maxPageBytes: number; maxMinutes: number }
}

export interface IngestDependencies {
  blobs: BlobStore
  fetcher: GuardedFetcher
  transcripts: TranscriptSource
}

/** Ingestion: uploads, crawls and videos into drafts, the progress of their jobs, and the stored originals. */
export class IngestService {
  private readonly stopping = new AbortController()
  readonly uploads: UploadService
  readonly crawls: CrawlService
  readonly youtube: YoutubeService

  constructor(
    private readonly db: Database,
    private readonly jobs: JobQueue,
    dependencies: IngestDependencies,
    private readonly settings: IngestSettings,
  ) {
    const { limits, extraction, crawl } = settings
    this.uploads = new UploadService(db, jobs, dependencies.blobs, { maxUploadBytes: limits.max_upload_bytes, extraction }, this.stopping.signal)
    const crawlOptions = { maxPages: limits.max_crawl_pages, maxDepth: limits.max_crawl_depth, ...crawl, extraction }
    this.crawls = new CrawlService(db, jobs, dependencies.fetcher, crawlOptions, this.stopping.signal)
    this.youtube = new YoutubeService(db, dependencies.transcripts)
  }

  limits(): IngestLimits {
    return this.settings.limits
  }

  /** Waits (up to the configured time) for an upload's job to end, then reports it: small uploads answer in one call. */
  async settleUpload(job: Job): Promise<IngestProgress> {
    await this.jobs.waitFor(job.id, this.settings.waitMs)
    return this.progress(job.id)
  }

  /** Progress and per-file or per-page results of an upload or crawl job. */
  async progress(taskId: string): Promise<IngestProgress> {
    const job = await this.jobs.get(taskId)
    if (!job || (job.kind !== UPLOAD_JOB && job.kind !== CRAWL_JOB)) throw new NotFoundError(`No import task ${taskId}`, { status: 'not found' })
    if (job.kind === UPLOAD_JOB) return describeUpload(job, await repository.listUploadFiles(this.db, job.id))
    return describeCrawl(job, await repository.listCrawlPages(this.db, job.id))
  }

  /**
   * Stops a crawl at the person's request: it ends before its next page (whatever process runs it), the drafts saved so
   * far stay, and the pages not fetched yet, the one being read included, are marked not reached.
   */
  async stopCrawl(taskId: string): Promise<IngestProgress> {
    const job = await this.jobs.get(taskId)
    if (!job || (job.kind !== UPLOAD_JOB && job.kind !== CRAWL_JOB)) throw new NotFoundError(`No import task ${taskId}`, { status: 'not found' })
    if (job.kind !== CRAWL_JOB) throw new ConflictError('Only a crawl can be stopped; an upload ends once its files are read')
    const stopped = await this.jobs.cancel(taskId)
    if (job.status === 'cancelled' || stopped?.status !== 'cancelled') {
      throw new ConflictError(`The crawl has already ended (${stopped?.status === 'cancelled' ? 'stopped' : (stopped?.status ?? job.status)})`)
    }
    await repository.skipPendingPages(this.db, taskId, 'Not reached: the crawl was stopped')
    return this.progress(taskId)
  }

  /** Asks running ingestion jobs to stop at their next step; called before the job queue stops. */
  stop(): void {
    this.stopping.abort()
  }
}

function describeUpload(job: Job, files: IngestFileResult[]): IngestProgress {
  const imported = files.filter((file) => file.status === 'imported')
  const failed = files.filter((file) => file.status === 'failed')
  const drafts = imported.reduce((count, file) => count + file.draft_ids.length, 0)
  const duplicates = imported.reduce((count, file) => count + (file.duplicates?.length ?? 0), 0)
  const alreadyThere = duplicates ? `; ${duplicates} ${duplicates === 1 ? 'document was' : 'documents were'} already in the knowledge base` : ''
  const isOver = job.status === 'finished' || job.status === 'failed' || job.status === 'cancelled'
  const message = isOver
    ? `Imported ${imported.length} of ${files.length} files into ${drafts} ${drafts === 1 ? 'draft' : 'drafts'}${alreadyThere}${failed.length ? `; ${failed.length} failed` : ''}`
    : `Reading ${imported.length + failed.length} of ${files.length} files`
  return {
    success: job.status !== 'failed' && failed.length === 0,
    task_id: job.id,
    kind: 'upload',
    status: job.status,
    progress: imported.length + failed.length,
    total: files.length,
    message: job.status === 'failed' ? `The upload failed: ${job.error ?? 'unknown error'}` : message,
    start_url: null,
    files,
    pages: [],
  }
}

function describeCrawl(job: Job, pages: CrawlPageResult[]): IngestProgress {
  const count = (status: CrawlPageResult['status']) => pages.filter((page) => page.status === status).length
  const fetched = count('imported') + count('visited') + count('failed')
  const payload = job.payload as { start_url: string; max_pages: number }
  const duplicates = pages.filter((page) => page.duplicate_of).length
  const alreadyThere = duplicates ? `, ${duplicates} already in the knowledge base` : ''
  const summary = `${count('imported')} ${count('imported') === 1 ? 'draft' : 'drafts'}${alreadyThere}, ${count('failed')} failed, ${count('excluded')} excluded`
  const isOver = job.status === 'finished' || job.status === 'failed' || job.status === 'cancelled'
  const message =
    job.status === 'failed'
      ? `The crawl failed: ${job.error ?? 'unknown error'}`
      : job.status === 'cancelled'
        ? `Stopped after ${fetched} ${fetched === 1 ? 'page' : 'pages'}: ${summary}`
        : isOver
          ? `Crawled ${fetched} ${fetched === 1 ? 'page' : 'pages'}: ${summary}`
        : `Crawling: ${fetched} of at most ${payload.max_pages} pages so far (${summary})`
  return {
    success: job.status !== 'failed',
    task_id: job.id,
    kind: 'crawl',
    status: job.status,
    progress: fetched,
    total: isOver ? fetched : Math.min(payload.max_pages, fetched + count('pending')),
    message,
    start_url: payload.start_url,
    files: [],
    pages,
  }
}

/** Builds the ingestion services from the configuration (blob store, guarded fetcher, transcript source). */
export function createIngestService(db: Database, jobs: JobQueue, config: Config, overrides: IngestOverrides = {}): IngestService {
  const fetcher = new GuardedFetcher({ allowPrivate: config.ALLOW_PRIVATE_FETCH, allowedHosts: config.FETCH_ALLOW_HOSTS }, overrides.resolveHost)
  const transcripts =
    overrides.transcripts ??
    new TimedTextTranscriptSource(fetcher, { baseUrl: config.YOUTUBE_TRANSCRIPT_BASE_URL, language: 'en', timeoutMs: config.CRAWL_PAGE_TIMEOUT_MS })
  return new IngestService(db, jobs, { blobs: createBlobStore(config), fetcher, transcripts }, {
    waitMs: config.UPLOAD_WAIT_MS,
    limits: {
      max_upload_bytes: config.MAX_UPLOAD_BYTES,
      max_upload_files: config.MAX_UPLOAD_FILES,
      max_crawl_pages: config.CRAWL_MAX_PAGES,
      max_crawl_depth: config.CRAWL_MAX_DEPTH,
      allow_private_fetch: config.ALLOW_PRIVATE_FETCH,
    },
    // Per-file bounds beyond the upload size; generous for real documents, fatal to pathological ones.
    extraction: { maxDecompressedBytes: config.MAX_DECOMPRESSED_BYTES, maxTextChars: 5_000_000, maxPdfPages: 2000, maxCsvRows: 10_000, timeoutMs: 120_000 },
    crawl: { pageTimeoutMs: config.CRAWL_PAGE_TIMEOUT_MS, maxPageBytes: config.CRAWL_MAX_PAGE_BYTES, maxMinutes: config.CRAWL_MAX_MINUTES },
  })
}
