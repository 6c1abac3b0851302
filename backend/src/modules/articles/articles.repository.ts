import type { Queryable } from '../../db/database'
import type { DraftsTableQuery, LazyTableQuery } from '../../../../contracts/articles'
import { ARTICLE_FILTER_COLUMNS, type ArticleFilters } from '../../../../contracts/article-filters'
import { columnFiltersSql, type FilterColumnSql } from '../../db/column-filters-sql'

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

  /** Drafts in the table's order (newest first unless asked otherwise), filtered like the articles. */
  async listDrafts(db: Queryable, query: DraftsTableQuery): Promise<{ rows: ArticleRecord[]; total: number }> {
    const direction = query.sortOrder === 1 ? 'ASC' : 'DESC'
    const params: unknown[] = []
    const where = buildFilterSql(query.filters ?? {}, params)
    const found = await db.query<ArticleDbRow>(
      `SELECT id, title, '' AS content, metadata, created_at, updated_at FROM temp_articles WHERE ${where}
        ORDER BY ${SORT_COLUMNS[query.sortField]} ${direction}, id ${direction} LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, query.rows, query.first],
    )
    const [count] = await db.query<{ total: number }>(`SELECT COUNT(*)::int AS total FROM temp_articles WHERE ${where}`, params)
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

// Whitelisted column expressions of the articles' and drafts' filters (contracts/article-filters.ts).
const FILTER_COLUMNS: Record<keyof typeof ARTICLE_FILTER_COLUMNS, FilterColumnSql> = {
  title: { kind: ARTICLE_FILTER_COLUMNS.title, expression: 'fold_text(title)' },
  source: { kind: ARTICLE_FILTER_COLUMNS.source, expression: "fold_text(COALESCE(metadata->>'source', ''))" },
  id: { kind: ARTICLE_FILTER_COLUMNS.id, expression: 'id' },
  timestamp: { kind: ARTICLE_FILTER_COLUMNS.timestamp, expression: 'updated_at' },
}

/** The table's column filters as SQL (text folded for case and accents; an empty value matches everything). */
const buildFilterSql = (filters: ArticleFilters, params: unknown[]) => columnFiltersSql(filters, FILTER_COLUMNS, params)
