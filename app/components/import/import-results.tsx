import { Link } from '@remix-run/react'
import type { CrawlPageResult, KnowledgeMatch } from '../../../contracts/ingest'
import { describeFileResult, type FileOnScreen } from './file-results'
import * as styles from './import-results.css'

/** A link to the draft or published article an import matched, named as the screen names drafts: draft #12 “Frost dates”. */
export function KnowledgeLink({ match }: { match: KnowledgeMatch }) {
  const to = match.kind === 'draft' ? `/articles/drafts/${match.id}` : `/articles/${match.id}`
  return (
    <Link to={to} className={styles.breaks}>
      {match.kind} #{match.id} “{match.title}”
    </Link>
  )
}

/** The drafts an import made, each a link to its page. */
export function DraftLinks({ ids }: { ids: number[] }) {
  if (ids.length === 0) return <>—</>
  return (
    <>
      {ids.map((id, index) => (
        <span key={id}>
          {index > 0 ? ', ' : null}
          <Link to={`/articles/drafts/${id}`}>#{id}</Link>
        </span>
      ))}
    </>
  )
}

/**
 * The result cell of an uploaded file: what came of it and, for its documents already in the knowledge base, the draft
 * or article each is the same as: after the result for a file of one document, listed by row for a CSV.
 */
export function FileResult({ file }: { file: FileOnScreen }) {
  const result = describeFileResult(file)
  const [only] = file.duplicates
  if (file.duplicate_count === 1 && only.row === null) {
    return (
      <>
        {result}: <KnowledgeLink match={only.duplicate_of} />
      </>
    )
  }
  const unlisted = file.duplicate_count - file.duplicates.length
  return (
    <>
      {result}
      {file.duplicates.length ? (
        <ul className={styles.matches} aria-label={`Rows of ${file.file_name} already in the knowledge base`}>
          {file.duplicates.map((duplicate, index) => (
            <li key={`${duplicate.row ?? 0}-${index}`}>
              {duplicate.row === null ? null : `Row ${duplicate.row}: `}
              <KnowledgeLink match={duplicate.duplicate_of} />
            </li>
          ))}
          {unlisted > 0 ? <li>and {unlisted} more</li> : null}
        </ul>
      ) : null}
    </>
  )
}

const PAGE_STATUS: Record<CrawlPageResult['status'], string> = {
  pending: 'Waiting',
  imported: 'Imported',
  visited: 'Visited, no draft',
  failed: 'Failed',
  excluded: 'Excluded',
  skipped: 'Not reached',
}

/**
 * The result cell of a crawled page: its status, with its draft when it made one, or the draft or article it is the
 * same as. (Not in the note, the last cell: a link there would pin it to the table's edge as a row's action.)
 */
export function PageResult({ page }: { page: CrawlPageResult }) {
  if (page.duplicate_of) {
    return (
      <>
        Already in the knowledge base: <KnowledgeLink match={page.duplicate_of} />
      </>
    )
  }
  return (
    <>
      {PAGE_STATUS[page.status]}
      {page.draft_id ? (
        <>
          {' ('}
          <Link to={`/articles/drafts/${page.draft_id}`}>draft #{page.draft_id}</Link>
          {')'}
        </>
      ) : null}
    </>
  )
}

/** The note cell of a crawled page: where it redirects, or why it made no draft (said in its result when it is already in the knowledge base). */
export function PageNote({ page }: { page: CrawlPageResult }) {
  if (page.duplicate_of) return null
  // Addresses in a note break anywhere, so that on a phone the table fits the window.
  return <span className={styles.breaks}>{page.redirected_to ? `Redirects to ${page.redirected_to}` : (page.reason ?? '')}</span>
}
