import { Form, Link } from '@remix-run/react'
import type { ReactNode } from 'react'
import { Button } from '~/components/ui/button'
import * as styles from './data-table.css'
import { DateInput } from './date-input'
import { MATCH_MODE_LABELS, MATCH_MODES, modeParamOf, type ColumnFilterValue, type FilterColumn } from './table-url'

interface ColumnFiltersProps {
  /** The form's id: the table's sort headers submit it (SortHeader's `form`). */
  id: string
  /** Accessible name of the form, e.g. 'Filter articles'. */
  label: string
  action: string
  columns: readonly FilterColumn[]
  values: Record<string, ColumnFilterValue>
  /** Parameters kept when filtering (sort, page size); the page itself starts again at the first row. */
  keep: Record<string, string | number>
  clearHref: string
  errors?: Record<string, string | undefined>
  /** Fields of the same form shown before the columns (e.g. the logs' status, search and date range). */
  children?: ReactNode
  /** How many of those fields are set, counted with the columns in the summary. */
  extraActiveCount?: number
}

const INPUT_TYPES = { text: 'search', numeric: 'number' } as const

/**
 * A GET form with a match-mode select and a value input per column: the filters go into the URL, so they work with
 * scripts off; with scripts on Remix submits the same form without a reload. The table's sort headers are buttons of
 * this form too, so sorting applies what is typed here.
 */
export function ColumnFilters({ id, label, action, columns, values, keep, clearHref, errors = {}, children, extraActiveCount = 0 }: ColumnFiltersProps) {
  const activeCount = columns.filter((column) => values[column.field]?.value).length + extraActiveCount
  const hasErrors = Object.values(errors).some(Boolean)
  return (
    // On a narrow screen the filters fold away under their summary, open while any is set; on a wide one they show.
    <details className={styles.filtersFold} open={activeCount > 0 || hasErrors || undefined}>
      <summary className={styles.filtersSummary}>
        {label}
        {activeCount ? ` (${activeCount} set)` : ''}
      </summary>
      <Form id={id} method="get" action={action} aria-label={label} preventScrollReset>
        {Object.entries(keep).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <fieldset className={styles.filters}>
          <legend className={styles.filterLegend}>{label}</legend>
          {children}
          {columns.map((column) => {
            const value = values[column.field]
            const inputId = `filter-${column.field}`
            const error = errors[column.field]
            return (
              <div key={column.field} className={styles.filterColumn}>
                <label htmlFor={inputId} className={styles.filterLabel}>
                  {column.label}
                </label>
                <select name={modeParamOf(column.field)} defaultValue={value?.matchMode} aria-label={`${column.label} match mode`} className={styles.control}>
                  {MATCH_MODES[column.kind].map((mode) => (
                    <option key={mode} value={mode}>
                      {MATCH_MODE_LABELS[mode]}
                    </option>
                  ))}
                </select>
                {column.kind === 'date' ? (
                  <DateInput
                    id={inputId}
                    name={column.field}
                    label={column.label}
                    defaultValue={value?.value}
                    isInvalid={Boolean(error)}
                    describedBy={error ? `${inputId}-error` : undefined}
                  />
                ) : (
                  <input
                    id={inputId}
                    name={column.field}
                    type={INPUT_TYPES[column.kind]}
                    defaultValue={value?.value}
                    step={column.kind === 'numeric' ? 1 : undefined}
                    className={styles.control}
                    aria-invalid={error ? true : undefined}
                    aria-describedby={error ? `${inputId}-error` : undefined}
                  />
                )}
                {error ? (
                  <span id={`${inputId}-error`} role="alert">
                    {error}
                  </span>
                ) : null}
              </div>
            )
          })}
          <div className={styles.filterActions}>
            <Button variant="secondary">Filter</Button>
            <Link to={clearHref} preventScrollReset>
              Clear filters
            </Link>
          </div>
        </fieldset>
      </Form>
    </details>
  )
}
