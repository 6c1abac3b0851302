import type { LoaderFunctionArgs } from '@remix-run/node'
import { ApiError } from '~/models/api.server'
import { convertAnswerToDocx, DOCX_TYPE, getAnswer, getAnswerOfLog } from '~/models/ask.server'
import { answerDocumentMarkdown } from '~/utils/answer-document'
import { requireApiSession } from '~/utils/auth.server'
import { downloadErrorResponse, isScriptedDownload, reasonOf } from '~/utils/download-error.server'
import { redirectWithToast } from '~/utils/session.server'

const DOWNLOAD_FAILED = 'Cannot download File. Please try again later'
/** An answer the address does not name, or one of someone else's: the backend tells neither apart, nor does this. */
const ANSWER_NOT_FOUND = 'This answer does not exist, or it is not yours to download.'

/**
 * The answer of ?task=… (or ?log=… for a streamed answer, which has no task) as answer.docx, streamed from the backend
 * only when it really is a Word document (SEED.md §5). An answer that is not there (or not the asker's) is a 404, a
 * refusal a 403, each saying so; only a failure that may pass gets SEED's 'try again later' toast.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url)
  const taskId = url.searchParams.get('task') ?? ''
  const logParam = url.searchParams.get('log')
  const logId = logParam !== null && /^[1-9]\d{0,15}$/.test(logParam) ? Number(logParam) : undefined
  const back = logParam !== null ? `/ask?log=${encodeURIComponent(logParam)}` : `/ask?task=${encodeURIComponent(taskId)}`
  const fail = () =>
    isScriptedDownload(request)
      ? new Response(DOWNLOAD_FAILED, { status: 502, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' } })
      : redirectWithToast(request, back, { summary: 'Something went wrong', severity: 'error', message: DOWNLOAD_FAILED, life: 4000 })
  try {
    const api = await requireApiSession(request)
    if (logParam !== null ? logId === undefined : !taskId) return downloadErrorResponse(request, 404, ANSWER_NOT_FOUND)
    const answer = logId !== undefined ? await getAnswerOfLog(api, logId) : await getAnswer(api, taskId)
    if (!answer.success || !answer.result) return fail()
    const file = await convertAnswerToDocx(api, answerDocumentMarkdown(answer))
    if (!file.ok || !(file.headers.get('content-type') ?? '').startsWith(DOCX_TYPE)) return fail()
    return new Response(file.body, {
      headers: { 'Content-Type': DOCX_TYPE, 'Content-Disposition': 'attachment; filename="answer.docx"', 'Cache-Control': 'no-store' },
    })
  } catch (error) {
    if (error instanceof ApiError && (error.status === 404 || error.status === 400)) return downloadErrorResponse(request, 404, ANSWER_NOT_FOUND)
    if (error instanceof Response && error.status === 403) return downloadErrorResponse(request, 403, await reasonOf(error, 'You may not download this answer.'))
    if (error instanceof ApiError || error instanceof TypeError) return fail()
    throw error
  }
}
