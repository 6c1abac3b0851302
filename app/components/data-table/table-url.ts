import { DATE_MATCH_MODES, NUMERIC_MATCH_MODES, TEXT_MATCH_MODES } from '../../../contracts/article-filters'

/** The kinds of column filter and their match modes (SEED.md §5: text 6, numeric 6, date 4). */
export const MATCH_MODES = { text: TEXT_MATCH_MODES, numeric: NUMERIC_MATCH_MODES, date: DATE_MATCH_MODES } as const
export type FilterKind = keyof typeof MATCH_MODES

export const MATCH_MODE_LABELS: Record<string, string> = {
  startsWith: 'Starts with',
  contains: 'Contains',
  notContains: 'Not contains',
  endsWith: 'Ends with',
  equals: 'Equals',
  notEquals: 'Not equals',
  lt: 'Less than',
  lte: 'Less than or equal to',
  gt: 'Greater than',
  gte: 'Greater than or equal to',
  dateIs: 'Date is',
  dateIsNot: 'Date is not',
  dateBefore: 'Date is before',
  dateAfter: 'Date is after',
}

/** The match mode a column starts with (PrimeReact's defaults: text starts with, numeric and date equal). */
export const DEFAULT_MATCH_MODE: Record<FilterKind, string> = { text: 'startsWith', numeric: 'equals', date: 'dateIs' }

export interface FilterColumn {
  field: string
  label: string
  kind: FilterKind
}

export interface ColumnFilterValue {
  matchMode: string
  value: string
}

/**
 * How a column filter lives in the URL: `?<field>=<value>&<field>_mode=<matchMode>`. A GET form of one select and one
 * input per column writes exactly these, so filtering works with scripts off and every filtered view has an address.
 */
export const modeParamOf = (field: string) => `${field}_mode`

/** Every column's filter as the URL has it: an unknown match mode falls back to the column's default. */
export function readColumnFilters(search: URLSearchParams, columns: readonly FilterColumn[]): Record<string, ColumnFilterValue> {
  return Object.fromEntries(
    columns.map((column) => {
      const modes: readonly string[] = MATCH_MODES[column.kind]
      const mode = search.get(modeParamOf(column.field)) ?? ''
      return [column.field, { matchMode: modes.includes(mode) ? mode : DEFAULT_MATCH_MODE[column.kind], value: (search.get(column.field) ?? '').trim() }]
    }),
  )
}

/** Only the filters with a value (SEED.md §5: an empty value matches everything, so it is not sent at all). */
export function activeFilters(filters: Record<string, ColumnFilterValue>): Record<string, ColumnFilterValue> {
  return Object.fromEntries(Object.entries(filters).filter(([, filter]) => filter.value !== ''))
}

/** An integer search parameter within bounds, or the fallback when it is missing or malformed. */
export function readInteger(search: URLSearchParams, name: string, fallback: number, { min = 0, max = 2_147_483_647 } = {}): number {
  const raw = search.get(name)
  if (raw === null || raw.trim() === '') return fallback
  const value = Number(raw)
  return Number.isInteger(value) && value >= min && value <= max ? value : fallback
}

/** The address of this page with some search parameters changed (null or '' removes one). */
export function hrefWith(pathname: string, search: URLSearchParams | string, changes: Record<string, string | number | null | undefined>): string {
  const params = new URLSearchParams(search)
  params.delete('index')
  for (const [key, value] of Object.entries(changes)) {
    if (value === null || value === undefined || value === '') params.delete(key)
    else params.set(key, String(value))
  }
  const query = params.toString()
  return query ? `${pathname}?${query}` : pathname
}

/** The `first` of a table's last page: its last row's page of `rows`, 0 for an empty table. */
export const lastPageFirst = (total: number, rows: number) => (total === 0 ? 0 : Math.floor((total - 1) / rows) * rows)

/**
 * The address of the table's last page when `first` is past its end (a bookmark, or a page-2 link kept while rows
 * were published or deleted), else null. The loader redirects to it, so the address, the rows and the pager agree;
 * the first page drops `first` altogether, the one form of its address.
 */
export function pastTheEndHref(url: URL, { first, rows, total }: { first: number; rows: number; total: number }): string | null {
  if (first === 0 || first < total) return null
  return hrefWith(url.pathname, url.searchParams, { first: lastPageFirst(total, rows) || null })
}

/** What a sort header sends as `sort`: the column and the order, e.g. `title:-1`. */
export const sortValueOf = (sort: { field: string; order: 1 | -1 }) => `${sort.field}:${sort.order}`

/**
 * The table's parameters once a sort header was pressed: its `sort=<field>:<1|-1>` (sent with the filter form, so the
 * filters being typed come along) becomes sortField and sortOrder, and the table starts again at its first row; a
 * malformed one is dropped. Null when no header was pressed. The route redirects to the result, so every address of
 * the table keeps the one form of its sort; which fields may be sorted on is still the route's to check.
 */
export function withAskedSort(search: URLSearchParams): URLSearchParams | null {
  const asked = search.get('sort')
  if (asked === null) return null
  const params = new URLSearchParams(search)
  params.delete('sort')
  params.delete('index')
  const match = /^([A-Za-z_]{1,64}):(1|-1)$/.exec(asked)
  if (match) {
    params.set('sortField', match[1])
    params.set('sortOrder', match[2])
    params.delete('first')
  }
  return params
}

/** The address a table's loader redirects to once a sort header was pressed (`withAskedSort`), or null. */
export function askedSortHref(url: URL): string | null {
  const params = withAskedSort(url.searchParams)
  if (!params) return null
  const query = params.toString()
  return query ? `${url.pathname}?${query}` : url.pathname
}

/**
 * SEED.md §2's date format mm/dd/yy is the PrimeReact calendar's pattern, in which `yy` is the four-digit year: the
 * filters show 11/26/2026 and accept 11/26/26 too (a two-digit year is in 2000–2099), and the ISO 2026-11-26 that
 * older links carry. Answers the ISO calendar day, or null for anything else (including 02/30/2026).
 */
export function parseFilterDate(text: string): string | null {
  const trimmed = text.trim()
  let year: number, month: number, day: number
  const us = /^(\d{1,2})\/(\d{1,2})\/(\d{2}|\d{4})$/.exec(trimmed)
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(trimmed)
  if (us) {
    month = Number(us[1])
    day = Number(us[2])
    year = us[3].length === 2 ? 2000 + Number(us[3]) : Number(us[3])
  } else if (iso) {
    year = Number(iso[1])
    month = Number(iso[2])
    day = Number(iso[3])
  } else return null
  const date = new Date(Date.UTC(year, month - 1, day))
  if (year < 1 || date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`
}

/** An ISO calendar day (YYYY-MM-DD) as the filters show it: mm/dd/yyyy, whatever the browser's locale. */
export function formatFilterDate(isoDay: string): string {
  const [year, month, day] = isoDay.split('-')
  return `${month}/${day}/${year}`
}

/** A date filter's value for display: a valid date in mm/dd/yyyy, anything else as typed (so its error makes sense). */
export const displayFilterDate = (value: string) => {
  const day = value ? parseFilterDate(value) : null
  return day ? formatFilterDate(day) : value
}

/**
 * The URL's filters as a backend filters object (`{ column: { matchMode, value } }`): numbers as integers, dates as ISO
 * days; values the backend would refuse are reported beside their input instead.
 */
export function toBackendFilters(values: Record<string, ColumnFilterValue>, columns: readonly FilterColumn[]) {
  const filters: Record<string, { matchMode: string; value: string | number }> = {}
  const errors: Record<string, string> = {}
  for (const [field, filter] of Object.entries(activeFilters(values))) {
    const kind = columns.find((column) => column.field === field)?.kind
    if (kind === 'numeric') {
      const number = Number(filter.value)
      if (!Number.isInteger(number) || Math.abs(number) > 2_147_483_647) errors[field] = 'Enter a whole number'
      else filters[field] = { matchMode: filter.matchMode, value: number }
    } else if (kind === 'date') {
      const day = parseFilterDate(filter.value)
      if (!day) errors[field] = 'Enter a date as mm/dd/yyyy'
      else filters[field] = { matchMode: filter.matchMode, value: day }
    } else if (kind === 'text') {
      filters[field] = { matchMode: filter.matchMode, value: filter.value.slice(0, 500) }
    }
  }
  return { filters, errors }
}
