import type { ErrorBody } from '../../../contracts/common'

/** The toast (SEED.md §8) for a failed backend call: the backend's own message for a 4xx, else the fallback. */
export interface Failure {
  summary: 'Something went wrong'
  message: string
}

/**
 * SEED.md §8: the message comes from the server's error, else the fallback ('Cannot get templates', …). A 5xx
 * or an unreachable backend says nothing a person can act on, so those show the fallback.
 */
export function toFailure(error: unknown, fallback: string): Failure {
  // An ApiError (api.server.ts) by its shape: this module is also part of the browser bundle.
  const failed = (error as { status?: number; details?: ErrorBody } | null) ?? {}
  const message = typeof failed.status === 'number' && failed.status < 500 && failed.details?.message ? failed.details.message : fallback
  return { summary: 'Something went wrong', message }
}

/**
 * Backend field names (dotted: `sections.1.title`) as conform names (`sections[1].title`), optionally renamed
 * first (`organizations` → `organization`).
 */
export function toConformErrors(fieldErrors: Record<string, string[]>, rename: (field: string) => string = (field) => field): Record<string, string[]> {
  const errors: Record<string, string[]> = {}
  for (const [field, messages] of Object.entries(fieldErrors)) {
    const name = rename(field).replace(/\.(\d+)(?=\.|$)/g, '[$1]')
    ;(errors[name] ??= []).push(...messages)
  }
  return errors
}

/**
 * How a refused template save goes back to its form: field errors beside their fields (a taken name, a 409
 * without a field, goes beside the name); otherwise the toast's message for the whole form.
 */
export function templateFailureReply(error: { status: number; message: string; fieldErrors(): Record<string, string[]> }, fallback: string) {
  const fieldErrors = toConformErrors(error.fieldErrors())
  if (error.status === 409 && !Object.keys(fieldErrors).length) fieldErrors.name = [error.message]
  if (Object.keys(fieldErrors).length && error.status < 500) return { fieldErrors }
  const failure = toFailure(error, fallback)
  return { formErrors: [`${failure.summary}: ${failure.message}`] }
}
