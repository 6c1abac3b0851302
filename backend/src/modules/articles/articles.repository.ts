import type { Queryable } from '../../db/database'
import type { LazyTableQuery } from '../../../../contracts/articles'
import { ARTICLE_FILTER_COLUMNS, type ArticleFilters, type FilterConstraint } from '../../../../contracts/article-filters'
import { InvalidInputError } from '../../errors'

export interface ArticleRecord {
  id: number
  title: string
  content: string
  metadata: Record<string, unknown>
  createdAt: Date
  updatedAt: Date
}

interface ArticleDbRow {
  id: number
  title: string
  content: string
  metadata: Record<string, unknown>
  created_at: Date
  updated_at: Date
}

const toRecord = (row: ArticleDbRow): ArticleRecord => ({
  id: row.id,
  title: row.title,
  content: row.content,
  metadata: row.metadata,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
})

// Whitelisted column expressions: sort fields never reach SQL as text.
const SORT_COLUMNS: Record<LazyTableQuery['sortField'], string> = {
  id: 'id',
  index: 'id',
  title: 'lower(title)',
  timestamp: 'updated_at',
}

/** SQL for published articles and drafts (temporary articles). */
export const articlesRepository = {
  async insertDraft(db: Queryable, draft: { title: string; content: string; metadata: Record<string, unknown> }): Promise<number> {
    const [row] = await db.query<{ id: number }>(
      `INSERT INTO temp_articles (title, content, metadata) VALUES ($1, $2, $3::jsonb) RETURNING id`,
      [draft.title, draft.content, JSON.stringify(draft.metadata)],
    )
    return row.id
  },

  async listDrafts(db: Queryable, first: number, rows: number): Promise<{ rows: ArticleRecord[]; total: number }> {
    const found = await db.query<ArticleDbRow>(
      `SELECT id, title, '' AS content, metadata, created_at, updated_at FROM temp_articles ORDER BY id DESC LIMIT $1 OFFSET $2`,
      [rows, first],
    )
    const [count] = await db.query<{ total: number }>(`SELECT COUNT(*)::int AS total FROM temp_articles`)
    return { rows: found.map(toRecord), total: count.total }
  },

  async draftIds(db: Queryable): Promise<number[]> {
    const rows = await db.query<{ id: number }>(`SELECT id FROM temp_articles ORDER BY id`)
    return rows.map((row) => row.id)
  },

  async existingDraftIds(db: Queryable, ids: number[]): Promise<number[]> {
    const rows = await db.query<{ id: number }>(`SELECT id FROM temp_articles WHERE id = ANY($1::int[]) ORDER BY id`, [ids])
    return rows.map((row) => row.id)
  },

  async lockDraft(tx: Queryable, id: number): Promise<ArticleRecord | undefined> {
    const [row] = await tx.query<ArticleDbRow>(`SELECT * FROM temp_articles WHERE id = $1 FOR UPDATE`, [id])
    return row ? toRecord(row) : undefined
  },

  async findDraft(db: Queryable, id: number): Promise<ArticleRecord | undefined> {
    const [row] = await db.query<ArticleDbRow>(`SELECT * FROM temp_articles WHERE id = $1`, [id])
    return row ? toRecord(row) : undefined
  },

  async deleteDraft(tx: Queryable, id: number): Promise<boolean> {
    const rows = await tx.query(`DELETE FROM temp_articles WHERE id = $1 RETURNING id`, [id])
    return rows.length > 0
  },

  async insertArticle(tx: Queryable, article: { title: string; content: string; metadata: Record<string, unknown> }): Promise<number> {
    const [row] = await tx.query<{ id: number }>(
      `INSERT INTO articles (title, content, metadata) VALUES ($1, $2, $3::jsonb) RETURNING id`,
      [article.title, article.content, JSON.stringify(article.metadata)],
    )
    return row.id
  },

  async findArticle(db: Queryable, id: number): Promise<ArticleRecord | undefined> {
    const [row] = await db.query<ArticleDbRow>(`SELECT * FROM articles WHERE id = $1`, [id])
    return row ? toRecord(row) : undefined
  },

  /** An article's indexed passages (chunks) in order: what answers cite as a source's `metadata.id`. */
  async passagesOf(db: Queryable, articleId: number): Promise<{ id: number; ordinal: number; text: string }[]> {
    return db.query<{ id: number; ordinal: number; text: string }>(`SELECT id, ordinal, text FROM chunks WHERE article_id = $1 ORDER BY ordinal, id`, [articleId])
  },

  async listArticles(db: Queryable, query: LazyTableQuery): Promise<{ rows: ArticleRecord[]; total: number }> {
    const direction = query.sortOrder === -1 ? 'DESC' : 'ASC'
    const params: unknown[] = []
    const where = buildFilterSql(query.filters ?? {}, params)
    const found = await db.query<ArticleDbRow>(
      `SELECT id, title, '' AS content, metadata, created_at, updated_at FROM articles WHERE ${where}
        ORDER BY ${SORT_COLUMNS[query.sortField]} ${direction}, id ${direction} LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, query.rows, query.first],
    )
    const [count] = await db.query<{ total: number }>(`SELECT COUNT(*)::int AS total FROM articles WHERE ${where}`, params)
    return { rows: found.map(toRecord), total: count.total }
  },

  async updateArticle(tx: Queryable, id: number, changes: { title?: string; content?: string; metadata?: Record<string, unknown> }) {
    const [row] = await tx.query<ArticleDbRow>(
      `UPDATE articles SET title = COALESCE($2, title), content = COALESCE($3, content),
         metadata = CASE WHEN $4::jsonb IS NULL THEN metadata ELSE metadata || $4::jsonb END, updated_at = now()
       WHERE id = $1 RETURNING *`,
      [id, changes.title ?? null, changes.content ?? null, changes.metadata ? JSON.stringify(changes.metadata) : null],
    )
    return row ? toRecord(row) : undefined
  },

  async deleteArticle(tx: Queryable, id: number): Promise<boolean> {
    const rows = await tx.query(`DELETE FROM articles WHERE id = $1 RETURNING id`, [id])
    return rows.length > 0
  },

  async articleIdsByTitle(db: Queryable, title: string): Promise<number[]> {
    const rows = await db.query<{ id: number }>(`SELECT id FROM articles WHERE lower(title) = lower($1) ORDER BY id`, [title])
    return rows.map((row) => row.id)
  },

  /** SEED.md §4: sources pointing to a deleted article are marked is_deleted in every log. */
  async markSourcesDeleted(tx: Queryable, articleId: number): Promise<void> {
    await tx.query(
      `UPDATE query_logs SET source_list = (
          SELECT COALESCE(jsonb_agg(CASE WHEN (item->'metadata'->>'doc_id')::int = $1
                                         THEN jsonb_set(item, '{metadata,is_deleted}', 'true'::jsonb) ELSE item END ORDER BY position), '[]'::jsonb)
            FROM jsonb_array_elements(source_list) WITH ORDINALITY AS t (item, position))
        WHERE source_list @> $2::jsonb`,
      [articleId, JSON.stringify([{ metadata: { doc_id: articleId } }])],
    )
  },

  async updateDraft(db: Queryable, id: number, changes: { title?: string; content?: string; metadata?: Record<string, unknown> }) {
    const [row] = await db.query<ArticleDbRow>(
      `UPDATE temp_articles SET title = COALESCE($2, title), content = COALESCE($3, content),
         metadata = CASE WHEN $4::jsonb IS NULL THEN metadata ELSE metadata || $4::jsonb END, updated_at = now()
       WHERE id = $1 RETURNING *`,
      [id, changes.title ?? null, changes.content ?? null, changes.metadata ? JSON.stringify(changes.metadata) : null],
    )
    return row ? toRecord(row) : undefined
  },

  async deleteAllDrafts(db: Queryable): Promise<number> {
    const rows = await db.query(`DELETE FROM temp_articles RETURNING id`)
    return rows.length
  },

  async listTitles(db: Queryable): Promise<string[]> {
    const rows = await db.query<{ title: string }>(`SELECT title FROM articles ORDER BY id`)
    return rows.map((row) => row.title)
  },

  async countArticles(db: Queryable): Promise<number> {
    const [row] = await db.query<{ total: number }>(`SELECT COUNT(*)::int AS total FROM articles`)
    return row.total
  },
}

const FILTER_EXPRESSIONS: Record<keyof typeof ARTICLE_FILTER_COLUMNS, string> = {
  title: 'fold_text(title)',
  source: "fold_text(COALESCE(metadata->>'source', ''))",
  id: 'id',
  timestamp: 'updated_at',
}

/**
 * Turns the table's column filters into SQL over whitelisted expressions, values always as parameters.
 * Text compares case- and accent-insensitively; an empty value matches everything (SEED.md §5).
 */
function buildFilterSql(filters: ArticleFilters, params: unknown[]): string {
  const conditions: string[] = []
  for (const [column, filter] of Object.entries(filters) as [keyof typeof ARTICLE_FILTER_COLUMNS, NonNullable<ArticleFilters['title']>][]) {
    const constraints = 'constraints' in filter ? filter.constraints : [filter]
    const operator = 'constraints' in filter && filter.operator === 'or' ? ' OR ' : ' AND '
    const parts = constraints.flatMap((constraint) => {
      const sql = constraintSql(column, constraint, params)
      return sql ? [sql] : []
    })
    if (parts.length) conditions.push(`(${parts.join(operator)})`)
  }
  return conditions.length ? conditions.join(' AND ') : 'TRUE'
}

function constraintSql(column: keyof typeof ARTICLE_FILTER_COLUMNS, constraint: FilterConstraint, params: unknown[]): string | undefined {
  const kind = ARTICLE_FILTER_COLUMNS[column]
  const expression = FILTER_EXPRESSIONS[column]
  const value = constraint.value
  if (value === undefined || value === null || String(value).trim() === '') return undefined
  const field = `filters.${column}`
  const add = (parameter: unknown) => {
    params.push(parameter)
    return `$${params.length}`
  }
  if (kind === 'text') {
    const text = add(String(value))
    const folded = `fold_text(${text})`
    const like = (pattern: string) => `${expression} LIKE ${pattern} ESCAPE '\\'`
    const escaped = `replace(replace(replace(${folded}, '\\', '\\\\'), '%', '\\%'), '_', '\\_')`
    switch (constraint.matchMode) {
      case 'startsWith': return like(`${escaped} || '%'`)
      case 'contains': return like(`'%' || ${escaped} || '%'`)
      case 'notContains': return `NOT ${like(`'%' || ${escaped} || '%'`)}`
      case 'endsWith': return like(`'%' || ${escaped}`)
      case 'equals': return `${expression} = ${folded}`
      case 'notEquals': return `${expression} <> ${folded}`
    }
  }
  if (kind === 'numeric') {
    const number = Number(value)
    if (!Number.isFinite(number)) throw new InvalidInputError(field, `${column} filters take a number`)
    const operators: Record<string, string> = { equals: '=', notEquals: '<>', lt: '<', lte: '<=', gt: '>', gte: '>=' }
    const sqlOperator = operators[constraint.matchMode]
    if (sqlOperator) return `${expression} ${sqlOperator} ${add(number)}`
  }
  if (kind === 'date') {
    const date = new Date(String(value))
    if (Number.isNaN(date.getTime())) throw new InvalidInputError(field, `${column} filters take a date`)
    const day = add(date.toISOString().slice(0, 10))
    switch (constraint.matchMode) {
      case 'dateIs': return `(${expression} AT TIME ZONE 'UTC')::date = ${day}::date`
      case 'dateIsNot': return `(${expression} AT TIME ZONE 'UTC')::date <> ${day}::date`
      case 'dateBefore': return `(${expression} AT TIME ZONE 'UTC')::date < ${day}::date`
      case 'dateAfter': return `(${expression} AT TIME ZONE 'UTC')::date > ${day}::date`
    }
  }
  throw new InvalidInputError(field, `${constraint.matchMode} does not apply to the ${kind} column ${column}`)
}
