import { createCookieSessionStorage, redirect } from '@remix-run/node'
import { getEnv, isCookieSecure } from './env.server'

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

let storage: ReturnType<typeof createCookieSessionStorage<SessionData, FlashData>> | undefined

/** The signed, httpOnly, SameSite=Lax cookie that carries flash toasts and remembered choices. */
export function sessionStorage() {
  if (!storage) {
    const env = getEnv()
    storage = createCookieSessionStorage<SessionData, FlashData>({
      cookie: {
        name: '__session',
        httpOnly: true,
        sameSite: 'lax',
        path: '/',
        secure: isCookieSecure(env),
        secrets: [env.SESSION_SECRET],
        maxAge: 60 * 60 * 24 * 30,
      },
    })
  }
  return storage
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

/** Reads (and so clears) the pending toast; the caller must send the returned Set-Cookie header. */
export async function takeToast(request: Request): Promise<{ toast: Toast | null; setCookie: string }> {
  const session = await getSession(request)
  const toast = session.get('toast') ?? null
  return { toast, setCookie: await sessionStorage().commitSession(session) }
}
