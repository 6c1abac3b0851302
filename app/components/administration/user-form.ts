import { parseWithZod } from '@conform-to/zod/v4'
import { z } from 'zod'
import { Registration } from '../../../contracts/users'
import { formatErrorInFormWords, type FieldLabels } from '~/utils/form-words'

/** A text the form may send blank (conform sends nothing for blank), checked with the backend's own rule. */
export const requiredText = (message: string, rule: z.ZodType<string, string>) => z.string({ error: message }).pipe(rule)
const optionalText = (rule: z.ZodType<string, string>) => z.string().pipe(rule).default('')

/** The person's fields of Add user and Edit user, each checked with the backend's own rule (contracts/users.ts). */
export const PersonFields = {
  username: requiredText('Please enter a username', Registration.shape.username),
  email: requiredText('Please enter an email address', Registration.shape.email),
  firstName: optionalText(z.string().trim().max(100, 'firstName is at most 100 characters')),
  lastName: optionalText(z.string().trim().max(100, 'lastName is at most 100 characters')),
  cellphone: optionalText(Registration.shape.cellphone.unwrap()),
}

/** The labels the Add user and Edit user forms share; each adds its own password label. */
export const PERSON_LABELS: FieldLabels = { username: 'Username', email: 'Email', firstName: 'First name', lastName: 'Last name', cellphone: 'Cellphone' }

/** Parses a user form the same way in the browser and on the server, its messages in the form's words. */
export function parseUserForm<Schema extends z.ZodType>(formData: FormData, schema: Schema, labels: FieldLabels) {
  return parseWithZod(formData, {
    schema,
    formatError: formatErrorInFormWords(labels),
  })
}
