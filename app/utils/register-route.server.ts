import { parseWithZod } from '@conform-to/zod/v4'
import { json } from '@remix-run/node'
import { toConformErrors, toFailure } from '~/components/settings/form-errors'
import { ApiError } from '~/models/api.server'
import { getRegistrationInfo, registerUser } from '~/models/users.server'
import { assertSameOrigin, signInWithPassword } from './auth.server'
import { getEnv } from './env.server'
import { readFormData } from './form.server'
import { fieldErrorsInFormWords, formatErrorInFormWords, inFormWords } from './form-words'
import { invitationFromQuery, REGISTER_LABELS, REGISTRATION_CLOSED, registerSchema } from './register-form'
import { redirectWithToast } from './session.server'

/**
 * The registration page's data: the backend's policy (closed, open into one organisation, or by invitation), and the
 * invitation code its address carries, if any, to fill in the field.
 */
export async function loadRegisterScreen(request: Request) {
  const invitation = invitationFromQuery(new URL(request.url).searchParams)
  try {
    return json({ registration: await getRegistrationInfo(), invitation, failure: null })
  } catch (error) {
    if (!(error instanceof ApiError)) throw error
    return json(
      { registration: null, invitation, failure: toFailure(error, 'Cannot tell whether registration is open') },
      { status: error.status >= 500 ? 502 : error.status },
    )
  }
}

const HIDE_FIELDS = ['password', 'password_again']

/**
 * Registers a person under the backend's policy: refused (403) while it is closed, with the invitation code when
 * it asks for one. The backend chooses the organisation; the backend's refusals land beside their fields.
 */
export async function actRegister(request: Request) {
  assertSameOrigin(request)
  const formData = await readFormData(request)
  const { policy } = await getRegistrationInfo()
  const submission = parseWithZod(formData, { schema: registerSchema(policy), formatError: formatErrorInFormWords(REGISTER_LABELS) })
  if (policy === 'off') return json({ result: submission.reply({ formErrors: [REGISTRATION_CLOSED], hideFields: HIDE_FIELDS }) }, { status: 403 })
  if (submission.status !== 'success') return json({ result: submission.reply({ hideFields: HIDE_FIELDS }) }, { status: 400 })
  const { password_again: _again, ...person } = submission.value
  try {
    await registerUser(person)
  } catch (error) {
    if (error instanceof ApiError && error.status < 500) {
      const fieldErrors = fieldErrorsInFormWords(toConformErrors(error.fieldErrors()), REGISTER_LABELS)
      const formErrors = Object.keys(fieldErrors).length ? [] : [inFormWords(error.message, REGISTER_LABELS)]
      return json({ result: submission.reply({ hideFields: HIDE_FIELDS, fieldErrors, formErrors }) }, { status: error.status })
    }
    throw error
  }
  return afterRegistering(request, person)
}

const REGISTERED = { summary: 'Success', message: 'User registered', severity: 'success', life: 2000 } as const

/**
 * Where a new account goes next: signed in straight away and on to Ask when sign-in is on and the new password
 * works; to the sign-in page, with the username filled in, when it does not (for example an account that must be
 * approved first). Without sign-in (the loopback demo) nobody signs in: the form is shown empty for the next person.
 */
async function afterRegistering(request: Request, person: { username: string; password: string }) {
  if (!getEnv().AUTH_ENABLED) return redirectWithToast(request, '/register', REGISTERED)
  const signedIn = await signInWithPassword(request, { username: person.username, password: person.password, redirectTo: '/ask', toast: REGISTERED })
  if (signedIn.ok) return signedIn.response
  return redirectWithToast(request, `/login?${new URLSearchParams({ username: person.username })}`, {
    ...REGISTERED,
    message: 'User registered. Please sign in.',
  })
}
