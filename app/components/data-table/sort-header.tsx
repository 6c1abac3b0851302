import * as styles from './data-table.css'
import { sortValueOf } from './table-url'

export interface Sort {
  field: string
  order: 1 | -1
}

/**
 * A column header that sorts: ascending first, then descending. It is a submit button of the table's filter form
 * (`form`, the id of its ColumnFilters) named `sort`, so what is typed in the filters, applied or not, goes with the
 * sort, with scripts on or off; the loader turns `sort` into sortField and sortOrder (`withAskedSort`). `aria-sort`
 * says the current order.
 */
export function SortHeader({ label, field, sort, form }: { label: string; field: string; sort: Sort; form: string }) {
  const isSorted = sort.field === field
  const next: Sort = { field, order: isSorted && sort.order === 1 ? -1 : 1 }
  return (
    <th scope="col" aria-sort={isSorted ? (sort.order === 1 ? 'ascending' : 'descending') : undefined}>
      <button type="submit" form={form} name="sort" value={sortValueOf(next)} className={styles.sortButton}>
        {label}
        {isSorted ? <span aria-hidden="true">{sort.order === 1 ? ' ▲' : ' ▼'}</span> : null}
      </button>
    </th>
  )
}
