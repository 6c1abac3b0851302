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
