import { parseWithZod } from '@conform-to/zod/v4'
import { z } from 'zod'
import type { $ZodIssue } from 'zod/v4/core'
import { Registration } from '../../../contracts/users'

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

/** The labels of the user forms' fields, by field name, as the form shows them. */
export type FieldLabels = Record<string, string>

/** The labels the Add user and Edit user forms share; each adds its own password label. */
export const PERSON_LABELS: FieldLabels = { username: 'Username', email: 'Email', firstName: 'First name', lastName: 'Last name', cellphone: 'Cellphone' }

/**
 * A message of the API, which starts with its field's name ("cellphone may contain …"), in the form's words
 * ("Cellphone may contain …"): the person sees the label, never the name the API uses. Other messages stay as they are.
 */
export function inFormWords(message: string, field: string, labels: FieldLabels): string {
  const label = labels[field]
  return label && message.startsWith(`${field} `) ? `${label}${message.slice(field.length)}` : message
}

/** The backend's field errors, as conform names them, in the form's words. */
export function fieldErrorsInFormWords(fieldErrors: Record<string, string[]>, labels: FieldLabels): Record<string, string[]> {
  return Object.fromEntries(Object.entries(fieldErrors).map(([field, messages]) => [field, messages.map((message) => inFormWords(message, field, labels))]))
}

/** Parses a user form the same way in the browser and on the server, its messages in the form's words. */
export function parseUserForm<Schema extends z.ZodType>(formData: FormData, schema: Schema, labels: FieldLabels) {
  return parseWithZod(formData, {
    schema,
    formatError: (issues: $ZodIssue[]) => issues.map((issue) => inFormWords(issue.message, String(issue.path[0] ?? ''), labels)),
  })
}
