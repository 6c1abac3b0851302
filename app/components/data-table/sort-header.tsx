import { Link } from '@remix-run/react'
import * as styles from './data-table.css'

export interface Sort {
  field: string
  order: 1 | -1
}

/**
 * A column header that sorts by its link: ascending first, then descending. `aria-sort` says the current order, so
 * the state is read out and works as a plain link with scripts off.
 */
export function SortHeader({ label, field, sort, hrefFor }: { label: string; field: string; sort: Sort; hrefFor: (sort: Sort) => string }) {
  const isSorted = sort.field === field
  const next: Sort = { field, order: isSorted && sort.order === 1 ? -1 : 1 }
  return (
    <th scope="col" aria-sort={isSorted ? (sort.order === 1 ? 'ascending' : 'descending') : undefined}>
      <Link to={hrefFor(next)} className={styles.sortLink} preventScrollReset>
        {label}
        {isSorted ? <span aria-hidden="true">{sort.order === 1 ? ' ▲' : ' ▼'}</span> : null}
      </Link>
    </th>
  )
}
