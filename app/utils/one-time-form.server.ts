import { randomBytes } from 'node:crypto'
import { ONE_TIME_FIELD } from './one-time-form'
import { getSession, sessionStorage } from './session.server'

/**
 * A creating form whose answer shows a secret once (a new API key, an invitation code) is answered in place, not
 * redirected, so that the secret is in no address and no flash message. Reloading that answer posts the form again:
 * each such form carries a one-time token, and a token used once creates nothing more.
 *
 * Used tokens are kept here for a day, and the browser's session remembers its last few, so a reload after the web
 * server restarted is told too. A token being used is held while its creation runs, so a double post creates once.
 */

const KEPT_MS = 24 * 60 * 60 * 1000
const MAX_KEPT = 10_000
const TOKEN = /^[A-Za-z0-9_-]{16,64}$/

const used = new Map<string, number>()
const pending = new Set<string>()

/** A new token for a creating form, sent in its hidden field. */
export function newOneTimeToken(): string {
  return randomBytes(18).toString('base64url')
}

/** The token a posted form carries; null for a post without one (a client that does not send it creates as before). */
export function postedToken(formData: FormData): string | null {
  const value = formData.get(ONE_TIME_FIELD)
  return typeof value === 'string' && TOKEN.test(value) ? value : null
}

function forget(now: number) {
  for (const [token, at] of used) {
    if (now - at < KEPT_MS && used.size <= MAX_KEPT) break
    used.delete(token)
  }
}

/**
 * Holds a token for one creation: false when it was used already (here, or as the session remembers), or is being
 * used by another post right now. Call `release` when the creation failed, `done` once it succeeded.
 */
export function holdToken(token: string, rememberedBySession: readonly string[]): boolean {
  forget(Date.now())
  if (used.has(token) || pending.has(token) || rememberedBySession.includes(token)) return false
  pending.add(token)
  return true
}

export function releaseToken(token: string) {
  pending.delete(token)
}

/** Marks a token used; answers the session's new list of remembered tokens (its last few). */
export function tokenUsed(token: string, rememberedBySession: readonly string[]): string[] {
  pending.delete(token)
  used.set(token, Date.now())
  return [...rememberedBySession.filter((other) => other !== token), token].slice(-20)
}

/**
 * Runs a creation once per form: `repeated` when this form's token was used already, and nothing is created; else the
 * created value, with the header that makes the session remember the token. A form without a token creates each time.
 */
export async function createOnce<T>(
  request: Request,
  formData: FormData,
  create: () => Promise<T>,
): Promise<{ repeated: true } | { repeated: false; value: T; headers: Record<string, string> }> {
  const token = postedToken(formData)
  if (!token) return { repeated: false, value: await create(), headers: {} }
  const session = await getSession(request)
  const remembered = session.get('usedFormTokens') ?? []
  if (!holdToken(token, remembered)) return { repeated: true }
  let value: T
  try {
    value = await create()
  } catch (error) {
    releaseToken(token)
    throw error
  }
  session.set('usedFormTokens', tokenUsed(token, remembered))
  return { repeated: false, value, headers: { 'Set-Cookie': await sessionStorage().commitSession(session) } }
}
