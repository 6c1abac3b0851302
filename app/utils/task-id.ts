/**
 * Whether a value from an address can be a task id the backend gave (printable, no spaces, at most 200 characters).
 * Anything else (a NUL byte, control characters, a page of text) is no task of ours: it is answered as an unknown
 * task, without asking the backend.
 */
export function isTaskId(value: string | null | undefined): value is string {
  return typeof value === 'string' && /^[\x21-\x7e]{1,200}$/.test(value)
}
