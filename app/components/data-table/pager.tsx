import { Link } from '@remix-run/react'
import * as styles from './data-table.css'
import { lastPageFirst } from './table-url'

interface PagerProps {
  /** Accessible name, e.g. 'Articles pages'. */
  label: string
  first: number
  rows: number
  total: number
  hrefFor: (first: number) => string
}

/** First / previous / next / last links over `first` and `rows` in the URL, with the range shown. */
export function Pager({ label, first, rows, total, hrefFor }: PagerProps) {
  const lastFirst = lastPageFirst(total, rows)
  const page = Math.floor(first / rows) + 1
  const pages = Math.max(1, Math.ceil(total / rows))
  const hasPrevious = first > 0
  const hasNext = first + rows < total
  return (
    <nav className={styles.pager} aria-label={label}>
      {hasPrevious ? (
        <>
          <Link to={hrefFor(0)} preventScrollReset>
            First
          </Link>
          <Link to={hrefFor(Math.max(0, first - rows))} rel="prev" preventScrollReset>
            Previous
          </Link>
        </>
      ) : null}
      <span>
        {total === 0 ? 0 : first + 1}–{Math.min(first + rows, total)} of {total} (page {page} of {pages})
      </span>
      {hasNext ? (
        <>
          <Link to={hrefFor(first + rows)} rel="next" preventScrollReset>
            Next
          </Link>
          <Link to={hrefFor(lastFirst)} preventScrollReset>
            Last
          </Link>
        </>
      ) : null}
    </nav>
  )
}
