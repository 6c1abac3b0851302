import { z } from 'zod'

export const TEXT_MATCH_MODES = ['startsWith', 'contains', 'notContains', 'endsWith', 'equals', 'notEquals'] as const
export const NUMERIC_MATCH_MODES = ['equals', 'notEquals', 'lt', 'lte', 'gt', 'gte'] as const
export const DATE_MATCH_MODES = ['dateIs', 'dateIsNot', 'dateBefore', 'dateAfter'] as const

export const FilterConstraint = z.object({
  value: z.union([z.string(), z.number(), z.null()]).optional(),
  matchMode: z.enum([...new Set([...TEXT_MATCH_MODES, ...NUMERIC_MATCH_MODES, ...DATE_MATCH_MODES])] as [string, ...string[]]),
})
export type FilterConstraint = z.infer<typeof FilterConstraint>

/** A column filter: one constraint, or several joined by an operator (PrimeReact's lazy-table shape). */
export const ColumnFilter = z.union([
  FilterConstraint,
  z.object({ operator: z.enum(['and', 'or']).default('and'), constraints: z.array(FilterConstraint).max(10) }),
])

/** Filterable columns of the articles table and the kind of each. */
export const ARTICLE_FILTER_COLUMNS = { title: 'text', source: 'text', id: 'numeric', timestamp: 'date' } as const

export const ArticleFilters = z
  .object({
    title: ColumnFilter,
    source: ColumnFilter,
    id: ColumnFilter,
    timestamp: ColumnFilter,
  })
  .partial()
  .strict()
export type ArticleFilters = z.infer<typeof ArticleFilters>

/** `filters` arrives as a JSON string in the query, checked against a table's filters schema. */
export const filtersParamOf = <Schema extends z.ZodType>(schema: Schema) =>
  z
    .string()
    .max(4000)
    .transform((text, context) => {
      try {
        return JSON.parse(text) as unknown
      } catch {
        context.addIssue({ code: 'custom', message: 'filters must be JSON' })
        return z.NEVER
      }
    })
    .pipe(schema)

export const FiltersParam = filtersParamOf(ArticleFilters)
