import { z } from 'zod'
import { JobStatus } from './articles'

/**
 * A draft or published article that an imported document was identical to: the same title and the same content once
 * white space is trimmed and collapsed (ADR 311). No draft is made for such a document.
 */
export const KnowledgeMatch = z.object({
  kind: z.enum(['draft', 'article']),
  id: z.number().int(),
  /** Its title when the import met it. */
  title: z.string(),
})
export type KnowledgeMatch = z.infer<typeof KnowledgeMatch>

/** A document of an uploaded file that was already in the knowledge base. */
export const DuplicateDocument = z.object({
  /** Its row in a file of several documents (a CSV, from 1); null in a file of one document. */
  row: z.number().int().nullable(),
  duplicate_of: KnowledgeMatch,
})
export type DuplicateDocument = z.infer<typeof DuplicateDocument>

/**
 * One file of an upload: the drafts it became, or why it did not become any. A file whose every document was already
 * in the knowledge base is imported with no drafts, its documents listed in duplicates.
 */
export const IngestFileResult = z.object({
  file_name: z.string(),
  s3_key: z.string(),
  content_type: z.string(),
  size_bytes: z.number().int(),
  status: z.enum(['pending', 'imported', 'failed']),
  draft_ids: z.array(z.number().int()),
  error: z.string().nullable(),
  /** The file's documents that made no draft because they were already in the knowledge base; null until it is read, and when it failed. */
  duplicates: z.array(DuplicateDocument).nullable(),
})
export type IngestFileResult = z.infer<typeof IngestFileResult>

/**
 * One URL a crawl met. imported: became a draft; visited: fetched, no draft (a redirect, no text, noindex, already in
 * the knowledge base); failed: could not be fetched or read; excluded: kept out (other site, pattern, robots.txt);
 * skipped: not reached before the page limit; pending: not fetched yet.
 */
export const CrawlPageResult = z.object({
  url: z.string(),
  depth: z.number().int(),
  status: z.enum(['pending', 'imported', 'visited', 'failed', 'excluded', 'skipped']),
  draft_id: z.number().int().nullable(),
  reason: z.string().nullable(),
  redirected_to: z.string().nullable(),
  /** The draft or article the page was identical to, when it was visited for that reason; else null. */
  duplicate_of: KnowledgeMatch.nullable(),
})
export type CrawlPageResult = z.infer<typeof CrawlPageResult>

export const IngestKind = z.enum(['upload', 'crawl'])

/** Progress and per-item results of an upload or crawl job (POST /admin/upload_recovery, GET /admin/ingest_jobs/{task_id}). */
export const IngestProgress = z.object({
  success: z.boolean(),
  task_id: z.string(),
  kind: IngestKind,
  status: JobStatus,
  progress: z.number().int(),
  total: z.number().int(),
  message: z.string(),
  /** The crawl's start URL; null for uploads. */
  start_url: z.string().nullable(),
  files: z.array(IngestFileResult),
  pages: z.array(CrawlPageResult),
})
export type IngestProgress = z.infer<typeof IngestProgress>

export const IngestJobParams = z.object({ task_id: z.string().trim().min(1, 'task_id is required') })

/** Asterisks one exclusion pattern may hold: plenty for a real pattern (ADR 301). */
export const MAX_PATTERN_ASTERISKS = 10
export const TOO_MANY_ASTERISKS = `A pattern may hold at most ${MAX_PATTERN_ASTERISKS} asterisks`
export const countAsterisks = (pattern: string) => pattern.split('*').length - 1

/** Body of POST /admin/crawl. The backend caps max_depth and max_pages at its configured limits. */
export const CrawlBody = z.object({
  start_url: z
    .string({ error: 'start_url is required' })
    .trim()
    .min(1, 'start_url is required')
    .refine((value) => /^https?:\/\/[^\s/]+/i.test(value) && URL.canParse(value), 'start_url must be an http or https address'),
  max_depth: z.coerce.number().int('max_depth is a whole number').min(0, 'max_depth is at least 0').default(2),
  max_pages: z.coerce.number().int('max_pages is a whole number').min(1, 'max_pages is at least 1').default(50),
  exclude_patterns: z
    .array(
      z
        .string()
        .trim()
        .min(1)
        .max(300, 'an exclusion pattern is at most 300 characters')
        .refine((pattern) => countAsterisks(pattern) <= MAX_PATTERN_ASTERISKS, TOO_MANY_ASTERISKS),
    )
    .max(100, 'at most 100 exclusion patterns')
    .default([]),
})
export type CrawlBody = z.infer<typeof CrawlBody>

/** Body of POST /admin/inject_youtube. */
export const YoutubeBody = z.object({
  url: z.string({ error: 'url is required' }).trim().min(1, 'url is required').max(2000, 'url is at most 2000 characters'),
})
export type YoutubeBody = z.infer<typeof YoutubeBody>

/**
 * A video imported, or already in the knowledge base: a transcript with the same title and content as a draft or a
 * published article makes no draft (ADR 311), and the message says what it matched.
 */
export const YoutubeImported = z.object({
  success: z.literal(true),
  message: z.string(),
  /** The draft made from the transcript; when it made none, the id of the draft or article it is the same as (duplicate_of). */
  id: z.number().int(),
  title: z.string(),
  url: z.string(),
  /** The draft or article the transcript was identical to, when it made no draft for that reason; else null. */
  duplicate_of: KnowledgeMatch.nullable(),
})
export type YoutubeImported = z.infer<typeof YoutubeImported>

export const DownloadQuery = z.object({ s3_key: z.string().trim().min(1, 's3_key is required').max(512) })

/** What the import screens need to know about the backend's limits (GET /admin/ingest_limits). */
export const IngestLimits = z.object({
  max_upload_bytes: z.number().int(),
  max_upload_files: z.number().int(),
  max_crawl_pages: z.number().int(),
  max_crawl_depth: z.number().int(),
  allow_private_fetch: z.boolean(),
})
export type IngestLimits = z.infer<typeof IngestLimits>

/** The multipart field names of POST /admin/upload_recovery besides the files themselves. */
export const UPLOAD_FIELDS = { csvTitleColumn: 'csv_title_column', csvContentColumn: 'csv_content_column' } as const
