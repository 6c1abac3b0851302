import { json } from '@remix-run/node'
import { z } from 'zod'
import { Password } from '../../../contracts/users'
import { toFailure } from '~/components/settings/form-errors'
import { createPasswordLink, passwordLinkUrl, setUserEnabled, setUserPassword } from '~/models/administration.server'
import { ApiError, type ApiSession } from '~/models/api.server'
import { inFormWords, inSentences } from '~/utils/form-words'
import { redirectWithToast } from '~/utils/session.server'
import type { AccountActionData, AccountIntent } from './account-actions'

const NewPassword = z.string({ error: 'Please enter the new password' }).pipe(Password)

/** Runs one of the account forms of a user's page: a redirect with a toast, or the answer shown beside the form. */
export async function accountAction(request: Request, session: ApiSession, id: number, formData: FormData): Promise<Response> {
  const intent = formData.get('intent') as AccountIntent
  const here = new URL(request.url)
  const reply = (account: AccountActionData['account'], status = 200) => json({ account } satisfies AccountActionData, { status })
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
        const link = await createPasswordLink(session, id)
        return reply({ intent, resetLink: { url: passwordLinkUrl(request, link.code), expiresAt: link.expires_at } })
      }
    }
  } catch (error) {
    if (!(error instanceof ApiError) || error.status >= 500) throw error
    return reply({ intent, error: toFailure(error, 'Cannot update the user').message }, error.status)
  }
}
