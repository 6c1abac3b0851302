import { ArticleContent, ArticlesPage, Done, DraftCreated, DraftsPage, PublishProgress, ReadArticle, type ArticleInput, type DraftsTableQuery, type LazyTableQuery } from '../../contracts/articles'
import { callApi, type ApiSession } from './api.server'

export function listArticles(session: ApiSession, query: LazyTableQuery) {
  return callApi('/admin/get_articles', {
    session,
    query: { ...query, filters: query.filters ? JSON.stringify(query.filters) : undefined },
    schema: ArticlesPage,
  })
}

export function getArticle(session: ApiSession, id: number) {
  return callApi('/admin/get_content', { session, query: { id }, schema: ArticleContent })
}

/** A published article as a reader sees it (every signed-in role): its text, its source and its passages' places. */
export function readArticle(session: ApiSession, id: number) {
  return callApi(`/read_article/${id}`, { session, schema: ReadArticle })
}

export function createDraft(session: ApiSession, input: ArticleInput) {
  return callApi('/admin/inject_article', { session, method: 'POST', body: input, schema: DraftCreated })
}

export function listDrafts(session: ApiSession, query: DraftsTableQuery) {
  return callApi('/admin/get_temp_articles', {
    session,
    query: { ...query, filters: query.filters ? JSON.stringify(query.filters) : undefined },
    schema: DraftsPage,
  })
}

export function getDraft(session: ApiSession, id: number) {
  return callApi('/admin/get_temp_content', { session, query: { id }, schema: ArticleContent })
}

export function publishDrafts(session: ApiSession, ids?: number[]) {
  return callApi('/admin/do_embeddings', { session, method: 'POST', body: ids ? { ids } : {}, schema: PublishProgress })
}

export function getPublishProgress(session: ApiSession, taskId?: string) {
  return callApi('/admin/check_embeddings', { session, query: { task_id: taskId }, schema: PublishProgress })
}

/** Changes a published article's title and content; the backend re-indexes it at once. */
export function updateArticle(session: ApiSession, id: number, changes: { title: string; content: string }) {
  return callApi('/admin/update_doc', { session, method: 'PUT', body: { id, ...changes }, schema: ArticleContent })
}

/** Deletes a published article; its sources in the logs are marked deleted. */
export function deleteArticle(session: ApiSession, id: number) {
  return callApi('/admin/delete_article', { session, method: 'DELETE', body: { id }, schema: Done })
}

/** Deletes every published article with this title (case-insensitive); `count` says how many. */
export function deleteArticlesByTitle(session: ApiSession, title: string) {
  return callApi('/admin/delete_article_by_title', { session, method: 'DELETE', body: { title }, schema: Done })
}

export function updateDraft(session: ApiSession, id: number, changes: { title: string; content: string }) {
  return callApi('/admin/update_temp_doc', { session, method: 'PUT', body: { id, ...changes }, schema: ArticleContent })
}

export function deleteDraft(session: ApiSession, id: number) {
  return callApi('/admin/delete_temp_article', { session, method: 'DELETE', body: { id }, schema: Done })
}

export function deleteAllDrafts(session: ApiSession) {
  return callApi('/admin/delete_all_temp_articles', { session, method: 'DELETE', body: {}, schema: Done })
}

/** A question and its corrected answer (for example from a log) become a draft article. */
export function createDraftFromAnswer(session: ApiSession, input: { question: string; answer: string; logId?: number }) {
  return callApi('/admin/upload_recovery_answer', {
    session,
    method: 'POST',
    body: { question: input.question, answer: input.answer, log_id: input.logId },
    schema: DraftCreated,
  })
}
