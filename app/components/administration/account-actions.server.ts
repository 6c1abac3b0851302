import { json } from '@remix-run/node'
import { z } from 'zod'
import { Password } from '../../../contracts/users'
import { toFailure } from '~/components/settings/form-errors'
import { createPasswordLink, passwordLinkUrl, setUserEnabled, setUserPassword } from '~/models/administration.server'
import { ApiError, type ApiSession } from '~/models/api.server'
import { inFormWords, inSentences } from '~/utils/form-words'
import { createOnce } from '~/utils/one-time-form.server'
import { redirectWithToast } from '~/utils/session.server'
import type { AccountActionData, AccountIntent } from './account-actions'

const NewPassword = z.string({ error: 'Please enter the new password' }).pipe(Password)

/** Said when the reset link form is posted again (a reload of the answer that showed the link): no link is made. */
export const REPEATED_RESET_LINK =
  'This reset link was already created; it was shown once. If you did not copy it, create another: only the newest link works.'

/** Runs one of the account forms of a user's page: a redirect with a toast, or the answer shown beside the form. */
export async function accountAction(request: Request, session: ApiSession, id: number, formData: FormData): Promise<Response> {
  const intent = formData.get('intent') as AccountIntent
  const here = new URL(request.url)
  const reply = (account: AccountActionData['account'], status = 200, headers: Record<string, string> = {}) =>
    json({ account } satisfies AccountActionData, { status, headers })
  try {
    switch (intent) {
      case 'disable':
      case 'enable': {
        const done = await setUserEnabled(session, id, intent === 'enable')
        return redirectWithToast(request, `${here.pathname}${here.search}`, { summary: 'All Ok', message: done.message })
      }
      case 'set-password': {
        const password = NewPassword.safeParse(formData.get('password') ?? undefined)
        if (!password.success) return reply({ intent, error: inSentences(password.error.issues.map((issue) => inFormWords(issue.message, { password: 'Password' }))) }, 400)
        const done = await setUserPassword(session, id, password.data)
        return redirectWithToast(request, `${here.pathname}${here.search}`, { summary: 'All Ok', message: done.message })
      }
      case 'reset-link': {
        // Answered in place, so a reload posts the form again: its one-time token makes that create nothing, which
        // matters more here than for a key, as a newer link would silently stop the one shown (and sent) working.
        const answer = await createOnce(request, formData, () => createPasswordLink(session, id))
        if (answer.repeated) return reply({ intent, error: REPEATED_RESET_LINK }, 409)
        const link = answer.value
        return reply({ intent, resetLink: { url: passwordLinkUrl(request, link.code), expiresAt: link.expires_at } }, 200, answer.headers)
      }
    }
  } catch (error) {
    if (!(error instanceof ApiError) || error.status >= 500) throw error
    return reply({ intent, error: toFailure(error, 'Cannot update the user').message }, error.status)
  }
}
