import { json } from '@remix-run/node'
import { getSession, redirectWithToast, sessionStorage, type Toast } from '~/utils/session.server'

type ToastInput = Partial<Toast> & Pick<Toast, 'message'>

/** The toast of a failed call: SEED.md §8's summary, severity and the catalogue message. */
export const errorToast = (message: string, life = 2000): ToastInput => ({ summary: 'Something went wrong', severity: 'error', message, life })

/** Answers JSON and flashes a toast; the root loader shows it when Remix revalidates after the fetcher's submission. */
export async function jsonWithToast<Data>(request: Request, data: Data, toast: ToastInput, init: { status?: number } = {}) {
  const session = await getSession(request)
  session.flash('toast', { summary: 'All Ok', severity: 'success', life: 2000, ...toast })
  return json(data, { status: init.status, headers: { 'Set-Cookie': await sessionStorage().commitSession(session) } })
}

/**
 * The end of a mutation: with scripts on (the form carried `enhanced`, see EnhancedField) JSON for the fetcher, so the
 * page updates in place; with scripts off post/redirect/get back to the page. Either way the toast is a flash message.
 */
export async function respondWithToast<Data>(request: Request, options: { isEnhanced: boolean; redirectTo: string; data: Data; toast: ToastInput }) {
  if (!options.isEnhanced) return redirectWithToast(request, options.redirectTo, options.toast)
  return jsonWithToast(request, options.data, options.toast)
}

/** A local path to go back to (never another site), or the fallback. */
export function safeRedirectPath(value: FormDataEntryValue | string | null | undefined, fallback: string): string {
  if (typeof value !== 'string' || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return fallback
  return value
}
