import { ErrorBody } from '../../contracts/common'
import { IngestLimits, IngestProgress, UPLOAD_FIELDS, YoutubeImported, type CrawlBody } from '../../contracts/ingest'
import { ApiError, callApi, type ApiSession } from './api.server'
import { BackendFormData, backendBlob, backendFetch } from './backend-fetch.server'
import { clientAddressHeader } from '~/utils/client-address.server'
import { getEnv } from '~/utils/env.server'

export function getIngestLimits(session: ApiSession) {
  return callApi('/admin/ingest_limits', { session, schema: IngestLimits })
}

export function getIngestProgress(session: ApiSession, taskId: string) {
  return callApi(`/admin/ingest_jobs/${encodeURIComponent(taskId)}`, { session, schema: IngestProgress })
}

/** Stops a running crawl (POST /admin/ingest_jobs/{task_id}/stop): 409 when it has ended, or for an upload. */
export function stopCrawl(session: ApiSession, taskId: string) {
  return callApi(`/admin/ingest_jobs/${encodeURIComponent(taskId)}/stop`, { session, method: 'POST', body: {}, schema: IngestProgress })
}

export function startCrawl(session: ApiSession, input: CrawlBody) {
  return callApi('/admin/crawl', { session, method: 'POST', body: input, schema: IngestProgress })
}

export function importYoutubeVideo(session: ApiSession, url: string) {
  return callApi('/admin/inject_youtube', { session, method: 'POST', body: { url }, schema: YoutubeImported })
}

/** Forwards uploaded files to the backend as multipart/form-data (callApi speaks JSON only). */
export async function uploadFiles(session: ApiSession, files: File[], csvColumns: { title?: string; content?: string } = {}) {
  const form = new BackendFormData()
  if (csvColumns.title) form.append(UPLOAD_FIELDS.csvTitleColumn, csvColumns.title)
  if (csvColumns.content) form.append(UPLOAD_FIELDS.csvContentColumn, csvColumns.content)
  for (const file of files) form.append('files', await backendBlob(file), file.name)
  const response = await sendRaw(session, '/admin/upload_recovery', { method: 'POST', body: form })
  const parsed = IngestProgress.safeParse(await response.json().catch(() => null))
  if (!parsed.success) throw new ApiError(502, { success: false, error: 'Bad Gateway', message: 'The backend’s answer to the upload did not match its contract' })
  return parsed.data
}

/** The original of an uploaded file, streamed from the backend as it answered (content type, name, body). */
export async function fetchOriginal(session: ApiSession, s3Key: string): Promise<Response> {
  return sendRaw(session, `/download?${new URLSearchParams({ s3_key: s3Key })}`, { method: 'GET' })
}

/** A backend call whose body is not JSON, with the API key and the user's token; a refused token is renewed once. */
async function sendRaw(session: ApiSession, path: string, init: { method: 'GET' | 'POST'; body?: BackendFormData }, isRetry = false): Promise<Response> {
  const env = getEnv()
  let response: Response
  try {
    response = await backendFetch(new URL(path, env.API_BASE_URL), {
      method: init.method,
      headers: { apikey: env.API_KEY, ...clientAddressHeader(), authorization: `Bearer ${session.token}` },
      body: init.body,
      signal: AbortSignal.timeout(env.API_TIMEOUT_MS),
    })
  } catch (error) {
    throw new ApiError(503, { success: false, error: 'Service Unavailable', message: `The backend could not be reached (${(error as Error).message})` })
  }
  if (response.status === 401 && session.renew && !isRetry) return sendRaw({ token: await session.renew() }, path, init, true)
  if (!response.ok) {
    const parsed = ErrorBody.safeParse(await response.json().catch(() => null))
    throw new ApiError(response.status, parsed.success ? parsed.data : { success: false, error: response.statusText || 'Error', message: `The backend answered ${response.status}` })
  }
  return response
}
