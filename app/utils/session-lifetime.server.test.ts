import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { startTestBackend, TEST_ADMIN_PASSWORD, TEST_API_KEY, type TestBackend } from '../../backend/src/testing/test-backend'
import type { AuthSession } from './session.server'

// The session cookie carries the sign-in token: it must not outlive it. When it has gone (or a token that has expired
// still arrives), the browser is signed out to the sign-in page and told why.

type AuthModule = typeof import('./auth.server')
type SessionModule = typeof import('./session.server')

/** Local tokens live 10 minutes here, so a cookie's lifetime of 30 days (or of 12 hours) would show. */
const TOKEN_TTL_SECONDS = 600
const THIRTY_DAYS = 30 * 24 * 3600
const WEB = 'http://127.0.0.1:3000'

let server: TestBackend
let auth: AuthModule
let sessions: SessionModule

beforeAll(async () => {
  server = await startTestBackend('pglite', { TOKEN_SECRET: 'session-lifetime-token-secret-0123456789', TOKEN_TTL_SECONDS: String(TOKEN_TTL_SECONDS) })
  Object.assign(process.env, { API_BASE_URL: server.baseUrl, API_KEY: TEST_API_KEY, AUTH_ENABLED: 'true', NODE_ENV: 'test', SESSION_SECRET: 'session-lifetime-secret-0123456789' })
  // The web configuration is read once per module load: load the modules afresh for this backend.
  vi.resetModules()
  auth = await import('./auth.server')
  sessions = await import('./session.server')
})
afterAll(() => server?.stop())

/** The Set-Cookie of a name among a response's headers. */
const setCookieOf = (headers: Headers, name: string) => headers.getSetCookie().find((cookie) => cookie.startsWith(`${name}=`))
const maxAgeOf = (setCookie: string | undefined) => Number(/;\s*Max-Age=(\d+)/i.exec(setCookie ?? '')?.[1])
/** The Cookie header a browser sends back for these Set-Cookie values (name=value only). */
const cookieHeader = (...setCookies: (string | undefined)[]) =>
  setCookies
    .filter((cookie): cookie is string => Boolean(cookie))
    .map((cookie) => cookie.split(';')[0])
    .join('; ')

const localSession = (expiresInMs: number): AuthSession => ({
  kind: 'local',
  token: 'a-token-the-backend-never-issued',
  expiresAt: Date.now() + expiresInMs,
  user: { username: 'ada', role: 'user' },
})

async function committed(session: AuthSession | null, toast?: string) {
  const stored = await sessions.sessionStorage().getSession()
  if (session) stored.set('auth', session)
  if (toast) stored.flash('toast', { summary: 'All Ok', message: toast, severity: 'success', life: 2000 })
  return sessions.sessionStorage().commitSession(stored)
}

/** What requireApiSession throws for this page and these cookies (it must throw: there is no valid session). */
async function refusal(path: string, cookie: string, draft?: Parameters<AuthModule['requireApiSession']>[1]) {
  const request = new Request(`${WEB}${path}`, { headers: cookie ? { cookie } : {} })
  const thrown = await auth.requireApiSession(request, draft).then(
    () => null,
    (error: unknown) => error,
  )
  expect(thrown).toBeInstanceOf(Response)
  return thrown as Response
}

async function toastOf(setCookie: string | undefined) {
  if (!setCookie) return undefined
  return (await sessions.sessionStorage().getSession(cookieHeader(setCookie))).get('toast')
}

/** The built-in administrator signed in through the sign-in form's action, as the web server does it. */
function signInAsAdministrator() {
  const form = new URLSearchParams({ username: 'admin', password: TEST_ADMIN_PASSWORD })
  const request = new Request(`${WEB}/login`, { method: 'POST', headers: { origin: WEB }, body: form })
  return auth.signInWithPassword(request, { username: 'admin', password: TEST_ADMIN_PASSWORD, redirectTo: '/ask' })
}

describe('the session cookie', () => {
  it("expires with the sign-in token it carries (a local sign-in: the token's lifetime), never later", async () => {
    const result = await signInAsAdministrator()
    expect(result.ok).toBe(true)
    const cookie = setCookieOf((result as { headers: Headers }).headers, '__session')
    expect(maxAgeOf(cookie)).toBeGreaterThan(TOKEN_TTL_SECONDS - 10)
    expect(maxAgeOf(cookie)).toBeLessThanOrEqual(TOKEN_TTL_SECONDS)
  })

  it('written by a response that raced a renewal carries the renewed token and its lifetime, not the replaced one', async () => {
    const signedIn = await signInAsAdministrator()
    const stored = (await sessions.sessionStorage().getSession(cookieHeader(setCookieOf((signedIn as { headers: Headers }).headers, '__session')))).get('auth')!
    // The same sign-in as a cookie written 9½ minutes ago would carry it: 30 s left, inside the renewal window.
    const old = await committed({ ...stored, expiresAt: Date.now() + 30_000 }, 'Saved')
    expect(maxAgeOf(old)).toBeLessThanOrEqual(30)
    const page = () => new Request(`${WEB}/ask`, { headers: { cookie: cookieHeader(old) } })
    const renewal = await auth.refreshSessionIfNeeded(page())
    const renewed = (await sessions.sessionStorage().getSession(cookieHeader(renewal.setCookie))).get('auth')!
    expect(renewed.expiresAt).toBeGreaterThan(Date.now() + (TOKEN_TTL_SECONDS - 10) * 1000)
    // Another loader of the same page read the old cookie and commits it (the root loader takes its toast).
    const raced = await sessions.takeToast(page())
    expect((await sessions.sessionStorage().getSession(cookieHeader(raced.setCookie))).get('auth')).toEqual(renewed)
    expect(maxAgeOf(raced.setCookie!)).toBeGreaterThan(TOKEN_TTL_SECONDS - 10)
    expect(raced.toast).toMatchObject({ message: 'Saved' })
  })

  it('is written by the root loader only when it takes a toast, so a loader that raced an action keeps its toast', async () => {
    // A revalidation still running from before an action read the cookie without the toast that action then set:
    // writing back what it read would lose the toast.
    const before = await committed(localSession(5 * 60_000))
    const stale = await sessions.takeToast(new Request(`${WEB}/ask`, { headers: { cookie: cookieHeader(before) } }))
    expect(stale).toEqual({ toast: null })
    const after = await committed(localSession(5 * 60_000), 'Group deleted')
    const taken = await sessions.takeToast(new Request(`${WEB}/ask`, { headers: { cookie: cookieHeader(after) } }))
    expect(taken.toast).toMatchObject({ message: 'Group deleted' })
    expect(await toastOf(taken.setCookie)).toBeUndefined()
  })

  it('lives as long as what it carries: the rest of a token, nothing for a token gone, 30 days without one', async () => {
    const fiveMinutes = maxAgeOf(await committed(localSession(5 * 60_000)))
    expect(fiveMinutes).toBeGreaterThan(290)
    expect(fiveMinutes).toBeLessThanOrEqual(300)
    expect(maxAgeOf(await committed(localSession(-60_000)))).toBe(0)
    expect(maxAgeOf(await committed(null, 'Saved'))).toBe(THIRTY_DAYS)
  })
})

describe('a request without a valid sign-in', () => {
  it('with a token that has expired is signed out to the sign-in page, with a message', async () => {
    const expired = await committed(localSession(-1000))
    const answer = await refusal('/agent', cookieHeader(expired))
    expect(answer.status).toBe(302)
    expect(answer.headers.get('location')).toBe('/login?redirectTo=%2Fagent')
    const ended = setCookieOf(answer.headers, '__session')
    expect((await sessions.sessionStorage().getSession(cookieHeader(ended))).get('auth')).toBeUndefined()
    expect(await toastOf(ended)).toMatchObject({ summary: 'Signed out', message: 'Your session has ended. Please sign in again.' })
  })

  it('from a browser whose session cookie expired with its token goes to the sign-in page with the same message, once', async () => {
    // As the browser has it once the session cookie has expired: only what sign-in set beside it, which outlives it.
    const signedIn = await signInAsAdministrator()
    const marker = setCookieOf((signedIn as { headers: Headers }).headers, sessions.SIGNED_IN_COOKIE)
    expect(maxAgeOf(marker)).toBeGreaterThan(TOKEN_TTL_SECONDS)

    const answer = await refusal('/logs', cookieHeader(marker))
    expect(answer.headers.get('location')).toBe('/login?redirectTo=%2Flogs')
    expect(await toastOf(setCookieOf(answer.headers, '__session'))).toMatchObject({ message: 'Your session has ended. Please sign in again.' })
    // Said once: the mark goes with it.
    expect(maxAgeOf(setCookieOf(answer.headers, sessions.SIGNED_IN_COOKIE))).toBe(0)
  })

  it('from a browser that was never signed in goes to the sign-in page without a message', async () => {
    const answer = await refusal('/ask', '')
    expect(answer.headers.get('location')).toBe('/login')
    expect(await toastOf(setCookieOf(answer.headers, '__session'))).toBeUndefined()
  })

  it('that posted a question goes to the sign-in page with the question (and its thread) in the address to return to', async () => {
    const expired = await committed(localSession(-1000))
    const question = 'Which parcels can be returned after 30 days?'
    const answer = await refusal('/ask?thread=4', cookieHeader(expired), { draft: { path: '/ask', text: question, thread: 4 } })
    const returnTo = new URL(answer.headers.get('location')!, WEB).searchParams.get('redirectTo')!
    expect(returnTo).toBe(`/ask?${new URLSearchParams({ draft: question, thread: '4' })}`)
    expect(auth.safeReturnPath(returnTo)).toBe(returnTo)
    // Still told why, as any page is.
    expect(await toastOf(setCookieOf(answer.headers, '__session'))).toMatchObject({ message: 'Your session has ended. Please sign in again.' })
  })

  it("that posted an agent command without ever having signed in here still comes back to the command", async () => {
    const answer = await refusal('/agent', '', { draft: { path: '/agent', text: 'Summarise the returns policy' } })
    expect(answer.headers.get('location')).toBe(`/login?redirectTo=${encodeURIComponent('/agent?draft=Summarise+the+returns+policy')}`)
  })

  it('after signing out, is not told that a session ended', async () => {
    const marker = await sessions.signedInCookie().serialize(true)
    const session = await committed(localSession(5 * 60_000))
    const request = new Request(`${WEB}/logout`, { method: 'POST', headers: { origin: WEB, cookie: cookieHeader(session, marker) } })
    const signedOut = await auth.signOut(request)
    expect(maxAgeOf(setCookieOf(signedOut.headers, sessions.SIGNED_IN_COOKIE))).toBe(0)
    expect(await toastOf(setCookieOf(signedOut.headers, '__session'))).toMatchObject({ message: 'You are signed out.' })
  })
})
