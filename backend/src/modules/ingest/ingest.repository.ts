import type { CrawlPageResult, DuplicateDocument, IngestFileResult, KnowledgeMatch } from '../../../../contracts/ingest'
import type { Queryable } from '../../db/database'

export interface StoredFileRecord {
  s3Key: string
  fileName: string
  contentType: string
  sizeBytes: number
}

export interface UploadFileRecord {
  position: number
  fileName: string
  s3Key: string
  format: string
  contentType: string
  sizeBytes: number
}

export interface PendingPage {
  url: string
  depth: number
}

export type PageOutcome =
  | { status: 'imported'; draftId: number }
  | { status: 'visited' | 'failed' | 'excluded' | 'skipped'; reason: string | null; redirectedTo?: string; duplicateOf?: KnowledgeMatch }

export interface BotInfoLists {
  visited_urls: string[]
  excluded_links: string[]
  errored_urls: string[]
  tube_urls: string[]
}

/**
 * A text with its white space trimmed and collapsed to single spaces, in SQL. Migration 014 indexes the md5 of this
 * expression over the content of drafts and articles: it must stay the same, word for word, for the index to serve.
 */
const collapsed = (text: string) => `regexp_replace(regexp_replace(${text}, '[[:space:]]+', ' ', 'g'), '^ | $', '', 'g')`

// Any constant works; it only has to be the same in every process and differ from the other advisory locks.
const IDENTITY_CHECK_LOCK = 72_531_014

/** SQL for ingestion: stored originals, upload files, crawl pages and imported videos. */
export const ingestRepository = {
  /**
   * Holds, until the transaction ends, the right to check for identical documents and save drafts after the check:
   * two imports of one file at the same time, in any processes, make one draft and not two.
   */
  async lockIdentityCheck(tx: Queryable): Promise<void> {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [IDENTITY_CHECK_LOCK])
  },

  /**
   * A published article, else a draft, with this content and one of these titles, both compared with their white space
   * trimmed and collapsed (ADR 311); the oldest when there are several.
   */
  async findIdenticalDocument(db: Queryable, document: { titles: string[]; content: string }): Promise<KnowledgeMatch | undefined> {
    const matching = (table: string) => `
      SELECT id, title FROM ${table}
        WHERE md5(${collapsed('content')}) = md5(${collapsed('$2::text')})
          AND ${collapsed('content')} = ${collapsed('$2::text')}
          AND ${collapsed('title')} IN (SELECT ${collapsed('candidate')} FROM unnest($1::text[]) AS candidate)`
    const [row] = await db.query<KnowledgeMatch>(
      `SELECT kind, id, title FROM (
          SELECT 'article' AS kind, 0 AS rank, found.* FROM (${matching('articles')}) AS found
          UNION ALL
          SELECT 'draft' AS kind, 1 AS rank, found.* FROM (${matching('temp_articles')}) AS found
        ) AS matches ORDER BY rank, id LIMIT 1`,
      [document.titles, document.content],
    )
    return row
  },

  /** Whether a page of this crawl was already saved as a draft with this title. */
  async crawlHasDraftTitled(db: Queryable, jobId: string, title: string): Promise<boolean> {
    const rows = await db.query(`SELECT 1 FROM temp_articles WHERE metadata->>'crawl_task_id' = $1 AND title = $2 LIMIT 1`, [jobId, title])
    return rows.length > 0
  },
  async insertStoredFile(db: Queryable, file: StoredFileRecord): Promise<void> {
    await db.query(`INSERT INTO stored_files (s3_key, file_name, content_type, size_bytes) VALUES ($1, $2, $3, $4) ON CONFLICT (s3_key) DO NOTHING`, [
      file.s3Key,
      file.fileName,
      file.contentType,
      file.sizeBytes,
    ])
  },

  async findStoredFile(db: Queryable, s3Key: string): Promise<StoredFileRecord | undefined> {
    const [row] = await db.query<{ s3_key: string; file_name: string; content_type: string; size_bytes: string | number }>(
      `SELECT s3_key, file_name, content_type, size_bytes FROM stored_files WHERE s3_key = $1`,
      [s3Key],
    )
    return row ? { s3Key: row.s3_key, fileName: row.file_name, contentType: row.content_type, sizeBytes: Number(row.size_bytes) } : undefined
  },

  /** Records the files of an upload job; a second call for the same job changes nothing. */
  async insertUploadFiles(db: Queryable, jobId: string, files: UploadFileRecord[]): Promise<void> {
    for (const file of files) {
      await db.query(
        `INSERT INTO ingest_files (job_id, position, file_name, s3_key, format, content_type, size_bytes)
          VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (job_id, position) DO NOTHING`,
        [jobId, file.position, file.fileName, file.s3Key, file.format, file.contentType, file.sizeBytes],
      )
    }
  },

  async pendingUploadFiles(db: Queryable, jobId: string): Promise<UploadFileRecord[]> {
    const rows = await db.query<{ position: number; file_name: string; s3_key: string; format: string; content_type: string; size_bytes: string | number }>(
      `SELECT position, file_name, s3_key, format, content_type, size_bytes FROM ingest_files WHERE job_id = $1 AND status = 'pending' ORDER BY position`,
      [jobId],
    )
    return rows.map((row) => ({
      position: row.position,
      fileName: row.file_name,
      s3Key: row.s3_key,
      format: row.format,
      contentType: row.content_type,
      sizeBytes: Number(row.size_bytes),
    }))
  },

  /**
   * Settles a file once: imported (with its new drafts and the documents that were already there) or failed. A file
   * already settled (by an earlier attempt) is left as it is, and false is returned.
   */
  async settleUploadFile(
    db: Queryable,
    jobId: string,
    position: number,
    outcome: { draftIds: number[]; duplicates: DuplicateDocument[] } | { error: string },
  ): Promise<boolean> {
    const isImported = 'draftIds' in outcome
    const rows = await db.query(
      `UPDATE ingest_files SET status = $3, draft_ids = $4::int[], error = $5, duplicates = $6::jsonb, updated_at = now()
        WHERE job_id = $1 AND position = $2 AND status = 'pending' RETURNING position`,
      [
        jobId,
        position,
        isImported ? 'imported' : 'failed',
        isImported ? outcome.draftIds : [],
        isImported ? null : outcome.error,
        isImported ? JSON.stringify(outcome.duplicates) : null,
      ],
    )
    return rows.length > 0
  },

  async listUploadFiles(db: Queryable, jobId: string): Promise<IngestFileResult[]> {
    const rows = await db.query<{
      file_name: string
      s3_key: string
      content_type: string
      size_bytes: string | number
      status: IngestFileResult['status']
      draft_ids: number[]
      error: string | null
      duplicates: DuplicateDocument[] | null
    }>(
      `SELECT file_name, s3_key, content_type, size_bytes, status, draft_ids, error, duplicates FROM ingest_files WHERE job_id = $1 ORDER BY position`,
      [jobId],
    )
    return rows.map((row) => ({ ...row, size_bytes: Number(row.size_bytes), draft_ids: row.draft_ids ?? [] }))
  },

  /** Adds URLs to a crawl's frontier (or its excluded list); a URL the crawl already knows is left alone. */
  async addCrawlUrls(db: Queryable, jobId: string, entries: Array<{ url: string; depth: number; status: 'pending' | 'excluded'; reason?: string }>): Promise<void> {
    if (entries.length === 0) return
    await db.query(
      `INSERT INTO crawl_pages (job_id, url, depth, status, reason)
        SELECT $1, entry.url, entry.depth, entry.status, entry.reason
          FROM unnest($2::text[], $3::int[], $4::text[], $5::text[]) AS entry (url, depth, status, reason)
        ON CONFLICT (job_id, url) DO NOTHING`,
      [jobId, entries.map((entry) => entry.url), entries.map((entry) => entry.depth), entries.map((entry) => entry.status), entries.map((entry) => entry.reason ?? null)],
    )
  },

  /** The next page to fetch: breadth first, then in discovery order. */
  async nextPendingPage(db: Queryable, jobId: string): Promise<PendingPage | undefined> {
    const [row] = await db.query<PendingPage>(
      `SELECT url, depth FROM crawl_pages WHERE job_id = $1 AND status = 'pending' ORDER BY depth, id LIMIT 1`,
      [jobId],
    )
    return row
  },

  /** Pages fetched so far (whatever came of them): what the page limit counts. */
  async countFetchedPages(db: Queryable, jobId: string): Promise<{ fetched: number; pending: number }> {
    const [row] = await db.query<{ fetched: number; pending: number }>(
      `SELECT COUNT(*) FILTER (WHERE status IN ('imported', 'visited', 'failed'))::int AS fetched,
              COUNT(*) FILTER (WHERE status = 'pending')::int AS pending
         FROM crawl_pages WHERE job_id = $1`,
      [jobId],
    )
    return row
  },

  /** The status of a URL in a crawl, or undefined when the crawl has not met it. */
  async crawlPageStatus(db: Queryable, jobId: string, url: string): Promise<CrawlPageResult['status'] | undefined> {
    const [row] = await db.query<{ status: CrawlPageResult['status'] }>(`SELECT status FROM crawl_pages WHERE job_id = $1 AND url = $2`, [jobId, url])
    return row?.status
  },

  /** Settles a pending page; returns false when it was no longer pending (settled by an earlier attempt). */
  async settleCrawlPage(db: Queryable, jobId: string, url: string, outcome: PageOutcome): Promise<boolean> {
    const rows = await db.query(
      `UPDATE crawl_pages SET status = $3, draft_id = $4, reason = $5, redirected_to = $6, duplicate_of = $7::jsonb, updated_at = now()
        WHERE job_id = $1 AND url = $2 AND status = 'pending' RETURNING url`,
      [
        jobId,
        url,
        outcome.status,
        outcome.status === 'imported' ? outcome.draftId : null,
        outcome.status === 'imported' ? null : outcome.reason,
        outcome.status === 'imported' ? null : (outcome.redirectedTo ?? null),
        outcome.status === 'imported' || !outcome.duplicateOf ? null : JSON.stringify(outcome.duplicateOf),
      ],
    )
    return rows.length > 0
  },

  /** Marks the pages a crawl did not reach before its page limit. */
  async skipPendingPages(db: Queryable, jobId: string, reason: string): Promise<void> {
    await db.query(`UPDATE crawl_pages SET status = 'skipped', reason = $2, updated_at = now() WHERE job_id = $1 AND status = 'pending'`, [jobId, reason])
  },

  async listCrawlPages(db: Queryable, jobId: string): Promise<CrawlPageResult[]> {
    return db.query<CrawlPageResult>(
      `SELECT url, depth, status, draft_id, reason, redirected_to, duplicate_of FROM crawl_pages WHERE job_id = $1 ORDER BY id`,
      [jobId],
    )
  },

  async recordTubeVideo(db: Queryable, video: { url: string; videoId: string; title: string; draftId: number }): Promise<void> {
    await db.query(
      `INSERT INTO tube_videos (url, video_id, title, draft_id) VALUES ($1, $2, $3, $4)
        ON CONFLICT (url) DO UPDATE SET title = EXCLUDED.title, draft_id = EXCLUDED.draft_id, updated_at = now()`,
      [video.url, video.videoId, video.title, video.draftId],
    )
  },

  /** The URL lists of Bot info, each distinct and oldest first, across every crawl and import. */
  async botInfoLists(db: Queryable): Promise<BotInfoLists> {
    const urlsWith = async (statuses: string[]) =>
      (
        await db.query<{ url: string }>(
          `SELECT url FROM crawl_pages WHERE status = ANY($1::text[]) GROUP BY url ORDER BY MIN(id)`,
          [statuses],
        )
      ).map((row) => row.url)
    const [visited_urls, excluded_links, errored_urls] = [await urlsWith(['imported', 'visited']), await urlsWith(['excluded']), await urlsWith(['failed'])]
    const tube = await db.query<{ url: string }>(`SELECT url FROM tube_videos ORDER BY created_at, url`)
    return { visited_urls, excluded_links, errored_urls, tube_urls: tube.map((row) => row.url) }
  },
}
