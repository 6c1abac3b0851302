import { z } from 'zod'
import { Id } from './common'
import { FiltersParam } from './article-filters'
import { EmbeddingsProgress } from './embeddings'

export const PAGE_SIZE_ARTICLES = 30

export const ArticleMetadata = z.record(z.string(), z.unknown())

/** PostgreSQL text cannot hold NUL: refused here, beside its field, rather than as a malformed value of the request. */
const NO_NUL = /^[^\u0000]*$/
const ArticleTitle = z.string().trim().min(1, 'title is required').max(500, 'title is at most 500 characters').regex(NO_NUL, 'title cannot contain NUL')
const ArticleText = z.string().trim().min(1, 'content is required').regex(NO_NUL, 'content cannot contain NUL')

/** Body of POST /admin/inject_article: a new draft (temporary article). */
export const ArticleInput = z.object({
  title: ArticleTitle,
  content: ArticleText,
  metadata: ArticleMetadata.optional(),
})
export type ArticleInput = z.infer<typeof ArticleInput>

export const SortField = z.enum(['id', 'index', 'title', 'timestamp'])

/** SEED.md lazy table parameters: first, rows (30), sortField (id), sortOrder (1). */
export const LazyTableQuery = z.object({
  first: z.coerce.number().int().min(0).max(2_147_483_647).default(0),
  rows: z.coerce.number().int().min(1).max(500).default(PAGE_SIZE_ARTICLES),
  sortField: SortField.default('id'),
  sortOrder: z.coerce.number().int().refine((value) => value === 1 || value === -1, 'sortOrder is 1 or -1').default(1),
  filters: FiltersParam.optional(),
})
export type LazyTableQuery = z.infer<typeof LazyTableQuery>

/** A published article as SEED.md's row of values: [index, title, metadata, id, timestamp]. */
export const ArticleRow = z.tuple([z.number().int(), z.string(), ArticleMetadata, z.number().int(), z.string()])
export type ArticleRow = z.infer<typeof ArticleRow>

export const ArticlesPage = z.object({
  success: z.literal(true),
  rows: z.array(ArticleRow),
  total_count: z.number().int(),
})
export type ArticlesPage = z.infer<typeof ArticlesPage>

export const ArticleIdQuery = z.object({ id: Id('id') })

export const ArticleContent = z.object({
  success: z.literal(true),
  id: z.number().int(),
  title: z.string(),
  content: z.string(),
  metadata: ArticleMetadata,
  timestamp: z.string(),
})
export type ArticleContent = z.infer<typeof ArticleContent>

export const Draft = z.object({
  id: z.number().int(),
  title: z.string(),
  metadata: ArticleMetadata,
  timestamp: z.string(),
})
export type Draft = z.infer<typeof Draft>

/**
 * Query of GET /admin/get_temp_articles: the lazy table parameters, with the articles' filters. Drafts are a review
 * queue, so without a sortOrder the newest come first.
 */
export const DraftsQuery = z.object({
  first: z.coerce.number().int().min(0).max(2_147_483_647).default(0),
  rows: z.coerce.number().int().min(1).max(500).default(PAGE_SIZE_ARTICLES),
  sortField: SortField.default('id'),
  sortOrder: z.coerce.number().int().refine((value) => value === 1 || value === -1, 'sortOrder is 1 or -1').default(-1),
  filters: FiltersParam.optional(),
})
export type DraftsTableQuery = z.infer<typeof DraftsQuery>

export const DraftsPage = z.object({
  success: z.literal(true),
  rows: z.array(Draft),
  total_count: z.number().int(),
})
export type DraftsPage = z.infer<typeof DraftsPage>

export const DraftCreated = z.object({ success: z.literal(true), message: z.string(), id: z.number().int() })

/** Body of POST /admin/do_embeddings: the drafts to publish, all of them when ids is absent. */
export const PublishBody = z.object({
  ids: z.array(Id('ids')).min(1, 'ids, when given, lists at least one draft').optional(),
})

export const JobStatus = z.enum(['queued', 'running', 'finished', 'failed', 'cancelled'])
export type JobStatus = z.infer<typeof JobStatus>

export const PublishProgress = z.object({
  success: z.boolean(),
  task_id: z.string().nullable(),
  status: z.union([JobStatus, z.literal('idle')]),
  progress: z.number().int(),
  total: z.number().int(),
  published: z.array(z.object({ draft_id: z.number().int(), article_id: z.number().int(), title: z.string() })),
  failed: z.array(z.object({ draft_id: z.number().int(), title: z.string(), error: z.string() })),
  message: z.string(),
  /** The passages' vectors, embedded after publishing (absent from older backends). */
  embeddings: EmbeddingsProgress.optional(),
})
export type PublishProgress = z.infer<typeof PublishProgress>

export const CheckEmbeddingsQuery = z.object({ task_id: z.string().min(1).optional() })

/** Body of PUT /admin/update_doc: what changes in a published article (re-indexed at once). */
export const ArticleUpdate = z.object({
  id: Id('id'),
  title: ArticleTitle.optional(),
  content: ArticleText.optional(),
  metadata: ArticleMetadata.optional(),
})
export type ArticleUpdate = z.infer<typeof ArticleUpdate>

export const ArticleIdBody = z.object({ id: Id('id') })
export const ArticleTitleBody = z.object({ title: z.string().trim().min(1, 'title is required').max(500) })

export const Done = z.object({ success: z.literal(true), message: z.string(), count: z.number().int().optional() })

/** Body of POST /admin/upload_recovery_answer: a corrected answer becomes a draft article. */
export const RecoveryAnswerBody = z.object({
  question: z.string().trim().min(1, 'question is required').max(500, 'question is at most 500 characters'),
  answer: z.string().trim().min(1, 'answer is required'),
  log_id: Id('log_id').optional(),
})

/** Path of GET /read_article/{id}: a published article's id. */
export const ReadArticleParams = z.object({ id: Id('id') })

/** Where a published article came from, as far as its metadata says: an upload, a crawled page, a video, or written here. */
export const ArticleSourceKind = z.enum(['article', 'web_page', 'file', 'video'])
export type ArticleSourceKind = z.infer<typeof ArticleSourceKind>

/**
 * A passage (chunk) of the article as answers cite it: `metadata.id` of an answer's source. `start` and `end` are the
 * passage's character offsets in `content` (end exclusive); both null when the passage could not be placed in it.
 */
export const ArticlePassage = z.object({
  id: z.number().int(),
  ordinal: z.number().int(),
  start: z.number().int().nullable(),
  end: z.number().int().nullable(),
})
export type ArticlePassage = z.infer<typeof ArticlePassage>

/**
 * Answer of GET /read_article/{id}: a published article as every signed-in role reads it. `content` is the
 * article's Markdown with line ends as "\n"; `source` says where it came from (`url` only for http(s) addresses,
 * `name` a file's name or a page's address); `passages` are its chunks in order.
 */
export const ReadArticle = z.object({
  success: z.literal(true),
  id: z.number().int(),
  title: z.string(),
  content: z.string(),
  timestamp: z.string(),
  source: z.object({ kind: ArticleSourceKind, name: z.string().nullable(), url: z.string().nullable() }),
  passages: z.array(ArticlePassage),
})
export type ReadArticle = z.infer<typeof ReadArticle>
