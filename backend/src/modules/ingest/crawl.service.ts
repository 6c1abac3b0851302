import { setTimeout as sleep } from 'node:timers/promises'
import type { CrawlBody } from '../../../../contracts/ingest'
import type { Database, Queryable } from '../../db/database'
import { InvalidInputError } from '../../errors'
import { CrawlScope, loadRobots } from '../../ingest/crawl-scope'
import { extractDocuments } from '../../ingest/extract-documents'
import { capText, ExtractionError, titleFromFileName, type ExtractedDocument, type ExtractionLimits } from '../../ingest/extracted-document'
import { decodeBody, FetchError, type FetchedResource, type GuardedFetcher } from '../../ingest/guarded-fetch'
import { extractReadableHtml } from '../../ingest/html-extractor'
import { sniffFormat } from '../../ingest/sniff-format'
import { FetchRefusedError } from '../../ingest/ssrf-guard'
import { JobAbandonedError, type Job, type JobContext, type JobQueue } from '../../jobs/job-queue'
import { articlesRepository } from '../articles/articles.repository'
import { AlreadySettledError, alreadyThereReason, CRAWL_JOB, JobInterruptedError } from './ingest-job'
import { ingestRepository as repository, type PendingPage } from './ingest.repository'

type CrawlPayload = Pick<CrawlBody, 'start_url' | 'max_depth' | 'max_pages' | 'exclude_patterns'>

interface CrawlSummary {
  fetched: number
}

export interface CrawlOptions {
  maxPages: number
  maxDepth: number
  pageTimeoutMs: number
  maxPageBytes: number
  /** The longest a crawl may take from its request, restarts included: then it fails, its pages not reached skipped. */
  maxMinutes: number
  extraction: ExtractionLimits
}

/** The names a page's draft may have, in order of preference: its title, its heading, its title with its path. */
function namesOf(title: string, heading: string | undefined, url: string): string[] {
  const { pathname, search } = new URL(url)
  let where = pathname + search
  try {
    where = decodeURIComponent(where)
  } catch {
    // Not valid percent-encoding: the address as it was written.
  }
  return [...new Set([title, ...(heading ? [heading] : []), `${title} (${where})`.slice(0, 300)])]
}

/** What reading one fetched page gave: a document for a draft (or a note why none), and the links to follow. */
interface PageReading {
  document?: ExtractedDocument
  /** The page's one top heading, when it has one. */
  heading?: string
  note?: string
  links: string[]
}

// Links taken from one page: enough for any real page, not enough for a page built to flood the frontier.
const MAX_LINKS_PER_PAGE = 1000
const MAX_CRAWL_DELAY_SECONDS = 10
const ACCEPT = 'text/html,application/xhtml+xml;q=0.9,text/plain;q=0.8,application/pdf;q=0.7,*/*;q=0.5'

/**
 * Crawls one site breadth first into drafts, as a persisted job. The frontier and every outcome live in
 * crawl_pages (one row per URL), and a page's draft is written in the same transaction as its outcome and
 * its links, so a crawl resumed after a crash neither loses nor repeats a page.
 */
export class CrawlService {
  constructor(
    private readonly db: Database,
    private readonly jobs: JobQueue,
    private readonly fetcher: GuardedFetcher,
    private readonly options: CrawlOptions,
    private readonly stopping: AbortSignal,
  ) {
    jobs.register<CrawlPayload, CrawlSummary>(CRAWL_JOB, (job, context) => this.runCrawl(job, context))
  }

  /**
   * Checks the request (limits, the start address against the SSRF guard, then one fetch of it) and starts the
   * crawl job. The site crawled is the one the start address lands on: http://example.org redirecting to
   * https://www.example.org/ crawls the latter.
   */
  async start(body: CrawlBody): Promise<Job> {
    if (body.max_depth > this.options.maxDepth) throw new InvalidInputError('max_depth', `max_depth is at most ${this.options.maxDepth}`)
    if (body.max_pages > this.options.maxPages) throw new InvalidInputError('max_pages', `max_pages is at most ${this.options.maxPages}`)
    const start = new URL(body.start_url)
    start.hash = ''
    let landedOn: string
    try {
      // The guard alone first: a private address is refused without a single packet sent.
      await this.fetcher.check(start)
      const answer = await this.fetcher.fetch(start, { timeoutMs: this.options.pageTimeoutMs, maxBytes: this.options.maxPageBytes, accept: ACCEPT })
      if (answer.status < 200 || answer.status >= 300) throw new Error(`it answered HTTP ${answer.status}`)
      landedOn = answer.url
    } catch (error) {
      const message = error instanceof FetchRefusedError ? error.message : `The start address could not be fetched: ${(error as Error).message}`
      throw new InvalidInputError('start_url', message)
    }
    const payload: CrawlPayload = { start_url: landedOn, max_depth: body.max_depth, max_pages: body.max_pages, exclude_patterns: body.exclude_patterns }
    // Crawls are interrupted by restarts more often than other jobs, and each attempt resumes.
    const job = await this.jobs.enqueue(CRAWL_JOB, payload, { total: body.max_pages, maxAttempts: 10 })
    await repository.addCrawlUrls(this.db, job.id, [{ url: landedOn, depth: 0, status: 'pending' }])
    return job
  }

  private async runCrawl(job: Job<CrawlPayload, CrawlSummary>, context: JobContext<CrawlSummary>): Promise<CrawlSummary> {
    const { start_url: startUrl, max_pages: maxPages } = job.payload
    // An attempt that ended without recording its failure (the process died during it) still counts: a crawl that
    // takes its backend down with it is not started again and again.
    if (job.attempts > job.maxAttempts) await this.giveUp(job.id, `did not finish in ${job.maxAttempts} attempts and was not tried again`)
    const deadline = job.createdAt.getTime() + this.options.maxMinutes * 60_000
    const checkTime = async () => {
      if (Date.now() > deadline) await this.giveUp(job.id, `took longer than ${this.options.maxMinutes} minutes and was stopped`)
    }
    await checkTime()
    await repository.addCrawlUrls(this.db, job.id, [{ url: startUrl, depth: 0, status: 'pending' }])
    const { robots, problem: robotsProblem } = await loadRobots(startUrl, this.fetcher, { timeoutMs: this.options.pageTimeoutMs, signal: this.stopping }).catch(
      (error) => {
        throw this.stopping.aborted ? new JobInterruptedError() : error
      },
    )
    const scope = new CrawlScope(startUrl, job.payload.exclude_patterns, robots)
    const delayMs = scope.crawlDelaySeconds(MAX_CRAWL_DELAY_SECONDS) * 1000
    for (let fetchedHere = 0; ; ) {
      if (this.stopping.aborted) throw new JobInterruptedError()
      await checkTime()
      const counts = await repository.countFetchedPages(this.db, job.id)
      const total = Math.min(maxPages, counts.fetched + counts.pending)
      await context.reportProgress(counts.fetched, total, { fetched: counts.fetched })
      if (counts.fetched >= maxPages) {
        await repository.skipPendingPages(this.db, job.id, `Not reached: the crawl stopped at its limit of ${maxPages} pages`)
        break
      }
      const page = await repository.nextPendingPage(this.db, job.id)
      if (!page) break
      const verdict = scope.judge(page.url)
      if (!verdict.isAllowed) {
        const reason = robotsProblem && verdict.reason.includes('robots') ? `${verdict.reason}: ${robotsProblem}` : verdict.reason
        await repository.settleCrawlPage(this.db, job.id, page.url, { status: 'excluded', reason })
        continue
      }
      if (delayMs && fetchedHere > 0) await sleep(delayMs, undefined, { signal: this.stopping }).catch(() => undefined)
      if (this.stopping.aborted) throw new JobInterruptedError()
      // A page's draft and links commit with a progress record, which throws JobLostError once the crawl was stopped
      // (IngestService.stopCrawl) or taken over: a stopped crawl saves nothing more, whichever process runs it.
      await this.crawlPage(job, page, scope, (tx) => context.reportProgress(counts.fetched, total, { fetched: counts.fetched }, tx))
      fetchedHere++
    }
    const counts = await repository.countFetchedPages(this.db, job.id)
    return { fetched: counts.fetched }
  }

  /** Ends the crawl as failed ("The crawl failed: it took…") without another attempt; the pages not reached say why. */
  private async giveUp(jobId: string, what: string): Promise<never> {
    await repository.skipPendingPages(this.db, jobId, `Not reached: the crawl ${what}`)
    throw new JobAbandonedError(`it ${what}`)
  }

  private async crawlPage(job: Job<CrawlPayload, CrawlSummary>, page: PendingPage, scope: CrawlScope, claim: (tx: Queryable) => Promise<void>): Promise<void> {
    let resource: FetchedResource
    try {
      resource = await this.fetcher.fetch(page.url, {
        timeoutMs: this.options.pageTimeoutMs,
        maxBytes: this.options.maxPageBytes,
        accept: ACCEPT,
        signal: this.stopping,
        refuseRedirect: (target) => (scope.isSameSite(target) ? undefined : `Redirects to another site (${target.href})`),
      })
    } catch (error) {
      if (this.stopping.aborted) throw new JobInterruptedError()
      if (!(error instanceof FetchError || error instanceof FetchRefusedError)) throw error
      await repository.settleCrawlPage(this.db, job.id, page.url, { status: 'failed', reason: error.message })
      return
    }
    if (resource.status < 200 || resource.status >= 300) {
      await repository.settleCrawlPage(this.db, job.id, page.url, { status: 'failed', reason: `HTTP ${resource.status}` })
      return
    }

    // Redirected within the site: the content belongs to where it landed, which the crawl may already know.
    const landedOn = resource.url
    if (landedOn !== page.url) {
      const verdict = scope.judge(landedOn)
      const known = await repository.crawlPageStatus(this.db, job.id, landedOn)
      if (!verdict.isAllowed || (known && known !== 'pending')) {
        await this.db.transaction(async (tx) => {
          if (!verdict.isAllowed) await repository.addCrawlUrls(tx, job.id, [{ url: landedOn, depth: page.depth, status: 'excluded', reason: verdict.reason }])
          await repository.settleCrawlPage(tx, job.id, page.url, { status: 'visited', reason: 'Redirect', redirectedTo: landedOn })
        })
        return
      }
    }

    let reading: PageReading
    try {
      reading = await this.readPage(resource)
    } catch (error) {
      // Reading touches no storage: whatever went wrong is this page's problem, not the crawl's.
      const reason = error instanceof ExtractionError ? error.message : `The page could not be read: ${(error as Error).message}`
      await repository.settleCrawlPage(this.db, job.id, page.url, { status: 'failed', reason })
      return
    }

    try {
      await this.db.transaction(async (tx) => {
        if (landedOn !== page.url) {
          await repository.addCrawlUrls(tx, job.id, [{ url: landedOn, depth: page.depth, status: 'pending' }])
          await repository.settleCrawlPage(tx, job.id, page.url, { status: 'visited', reason: 'Redirect', redirectedTo: landedOn })
        }
        let isSettled: boolean
        if (reading.document) {
          await repository.lockIdentityCheck(tx)
          const names = namesOf(reading.document.title, reading.heading, landedOn)
          // Already in the knowledge base under any name this page would be given (ADR 311): a crawl of the site again
          // may name a page otherwise, as the pages that took a name the first time make no draft this time.
          const match = await repository.findIdenticalDocument(tx, { titles: names, content: reading.document.content })
          if (match) {
            isSettled = await repository.settleCrawlPage(tx, job.id, landedOn, { status: 'visited', reason: alreadyThereReason(match), duplicateOf: match })
          } else {
            const draftId = await articlesRepository.insertDraft(tx, {
              title: await this.distinctTitle(tx, job.id, names),
              content: reading.document.content,
              metadata: { source: landedOn, url: landedOn, crawl_task_id: job.id, depth: page.depth },
            })
            isSettled = await repository.settleCrawlPage(tx, job.id, landedOn, { status: 'imported', draftId })
          }
        } else {
          isSettled = await repository.settleCrawlPage(tx, job.id, landedOn, { status: 'visited', reason: reading.note ?? null })
        }
        if (!isSettled) throw new AlreadySettledError()
        if (page.depth < job.payload.max_depth) await this.recordLinks(tx, job.id, reading.links, page.depth + 1, scope)
        await claim(tx)
      })
    } catch (error) {
      if (!(error instanceof AlreadySettledError)) throw error
    }
  }

  /**
   * The draft's title: the page's own, unless an earlier page of this crawl took it (a site whose pages all have one
   * `<title>`, its name); then the page's heading, else its title with its path, so that each draft can be told apart.
   */
  private async distinctTitle(tx: Queryable, jobId: string, names: string[]): Promise<string> {
    for (const name of names.slice(0, -1)) if (!(await repository.crawlHasDraftTitled(tx, jobId, name))) return name
    return names[names.length - 1]
  }

  private async recordLinks(tx: Queryable, jobId: string, links: string[], depth: number, scope: CrawlScope): Promise<void> {
    const entries = links.slice(0, MAX_LINKS_PER_PAGE).map((url) => {
      const verdict = scope.judge(url)
      return verdict.isAllowed ? { url, depth, status: 'pending' as const } : { url, depth, status: 'excluded' as const, reason: verdict.reason }
    })
    await repository.addCrawlUrls(tx, jobId, entries)
  }

  /** HTML through Readability (main content, links); PDF, DOCX and text pages through the file readers. */
  private async readPage(resource: FetchedResource): Promise<PageReading> {
    const fileName = decodeURIComponent(new URL(resource.url).pathname.split('/').pop() ?? '') || new URL(resource.url).hostname
    const sniffed = await sniffFormat(resource.body, { fileName, declaredType: resource.mediaType })
    if (!sniffed.isSupported) return { links: [], note: `Not a readable type (${sniffed.description})` }
    if (sniffed.format === 'html') {
      const page = extractReadableHtml(decodeBody(resource), { url: resource.url, fallbackTitle: titleFromFileName(fileName) })
      if (page.isNoIndex) return { links: page.links, note: 'The page asks not to be indexed (noindex)' }
      if (!page.content) return { links: page.links, note: 'No readable text' }
      return { document: { title: page.title, content: capText(page.content, this.options.extraction.maxTextChars) }, heading: page.heading, links: page.links }
    }
    // A CSV met on a site is read as text: one page, one draft.
    const [document] = await extractDocuments(resource.body, sniffed.format === 'csv' ? 'text' : sniffed.format, fileName, this.options.extraction)
    return { document, links: [] }
  }
}
