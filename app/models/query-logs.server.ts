import { FavoriteSaved, FavoritesAnswer, LogChanged, QueryLogAnswer, QueryLogsPage, type LogFilters, type QueryLog } from '../../contracts/query-logs'
import { SuccessBody } from '../../contracts/common'
import { ApiError, callApi, callApiForFile, type ApiSession } from './api.server'

/** What the logs table asks for beside the page: search (`q`), date range (YYYY-MM-DD days), column filters and sort. */
export interface LogsTableQuery {
  q?: string
  from?: string
  to?: string
  filters?: LogFilters
  sortField?: 'id' | 'timestamp'
  sortOrder?: 1 | -1
}

export function listQueryLogs(session: ApiSession, options: { limit?: number; lastId?: number; status?: string } & LogsTableQuery) {
  return callApi('/query_logs', {
    session,
    query: {
      limit: options.limit,
      last_id: options.lastId,
      status: options.status,
      q: options.q || undefined,
      from: options.from,
      to: options.to,
      filters: options.filters && Object.keys(options.filters).length ? JSON.stringify(options.filters) : undefined,
      sortField: options.sortField,
      sortOrder: options.sortOrder,
    },
    schema: QueryLogsPage,
  })
}

/** One log by id; an ApiError (404) when it does not exist or is not the caller's to see. */
export async function getQueryLog(session: ApiSession, logId: number): Promise<QueryLog> {
  const answer = await callApi('/query_logs/query_log', { session, query: { log_id: logId }, schema: QueryLogAnswer })
  const [log] = answer.result
  if (!log) throw new ApiError(404, { success: false, error: 'Not Found', message: `No query log ${logId}` })
  return log
}

/** Adds or replaces the log's main comment; the backend says which ('Comment added' or 'Comment updated'). */
export function setMainComment(session: ApiSession, logId: number, comment: string) {
  return callApi('/query_logs/comment', { session, method: 'PUT', body: { log_id: logId, comment }, schema: LogChanged })
}

export function deleteMainComment(session: ApiSession, logId: number) {
  return callApi('/query_logs/comment', { session, method: 'DELETE', query: { log_id: logId }, schema: LogChanged })
}

/** Adds an entry to the log's user comment list. */
export function addComment(session: ApiSession, logId: number, comment: string) {
  return callApi('/query_logs/comments', { session, method: 'POST', body: { log_id: logId, comment }, schema: LogChanged })
}

export function updateComment(session: ApiSession, commentId: number, comment: string) {
  return callApi('/query_logs/comments', { session, method: 'PUT', body: { id: commentId, comment }, schema: LogChanged })
}

export function deleteComment(session: ApiSession, commentId: number) {
  return callApi('/query_logs/comments', { session, method: 'DELETE', query: { id: commentId }, schema: LogChanged })
}

export async function listFavorites(session: ApiSession) {
  return (await callApi('/query_logs/query_favorites', { session, schema: FavoritesAnswer })).result
}

/** Saves a log as a favourite, or (with `id`) changes the comment of an existing one. */
export function saveFavorite(session: ApiSession, favorite: { logId: number; comment: string; id?: number }) {
  return callApi('/query_logs/add_query_favorite', {
    session,
    method: 'POST',
    body: { log_id: favorite.logId, comment: favorite.comment, id: favorite.id },
    schema: FavoriteSaved,
  })
}

export function deleteFavorite(session: ApiSession, id: number) {
  return callApi('/query_logs/delete_query_favorite', { session, method: 'DELETE', query: { id }, schema: SuccessBody })
}

/** The two CSV exports of the logs, by the name the web app uses for them. */
export const CSV_EXPORTS = {
  'query-logs': { path: '/query_logs/query_log_csv', filename: 'query_logs.csv' },
  dataset: { path: '/admin/query_log_ds_csv', filename: 'query_logs_dataset.csv' },
} as const
export type CsvExport = keyof typeof CSV_EXPORTS

/** The backend's answer to a CSV export, as it is (the resource route checks it is text/csv); null when unreachable. */
export function fetchCsvExport(session: ApiSession, name: CsvExport): Promise<Response | null> {
  return callApiForFile(CSV_EXPORTS[name].path, { session }).catch(() => null)
}
