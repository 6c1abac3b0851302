import { z } from 'zod'
import { Password, Registration, type RegistrationPolicy } from '../../contracts/users'

/** A field conform sends as missing when blank, checked with the backend's own rule (contracts/users.ts). */
const required = (message: string, rule: z.ZodType<string, string>) => z.string({ error: message }).pipe(rule)

const Person = z.object({
  username: required('Please enter a username', Registration.shape.username),
  email: required('Please enter an email address', Registration.shape.email),
  firstName: required('Please enter your first name', Registration.shape.firstName),
  lastName: required('Please enter your last name', Registration.shape.lastName),
  cellphone: z.string().pipe(Registration.shape.cellphone.unwrap()).default(''),
  password: required('Please choose a password', Password),
  password_again: z.string({ error: 'Please type the password again' }),
})

const samePasswords = <T extends { password: string; password_again: string }>(form: T) => form.password === form.password_again
const differ = { path: ['password_again'], message: 'The two passwords differ' }

/**
 * The registration form for a policy: the person, and with `invite` the invitation code. Never an organisation: the
 * backend puts an outsider where its policy says.
 */
export function registerSchema(policy: RegistrationPolicy) {
  if (policy === 'invite') {
    return Person.extend({ invitation: required('Please enter your invitation code', Registration.shape.invitation.unwrap()) }).refine(samePasswords, differ)
  }
  return Person.refine(samePasswords, differ)
}

/** The registration form's labels, by field: its messages name fields as the form does ("Email is not …"). */
export const REGISTER_LABELS = {
  username: 'Username',
  email: 'Email',
  firstName: 'First name',
  lastName: 'Last name',
  cellphone: 'Cellphone',
  password: 'Password',
  invitation: 'Invitation code',
}

/**
 * The invitation code a link to the registration page carries (`/register?invitation=…`, as the invitations screen
 * hands it out), to fill in its field; '' when there is none or it could not be a code.
 */
export function invitationFromQuery(search: URLSearchParams): string {
  const parsed = Registration.shape.invitation.unwrap().safeParse(search.get('invitation') ?? '')
  return parsed.success ? parsed.data : ''
}

/** What the registration page says when registration is closed. */
export const REGISTRATION_CLOSED = 'Registration is closed: ask an administrator for an account.'
