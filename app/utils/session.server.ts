import { createCookie, createCookieSessionStorage, redirect, type SessionStorage } from '@remix-run/node'
import { getEnv, isCookieSecure } from './env.server'
import { latestOf } from './sign-in-renewals.server'

export interface Toast {
  summary: string
  message: string
  severity: 'success' | 'info' | 'warn' | 'error'
  /** Milliseconds the toast stays with scripts on (SEED.md: 2000, 4000 for downloads). */
  life: number
}

/** Who is signed in (AUTH_ENABLED=true), kept in the signed cookie; see auth.server.ts. */
export interface AuthSession {
  kind: 'oidc' | 'local'
  /** The bearer token for the backend: the provider's ID token, or the backend's own token for a local account. */
  token: string
  /** When the token expires, in milliseconds since the epoch. */
  expiresAt: number
  /** The provider's refresh token (single sign-on only). */
  refreshToken?: string
  user: { username: string; role: 'admin' | 'editor' | 'user' }
}

interface SessionData {
  auth: AuthSession
  /** Where to go after the single sign-on round trip (a path, never a full URL). */
  returnTo: string
  showBotInfoSection: boolean
  /** The way to ask the user chose on Ask (else TARGET decides). */
  askMode: 'expert' | 'agent'
  agentTaskGeneral: { taskId: string; command?: string }
  agentTaskGovernment: { taskId: string; command?: string }
  /** The one-time tokens of the creating forms this browser used last (one-time-form.server.ts). */
  usedFormTokens: string[]
}
interface FlashData {
  toast: Toast
}

/** How long the session cookie lives when it carries no sign-in (flash toasts, remembered choices, demo mode). */
const SESSION_COOKIE_MAX_AGE_SECONDS = 60 * 60 * 24 * 30

/**
 * Seconds the session cookie may live: while it carries a sign-in, no longer than the token in it (renewing the
 * token writes the cookie again, with the new token's lifetime); otherwise 30 days.
 */
export function sessionCookieMaxAge(auth: Pick<AuthSession, 'expiresAt'> | undefined, now = Date.now()): number {
  if (!auth) return SESSION_COOKIE_MAX_AGE_SECONDS
  return Math.min(SESSION_COOKIE_MAX_AGE_SECONDS, Math.max(0, Math.floor((auth.expiresAt - now) / 1000)))
}

let storage: SessionStorage<SessionData, FlashData> | undefined

/**
 * The signed, httpOnly, SameSite=Lax cookie that carries the sign-in (see auth.server.ts), flash toasts and remembered
 * choices. Every commit sets its lifetime from what it carries (sessionCookieMaxAge): a cookie never outlives its token.
 */
export function sessionStorage(): SessionStorage<SessionData, FlashData> {
  if (!storage) {
    const env = getEnv()
    const cookieStorage = createCookieSessionStorage<SessionData, FlashData>({
      cookie: {
        name: '__session',
        httpOnly: true,
        sameSite: 'lax',
        path: '/',
        secure: isCookieSecure(env),
        secrets: [env.SESSION_SECRET],
        maxAge: SESSION_COOKIE_MAX_AGE_SECONDS,
      },
    })
    storage = {
      ...cookieStorage,
      async commitSession(session, options) {
        // A response that raced a renewal (loaders run in parallel) writes the renewed token, not the one it replaced:
        // with the cookie as short-lived as its token, the replaced one would end the session a minute later.
        const stored = session.get('auth')
        const latest = stored ? await latestOf(stored) : undefined
        if (latest && latest !== stored) session.set('auth', latest)
        return cookieStorage.commitSession(session, { ...options, maxAge: sessionCookieMaxAge(latest) })
      },
    }
  }
  return storage
}

/** The name of the cookie that says this browser signed in (signedInCookie). */
export const SIGNED_IN_COOKIE = 'kb_signed_in'

let signedIn: ReturnType<typeof createCookie> | undefined

/**
 * Set at sign-in beside the session and outliving it (30 days), cleared at sign-out: a request that comes without a
 * sign-in but with this one had a session that expired with its token, and is told so on the sign-in page. It holds
 * nothing but `true`: forging it only brings that message.
 */
export function signedInCookie() {
  signedIn ??= createCookie(SIGNED_IN_COOKIE, {
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    secure: isCookieSecure(getEnv()),
    maxAge: SESSION_COOKIE_MAX_AGE_SECONDS,
  })
  return signedIn
}

/** Whether this browser signed in here and has not signed out since (signedInCookie). */
export async function hasSignedInBefore(request: Request): Promise<boolean> {
  return (await signedInCookie().parse(request.headers.get('Cookie'))) === true
}

/** The Set-Cookie that forgets signedInCookie. */
export function forgetSignedIn(): Promise<string> {
  return signedInCookie().serialize('', { maxAge: 0 })
}

export async function getSession(request: Request) {
  return sessionStorage().getSession(request.headers.get('Cookie'))
}

/** Redirects and shows a toast on the next page (server-rendered, so it works with scripts off). */
export async function redirectWithToast(request: Request, url: string, toast: Partial<Toast> & Pick<Toast, 'message'>) {
  const session = await getSession(request)
  session.flash('toast', { summary: 'All Ok', severity: 'success', life: 2000, ...toast })
  return redirect(url, { headers: { 'Set-Cookie': await sessionStorage().commitSession(session) } })
}

/**
 * Reads (and so clears) the pending toast; the caller must send the returned Set-Cookie header when there is one.
 * Only a toast taken writes the cookie: every page's root loader calls this, and a loader still running from before
 * an action (a revalidation the browser has moved on from) would otherwise write back the cookie it read, without
 * the toast that action has just set, and the toast would never show.
 */
export async function takeToast(request: Request): Promise<{ toast: Toast | null; setCookie?: string }> {
  const session = await getSession(request)
  const toast = session.get('toast') ?? null
  return toast ? { toast, setCookie: await sessionStorage().commitSession(session) } : { toast }
}
