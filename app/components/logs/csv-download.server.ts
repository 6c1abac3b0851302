import { ApiError } from '~/models/api.server'
import { CSV_EXPORTS, fetchCsvExport, type CsvExport } from '~/models/query-logs.server'
import { requireApiSession } from '~/utils/auth.server'
import { downloadErrorResponse, isScriptedDownload, reasonOf } from '~/utils/download-error.server'
import { redirectWithToast } from '~/utils/session.server'
import { isCsvContentType } from './csv-content-type'
import { errorToast, jsonWithToast, safeRedirectPath } from './respond.server'
import { readFormData } from '~/utils/form.server'

/** SEED.md §5 and §8. */
export const CSV_DOWNLOAD_FAILED = 'Cannot download CSV. Please try again later'
/** SEED.md §9: download toasts live 4000 ms. */
export const DOWNLOAD_TOAST_LIFE = 4000
/**
 * The loader of a CSV resource route: streams the backend's file on when it is text/csv. A role that may not download
 * it gets a 403 with the reason (the Not allowed page, or plain text for scripts). Any other failure sends a plain link
 * (scripts off) back to `redirectTo` with the error toast; a scripted download gets a 502 and reports the outcome itself.
 */
export async function downloadCsv(request: Request, name: CsvExport): Promise<Response> {
  const url = new URL(request.url)
  const back = safeRedirectPath(url.searchParams.get('redirectTo'), '/logs')
  const isScripted = isScriptedDownload(request)
  let file: Response | null = null
  try {
    file = await fetchCsvExport(await requireApiSession(request), name)
  } catch (error) {
    // Refused by the web server (the role, before the backend is asked) or by the backend.
    if (error instanceof Response && error.status === 403) return downloadErrorResponse(request, 403, await reasonOf(error, 'Your role does not open this download.'))
    if (!(error instanceof ApiError)) throw error
  }
  if (file && !(file.ok && isCsvContentType(file.headers.get('content-type')))) {
    await file.body?.cancel().catch(() => undefined)
    file = null
  }
  if (!file) {
    if (isScripted) return new Response(CSV_DOWNLOAD_FAILED, { status: 502, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' } })
    return redirectWithToast(request, back, errorToast(CSV_DOWNLOAD_FAILED, DOWNLOAD_TOAST_LIFE))
  }
  return new Response(file.body, {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${CSV_EXPORTS[name].filename}"`,
      'Cache-Control': 'no-store',
    },
  })
}

/**
 * The action of a CSV resource route: a scripted download posts its outcome here, so the toast is a flash message like
 * every other one. A download with scripts off cannot carry a flash (the browser stays on the page and never reads
 * the response's cookie into a new page), so that case has no success toast; its failure redirects with the error toast.
 */
export async function reportCsvDownload(request: Request, successMessage: string): Promise<Response> {
  const outcome = (await readFormData(request)).get('outcome')
  if (outcome === 'downloaded') return jsonWithToast(request, { outcome }, { summary: 'All OK', message: successMessage, life: DOWNLOAD_TOAST_LIFE })
  return jsonWithToast(request, { outcome: 'failed' }, errorToast(CSV_DOWNLOAD_FAILED, DOWNLOAD_TOAST_LIFE))
}
