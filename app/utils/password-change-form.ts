import { z } from 'zod'
import { Password, PasswordChange, PASSWORD_MIN_LENGTH } from '../../contracts/users'

/**
 * The "Change password" form of Your account: the field names are the backend's (POST /auth/password), so its field
 * errors land beside the same fields; the new password is checked with the backend's own rule (contracts/users.ts).
 */
export const PasswordChangeForm = z
  .object({
    current_password: z.string({ error: 'Please enter your current password' }).pipe(PasswordChange.shape.current_password),
    // The backend's own rule, said once (its first complaint) and as a sentence: "Password must be at least 8 …".
    new_password: z.string({ error: 'Please choose a new password' }).superRefine((value, context) => {
      const checked = Password.safeParse(value)
      if (!checked.success) context.addIssue({ code: 'custom', message: asSentence(checked.error.issues[0]?.message ?? 'This password is not accepted') })
    }),
    new_password_again: z.string({ error: 'Please type the new password again' }),
  })
  .refine((form) => form.new_password === form.new_password_again, { path: ['new_password_again'], message: 'The two new passwords differ' })
  // Changing to the same password would end the other sessions and change nothing.
  .refine((form) => form.new_password !== form.current_password, { path: ['new_password'], message: 'The new password is the current one: choose another' })

/** A message of the API ("password must …") as the form says it ("Password must …"). */
const asSentence = (message: string) => message.charAt(0).toUpperCase() + message.slice(1)

/** Every field of the form: all passwords, so none is ever sent back to the browser. */
export const PASSWORD_CHANGE_FIELDS = ['current_password', 'new_password', 'new_password_again']

export const NEW_PASSWORD_HINT = `At least ${PASSWORD_MIN_LENGTH} characters, not only letters or only digits.`

export const PASSWORD_CHANGED = 'Password changed. You stay signed in here; your other sessions have ended.'

/** Demo mode (AUTH_ENABLED=false): nobody signs in, so there is no account of one's own. */
export const NO_ACCOUNT_IN_DEMO = 'This is the demo without sign-in: everyone acts as the built-in administrator, so there is no account of your own and no password to change.'

export const PASSWORD_AT_PROVIDER = 'You sign in through your organisation’s sign-in provider (single sign-on), so your password is changed there, not here.'

const UNAVAILABLE = 'Your password could not be changed: the service did not answer. Please try again in a moment.'

/** A backend refusal, by the shape of ApiError (this module is also part of the browser bundle). */
interface Refusal {
  status: number
  message: string
  fieldErrors(): Record<string, string[]>
}

/**
 * How a refused change goes back to the form: the backend's reason beside the field it names (a wrong current
 * password, an account of the sign-in provider, a new password it does not take); anything else, such as too many
 * attempts (429), as a message for the whole form. A failure of the service says so in plain words, never its details.
 */
export function passwordChangeRefusal(error: Refusal): { fieldErrors?: Record<string, string[]>; formErrors?: string[] } {
  if (error.status >= 500) return { formErrors: [UNAVAILABLE] }
  const fieldErrors = Object.fromEntries(
    Object.entries(error.fieldErrors())
      .filter(([field]) => PASSWORD_CHANGE_FIELDS.includes(field))
      .map(([field, messages]) => [field, messages.map(asSentence)]),
  )
  if (Object.keys(fieldErrors).length) return { fieldErrors }
  return { formErrors: [error.message] }
}
