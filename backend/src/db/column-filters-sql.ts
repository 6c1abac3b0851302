import type { ColumnFilter, FilterConstraint } from '../../../contracts/article-filters'
import type { z } from 'zod'
import { InvalidInputError } from '../errors'

/** A filterable column: its kind and the whitelisted SQL expression it filters (text expressions already folded). */
export interface FilterColumnSql {
  kind: 'text' | 'numeric' | 'date'
  /** For text columns an expression through fold_text(), e.g. `fold_text(title)`. */
  expression: string
}

type ColumnFilterValue = z.infer<typeof ColumnFilter>

/**
 * Turns a table's column filters (PrimeReact's lazy-table shape) into SQL over whitelisted expressions, values
 * always as parameters appended to `params`. Text compares case- and accent-insensitively (fold_text, migration
 * 002); an empty value matches everything (SEED.md §5); dates compare calendar days in UTC.
 */
export function columnFiltersSql(filters: Record<string, ColumnFilterValue | undefined>, columns: Record<string, FilterColumnSql>, params: unknown[]): string {
  const conditions: string[] = []
  for (const [column, filter] of Object.entries(filters)) {
    if (!filter) continue
    const definition = columns[column]
    // The contracts' strict schemas refuse unknown columns first; this keeps a stray key from ever reaching SQL.
    if (!definition) throw new InvalidInputError(`filters.${column}`, `${column} cannot be filtered`)
    const constraints = 'constraints' in filter ? filter.constraints : [filter]
    const operator = 'constraints' in filter && filter.operator === 'or' ? ' OR ' : ' AND '
    const parts = constraints.flatMap((constraint) => {
      const sql = constraintSql(column, definition, constraint, params)
      return sql ? [sql] : []
    })
    if (parts.length) conditions.push(`(${parts.join(operator)})`)
  }
  return conditions.length ? conditions.join(' AND ') : 'TRUE'
}

/** Adds a parameter and answers its placeholder. */
export function addParameter(params: unknown[], value: unknown): string {
  params.push(value)
  return `$${params.length}`
}

/** A LIKE pattern that finds the folded text anywhere in a folded expression, with %, _ and \ taken literally. */
export function foldedContains(expression: string, placeholder: string): string {
  return `${expression} LIKE '%' || ${escapedFolded(placeholder)} || '%' ESCAPE '\\'`
}

const escapedFolded = (placeholder: string) => `replace(replace(replace(fold_text(${placeholder}), '\\', '\\\\'), '%', '\\%'), '_', '\\_')`

function constraintSql(column: string, { kind, expression }: FilterColumnSql, constraint: FilterConstraint, params: unknown[]): string | undefined {
  const value = constraint.value
  if (value === undefined || value === null || String(value).trim() === '') return undefined
  const field = `filters.${column}`
  if (kind === 'text') {
    const text = addParameter(params, String(value))
    const escaped = escapedFolded(text)
    const like = (pattern: string) => `${expression} LIKE ${pattern} ESCAPE '\\'`
    switch (constraint.matchMode) {
      case 'startsWith': return like(`${escaped} || '%'`)
      case 'contains': return like(`'%' || ${escaped} || '%'`)
      case 'notContains': return `NOT ${like(`'%' || ${escaped} || '%'`)}`
      case 'endsWith': return like(`'%' || ${escaped}`)
      case 'equals': return `${expression} = fold_text(${text})`
      case 'notEquals': return `${expression} <> fold_text(${text})`
    }
  }
  if (kind === 'numeric') {
    const number = Number(value)
    if (!Number.isFinite(number) || Math.abs(number) > 2_147_483_647) throw new InvalidInputError(field, `${column} filters take a number`)
    const operators: Record<string, string> = { equals: '=', notEquals: '<>', lt: '<', lte: '<=', gt: '>', gte: '>=' }
    const sqlOperator = operators[constraint.matchMode]
    if (sqlOperator) return `${expression} ${sqlOperator} ${addParameter(params, number)}`
  }
  if (kind === 'date') {
    const date = new Date(String(value))
    if (Number.isNaN(date.getTime()) || date.getUTCFullYear() < 1 || date.getUTCFullYear() > 9999) throw new InvalidInputError(field, `${column} filters take a date`)
    const day = addParameter(params, date.toISOString().slice(0, 10))
    const dayOf = `(${expression} AT TIME ZONE 'UTC')::date`
    switch (constraint.matchMode) {
      case 'dateIs': return `${dayOf} = ${day}::date`
      case 'dateIsNot': return `${dayOf} <> ${day}::date`
      case 'dateBefore': return `${dayOf} < ${day}::date`
      case 'dateAfter': return `${dayOf} > ${day}::date`
    }
  }
  throw new InvalidInputError(field, `${constraint.matchMode} does not apply to the ${kind} column ${column}`)
}
