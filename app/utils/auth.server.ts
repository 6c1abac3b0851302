import { createHmac, timingSafeEqual } from 'node:crypto'
import { json, redirect } from '@remix-run/node'
import { createRemoteJWKSet, decodeJwt, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose'
import { Authenticator } from 'remix-auth'
import { OAuth2RequestError, OAuth2Strategy } from 'remix-auth-oauth2'
import { SignInAnswer } from '../../contracts/identity'
import { ApiError, callApi, type ApiSession } from '~/models/api.server'
import { getCurrentUser, refreshLocalToken, signInLocal, signOutAtBackend } from '~/models/identity.server'
import { QUESTION_MAX_LENGTH } from '~/models/ask-limits'
import { getEnv, isCookieSecure, isSingleSignOnEnabled } from './env.server'
import { mayOpen, refusedRoleMessage, type Role } from './roles'
import { crossSiteReason } from './same-origin'
import { forgetSignedIn, getSession, hasSignedInBefore, sessionStorage, signedInCookie, type AuthSession, type Toast } from './session.server'
import { latestOf, renewOnce } from './sign-in-renewals.server'

/** SEED.md §4: the access-token-expiring notice comes 60 s ahead; sessions renew from then on. */
const RENEW_AHEAD_MS = 60_000
/** A token this close to its expiry is treated as expired, so it never runs out on its way to the backend. */
const EXPIRY_MARGIN_MS = 5_000
/** SEED.md §9: the sign-in library's silent request timeout (10 s) and stale sign-in state age (15 minutes). */
const PROVIDER_TIMEOUT_MS = 10_000
const SIGN_IN_STATE_MAX_AGE_SECONDS = 15 * 60
const STATE_COOKIE = 'kb_oidc'
const DEFAULT_PATH = '/ask'
/** Signature algorithms accepted on ID tokens: asymmetric only, as the backend (which has no client secret) requires. */
const ID_TOKEN_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519']

export type SignedInUser = AuthSession['user']

// ---------------------------------------------------------------------------------------------------------------
// Cross-site requests

/**
 * Refuses a state-changing request sent from another site (403): its Origin is another origin than this site's
 * (scheme, host and port: the scheme as the browser used it, which a proxy in front says; see same-origin.ts), or the
 * browser says Sec-Fetch-Site: cross-site. SameSite=Lax already keeps the session cookie off such requests; this is the
 * second line.
 */
export function assertSameOrigin(request: Request): void {
  const url = new URL(request.url)
  const reason = crossSiteReason({
    method: request.method,
    header: (name) => request.headers.get(name),
    protocol: url.protocol === 'https:' ? 'https' : 'http',
    host: url.host,
  })
  if (reason) throw json({ message: reason }, { status: 403, statusText: 'Forbidden' })
}

/**
 * Refuses (403, with the reason) an address the signed-in role does not open (utils/roles.ts), from the session alone:
 * before a loader or action asks the backend anything, so a refused page never carries a screen's data, whichever
 * loader Remix runs first.
 */
export function assertRoleOpens(request: Request, role: Role): void {
  if (!mayOpen(role, new URL(request.url).pathname)) {
    throw json({ message: refusedRoleMessage(role) }, { status: 403, statusText: 'Forbidden' })
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Where to go after sign-in

/**
 * The longest address kept to return to after sign-in, its query included (ADR 324): it travels in the sign-in page's
 * address and forms, in a redirect's Location and, for single sign-on, in the session cookie, all well within their
 * limits at this length.
 */
export const RETURN_PATH_MAX_LENGTH = 2000

/**
 * The query a return address may keep, by path (ADR 324): what the person was typing when their session ended
 * (`draft`), the thread it followed up (`thread`), and `cut=1` when the draft was too long to keep whole. Every other
 * parameter is dropped.
 */
const KEPT_QUERY: Record<string, readonly KeptParam[]> = {
  '/ask': ['draft', 'thread', 'cut'],
  '/agent': ['draft', 'cut'],
  '/agent/government': ['draft', 'cut'],
}
type KeptParam = 'draft' | 'thread' | 'cut'
const isKeptValue: Record<KeptParam, (value: string) => boolean> = {
  draft: (value) => value.trim() !== '' && value.length <= QUESTION_MAX_LENGTH,
  thread: (value) => /^[1-9]\d{0,9}$/.test(value),
  cut: (value) => value === '1',
}

/**
 * A same-site path to return to after sign-in, never a sign-in page itself. Its query is dropped (SEED.md §2: the
 * bare path), except for the few parameters that bring back what was being typed when a session ended (KEPT_QUERY,
 * ADR 324), and only while the whole stays within RETURN_PATH_MAX_LENGTH. Anything else (a full URL, `//host`,
 * garbage) gives the default, /ask.
 */
export function safeReturnPath(value: unknown): string {
  if (typeof value !== 'string' || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return DEFAULT_PATH
  let url: URL
  try {
    url = new URL(value, 'http://return.invalid')
  } catch {
    return DEFAULT_PATH
  }
  const path = url.pathname
  // The address read may start with two slashes where the one given did not ("/.//host", "/a/..//host"): a link to
  // another site, which is never a place to return to.
  if (url.origin !== 'http://return.invalid' || path.startsWith('//') || path.startsWith('/\\')) return DEFAULT_PATH
  if (path === '/' || path === '/login' || path === '/logout' || path.startsWith('/auth/')) return DEFAULT_PATH
  const kept = new URLSearchParams()
  for (const name of KEPT_QUERY[path] ?? []) {
    const param = url.searchParams.get(name)
    if (param !== null && isKeptValue[name](param)) kept.set(name, param)
  }
  const query = kept.size ? `?${kept}` : ''
  return path.length + query.length <= RETURN_PATH_MAX_LENGTH ? `${path}${query}` : path
}

/** What a person was typing when their session ended: kept in the address to return to after sign-in (ADR 324). */
export interface Draft {
  /** The screen whose field it goes back into. */
  path: '/ask' | '/agent' | '/agent/government'
  text: string
  /** The Ask thread it followed up. */
  thread?: number | null
}

/**
 * The address that brings a draft back: `path?draft=…` (and its thread), the whole text where the address stays within
 * RETURN_PATH_MAX_LENGTH; else as much of its beginning as fits, whole characters, with `cut=1` so the page says so.
 */
export function draftReturnPath(draft: Draft): string {
  const text = draft.text.slice(0, QUESTION_MAX_LENGTH)
  const address = (kept: string, isCut: boolean) => {
    const params = new URLSearchParams()
    if (kept.trim()) params.set('draft', kept)
    if (draft.path === '/ask' && draft.thread) params.set('thread', String(draft.thread))
    if (isCut) params.set('cut', '1')
    return params.size ? `${draft.path}?${params}` : draft.path
  }
  const whole = address(text, false)
  if (whole.length <= RETURN_PATH_MAX_LENGTH) return whole
  // The longest beginning (in whole characters, never half of a surrogate pair) whose address fits.
  const characters = Array.from(text)
  let fits = 0
  let tooLong = characters.length
  while (tooLong - fits > 1) {
    const middle = Math.floor((fits + tooLong) / 2)
    if (address(characters.slice(0, middle).join(''), true).length <= RETURN_PATH_MAX_LENGTH) fits = middle
    else tooLong = middle
  }
  return address(characters.slice(0, fits).join(''), true)
}

function signInPath(request: Request, draft?: Draft): string {
  const path = safeReturnPath(draft ? draftReturnPath(draft) : new URL(request.url).pathname)
  return path === DEFAULT_PATH ? '/login' : `/login?redirectTo=${encodeURIComponent(path)}`
}

const SESSION_ENDED = 'Your session has ended. Please sign in again.'

/**
 * The redirect to sign-in for this request's page; pass the Set-Cookie of a session that was just ended, and the
 * draft of a refused post, which comes back in its field after sign-in (ADR 324). A browser that comes without a
 * session but signed in here before (its session cookie expired with its token) is told its session has ended, once.
 */
export async function redirectToSignIn(request: Request, setCookie?: string, draft?: Draft): Promise<Response> {
  const wasSignedIn = await hasSignedInBefore(request)
  const ended = setCookie ?? (wasSignedIn ? await endSession({ message: SESSION_ENDED }) : undefined)
  const headers = new Headers()
  if (ended) headers.append('Set-Cookie', ended)
  if (wasSignedIn) headers.append('Set-Cookie', await forgetSignedIn())
  return redirect(signInPath(request, draft), { headers })
}

/** Replaces the session with an empty one that carries only a toast: sign-out, or a session that has run out. */
async function endSession(toast: Pick<Toast, 'message'> & Partial<Toast>): Promise<string> {
  const fresh = await sessionStorage().getSession()
  fresh.flash('toast', { summary: 'Signed out', severity: 'info', life: 4000, ...toast })
  return sessionStorage().commitSession(fresh)
}

// ---------------------------------------------------------------------------------------------------------------
// Demo mode (AUTH_ENABLED=false)

let demo: { token: string; renewAt: number } | undefined
let demoSignIn: Promise<string> | undefined

/** Demo mode: the web server signs in to the backend as the local administrator. */
async function signInAsAdministrator(): Promise<string> {
  demoSignIn ??= (async () => {
    const env = getEnv()
    try {
      const answer = await callApi('/auth/login', {
        method: 'POST',
        body: { username: env.ADMIN_USERNAME, password: env.ADMIN_PASSWORD },
        schema: SignInAnswer,
      })
      demo = { token: answer.access_token, renewAt: Date.now() + answer.expires_in * 1000 - RENEW_AHEAD_MS }
      return answer.access_token
    } finally {
      demoSignIn = undefined
    }
  })()
  return demoSignIn
}

// ---------------------------------------------------------------------------------------------------------------
// Sessions

/**
 * The backend session for this request's user (the provider's ID token, or the backend's token for a local account),
 * renewable once when the backend refuses it. Without a session: a redirect to sign-in; a session that has expired
 * and cannot be renewed is ended first. Refuses cross-site posts (every action calls this). An action that posts
 * what a person typed (a question, a command) passes it as `draft`: the sign-in page returns to it (ADR 324).
 */
export async function requireApiSession(request: Request, options: { draft?: Draft } = {}): Promise<ApiSession> {
  const { draft } = options
  assertSameOrigin(request)
  const env = getEnv()
  if (!env.AUTH_ENABLED) {
    const token = demo && demo.renewAt > Date.now() ? demo.token : await signInAsAdministrator()
    return { token, renew: signInAsAdministrator }
  }
  const stored = (await getSession(request)).get('auth')
  if (!stored) throw await redirectToSignIn(request, undefined, draft)
  assertRoleOpens(request, stored.user.role)
  let current = await latestOf(stored)
  if (isExpired(current)) {
    const renewed = await renew(current)
    if (!renewed || isExpired(renewed)) throw await redirectToSignIn(request, await endSession({ message: SESSION_ENDED }), draft)
    current = renewed
  }
  const from = current
  return {
    token: current.token,
    // The backend refused the token (a restarted backend, a clock ahead of ours): renew once, else sign in again.
    renew: async () => {
      const renewed = await renew(from)
      if (!renewed) throw await redirectToSignIn(request, await endSession({ message: SESSION_ENDED }), draft)
      return renewed.token
    },
  }
}

/**
 * Renews the session when its token expires within 60 s (SEED.md §4) and tells who is signed in. Call it from the
 * dashboard layout's loader and send `setCookie` when present (the renewed session, or the ended one). `user` is null
 * without a session, or when it expired and could not be renewed: redirect to sign-in then (redirectToSignIn).
 * In demo mode the user is the local administrator.
 */
export async function refreshSessionIfNeeded(request: Request): Promise<{ user: SignedInUser | null; setCookie?: string }> {
  const env = getEnv()
  if (!env.AUTH_ENABLED) return { user: { username: env.ADMIN_USERNAME, role: 'admin' } }
  const session = await getSession(request)
  const stored = session.get('auth')
  if (!stored) return { user: null }
  let current = await latestOf(stored)
  if (current.expiresAt - Date.now() <= RENEW_AHEAD_MS) current = (await renew(current)) ?? current
  if (isExpired(current)) return { user: null, setCookie: await endSession({ message: SESSION_ENDED }) }
  if (current === stored) return { user: current.user }
  session.set('auth', current)
  return { user: current.user, setCookie: await sessionStorage().commitSession(session) }
}

/** Who is signed in, without renewing anything (null in demo mode too: nobody signed in). */
export async function getSignedInUser(request: Request): Promise<SignedInUser | null> {
  const auth = (await getSession(request)).get('auth')
  return auth && !isExpired(auth) ? auth.user : null
}

/**
 * Who this browser's session is and how it signed in (a local password, or the single sign-on provider), as the
 * cookie says, expired or not: call it after requireApiSession. Null without a session (and in demo mode).
 */
export async function getSignIn(request: Request): Promise<Pick<AuthSession, 'kind' | 'user'> | null> {
  const auth = (await getSession(request)).get('auth')
  return auth ? { kind: auth.kind, user: auth.user } : null
}

function isExpired(auth: AuthSession): boolean {
  return auth.expiresAt - EXPIRY_MARGIN_MS <= Date.now()
}

/** Renews a session once, however many requests ask at the same time; null when it cannot be renewed. */
function renew(auth: AuthSession): Promise<AuthSession | null> {
  return renewOnce(auth, (current) => (current.kind === 'local' ? renewLocal(current) : renewWithProvider(current)))
}

async function renewLocal(auth: AuthSession): Promise<AuthSession | null> {
  if (auth.expiresAt <= Date.now()) return null // the backend renews only a still-valid token
  const answer = await refreshLocalToken(auth.token)
  return {
    kind: 'local',
    token: answer.access_token,
    expiresAt: Date.now() + answer.expires_in * 1000,
    user: { username: answer.user.username, role: answer.user.role },
  }
}

async function renewWithProvider(auth: AuthSession): Promise<AuthSession | null> {
  if (!auth.refreshToken) return null
  const oidc = await getOidc()
  const tokens = await oidc.strategy.refreshToken(auth.refreshToken)
  const idToken = tokens.idToken()
  const claims = await oidc.verifyIdToken(idToken)
  // OIDC Core 12.2: a refreshed ID token is about the same person.
  if (claims.sub !== decodeJwt(auth.token).sub) return null
  const user = await getCurrentUser(idToken).then(
    (answer) => ({ username: answer.username, role: answer.role }),
    () => auth.user, // keep what we knew; the backend answers the next call itself
  )
  return {
    kind: 'oidc',
    token: idToken,
    expiresAt: claims.exp * 1000,
    refreshToken: tokens.hasRefreshToken() ? tokens.refreshToken() : auth.refreshToken,
    user,
  }
}

/** Starts a new session (a new cookie: nothing from before sign-in is carried over) and goes to `returnTo`. */
async function createUserSession(request: Request, auth: AuthSession, returnTo: string): Promise<Response> {
  return redirect(safeReturnPath(returnTo), { headers: await newSessionHeaders(request, auth) })
}

/** The Set-Cookie headers of a new session for `auth` (and of the sign-in state cookies it ends). */
async function newSessionHeaders(request: Request, auth: AuthSession, toast?: Toast): Promise<Headers> {
  const session = await sessionStorage().getSession()
  session.set('auth', auth)
  if (toast) session.flash('toast', toast)
  const headers = new Headers()
  // The session cookie lives as long as the token; this one outlives it, to tell the browser its session ended.
  headers.append('Set-Cookie', await sessionStorage().commitSession(session))
  headers.append('Set-Cookie', await signedInCookie().serialize(true))
  for (const cookie of clearedStateCookies(request)) headers.append('Set-Cookie', cookie)
  return headers
}

// ---------------------------------------------------------------------------------------------------------------
// Local accounts

export type LocalSignInResult =
  | { ok: true; response: Response; headers: Headers }
  | { ok: false; status: 401 | 429; message: string }

/** The one message for any wrong detail: never which part was wrong. */
export const INVALID_CREDENTIALS_MESSAGE = 'Invalid username or password.'

/** Signs a local account in through the backend and starts its session; a refusal comes back as a message. */
/** Signs in with a local account; `toast` is shown on the page it lands on (for example after registering). */
export async function signInWithPassword(
  request: Request,
  credentials: { username: string; password: string; redirectTo: string; toast?: Toast },
): Promise<LocalSignInResult> {
  assertSameOrigin(request)
  let answer: SignInAnswer
  try {
    answer = await signInLocal(credentials.username, credentials.password)
  } catch (error) {
    if (error instanceof ApiError && error.status === 429) return { ok: false, status: 429, message: error.message }
    if (error instanceof ApiError && (error.status === 401 || error.status === 400)) return { ok: false, status: 401, message: INVALID_CREDENTIALS_MESSAGE }
    throw error
  }
  const auth: AuthSession = {
    kind: 'local',
    token: answer.access_token,
    expiresAt: Date.now() + answer.expires_in * 1000,
    user: { username: answer.user.username, role: answer.user.role },
  }
  const headers = await newSessionHeaders(request, auth, credentials.toast)
  return { ok: true, response: redirect(safeReturnPath(credentials.redirectTo), { headers }), headers }
}

// ---------------------------------------------------------------------------------------------------------------
// Single sign-on (OpenID Connect through remix-auth-oauth2)

interface ProviderMetadata {
  issuer: string
  authorization_endpoint: string
  token_endpoint: string
  jwks_uri: string
  end_session_endpoint?: string
  revocation_endpoint?: string
}

interface Oidc {
  metadata: ProviderMetadata
  strategy: OidcStrategy
  authenticator: Authenticator<AuthSession>
  verifyIdToken(idToken: string, nonce?: string): Promise<JWTPayload & { sub: string; exp: number }>
}

/** remix-auth-oauth2 with an OpenID nonce: derived from the state, so it needs no storage of its own. */
class OidcStrategy extends OAuth2Strategy<AuthSession> {
  override name = 'oidc'

  protected override authorizationParams(params: URLSearchParams, request: Request): URLSearchParams {
    const next = super.authorizationParams(params, request)
    next.set('nonce', nonceFor(params.get('state') ?? ''))
    return next
  }

  /**
   * Refreshes without a scope parameter: the grant keeps the scopes it has. Asking again for all configured scopes
   * fails where the provider granted fewer (offline_access is often dropped without prompt=consent).
   */
  override refreshToken(refreshToken: string) {
    return this.client.refreshAccessToken(this.options.tokenEndpoint.toString(), refreshToken, [])
  }
}

/** HMAC-SHA256(SESSION_SECRET, state): only this server can make it, and the state cookie binds it to the browser. */
function nonceFor(state: string): string {
  return createHmac('sha256', getEnv().SESSION_SECRET).update(state).digest('base64url')
}

let oidcSetup: Promise<Oidc> | undefined

/** Discovery once per process (again after a failure): endpoints, keys, the strategy. */
function getOidc(): Promise<Oidc> {
  oidcSetup ??= setUpOidc().catch((error: unknown) => {
    oidcSetup = undefined
    throw error
  })
  return oidcSetup
}

async function setUpOidc(): Promise<Oidc> {
  const env = getEnv()
  if (!isSingleSignOnEnabled(env)) throw new Error('Single sign-on is not configured')
  const authority = env.OIDC_AUTHORITY!.replace(/\/+$/, '')
  const response = await fetch(`${authority}/.well-known/openid-configuration`, {
    headers: { accept: 'application/json' },
    signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS),
  })
  if (!response.ok) throw new Error(`The sign-in provider's configuration answered ${response.status}`)
  const metadata = (await response.json()) as ProviderMetadata
  for (const field of ['issuer', 'authorization_endpoint', 'token_endpoint', 'jwks_uri'] as const) {
    if (typeof metadata[field] !== 'string') throw new Error(`The sign-in provider's configuration has no ${field}`)
  }
  if (metadata.issuer.replace(/\/+$/, '') !== authority) throw new Error(`The sign-in provider names itself ${metadata.issuer}, not ${env.OIDC_AUTHORITY}`)

  const keys: JWTVerifyGetKey = createRemoteJWKSet(new URL(metadata.jwks_uri), { timeoutDuration: PROVIDER_TIMEOUT_MS })
  const clientId = env.OIDC_CLIENT_ID!
  const verifyIdToken: Oidc['verifyIdToken'] = async (idToken, nonce) => {
    const { payload } = await jwtVerify(idToken, keys, {
      issuer: metadata.issuer,
      audience: clientId,
      algorithms: ID_TOKEN_ALGORITHMS,
      clockTolerance: 5,
      requiredClaims: ['sub', 'exp', 'iat'],
    })
    if (Array.isArray(payload.aud) && payload.aud.length > 1 && payload.azp !== clientId) throw new SignInFailure('The ID token was issued to another party.')
    if (nonce !== undefined && !isSameText(String(payload.nonce ?? ''), nonce)) throw new SignInFailure('The sign-in answer does not belong to this sign-in (nonce).')
    return payload as JWTPayload & { sub: string; exp: number }
  }

  const strategy = new OidcStrategy(
    {
      clientId,
      clientSecret: env.OIDC_CLIENT_SECRET ?? null,
      authorizationEndpoint: metadata.authorization_endpoint,
      tokenEndpoint: metadata.token_endpoint,
      tokenRevocationEndpoint: metadata.revocation_endpoint,
      redirectURI: env.OIDC_REDIRECT_URI!,
      scopes: env.OIDC_SCOPES.split(/\s+/).filter(Boolean),
      cookie: {
        name: STATE_COOKIE,
        httpOnly: true,
        sameSite: 'Lax',
        path: '/',
        maxAge: SIGN_IN_STATE_MAX_AGE_SECONDS,
        ...(isCookieSecure(env) ? { secure: true as const } : {}),
      },
    },
    async ({ request, tokens }) => {
      const idToken = tokens.idToken()
      const state = new URL(request.url).searchParams.get('state') ?? ''
      const claims = await verifyIdToken(idToken, nonceFor(state))
      let user: SignedInUser
      try {
        const answer = await getCurrentUser(idToken)
        user = { username: answer.username, role: answer.role }
      } catch (error) {
        throw new SignInFailure(`Your account could not be signed in: ${error instanceof ApiError ? error.message : 'the service did not answer'}.`)
      }
      return {
        kind: 'oidc',
        token: idToken,
        expiresAt: claims.exp * 1000,
        refreshToken: tokens.hasRefreshToken() ? tokens.refreshToken() : undefined,
        user,
      }
    },
  )
  const authenticator = new Authenticator<AuthSession>()
  authenticator.use(strategy, 'oidc')
  return { metadata, strategy, authenticator, verifyIdToken }
}

/** A sign-in that failed for a reason worth showing as it is. */
class SignInFailure extends Error {}

function isSameText(a: string, b: string): boolean {
  const left = Buffer.from(a)
  const right = Buffer.from(b)
  return left.length === right.length && timingSafeEqual(left, right)
}

function isResponse(value: unknown): value is Response {
  return typeof value === 'object' && value !== null && 'status' in value && 'headers' in value && typeof (value as Response).headers.get === 'function'
}

/** Sends the browser to the provider (with state, PKCE and nonce), remembering the page to come back to. */
export async function startSingleSignOn(request: Request, returnTo: string): Promise<Response> {
  assertSameOrigin(request)
  let oidc: Oidc
  try {
    oidc = await getOidc()
  } catch (error) {
    throw json({ message: `Single sign-on is not available right now: ${(error as Error).message}` }, { status: 503, statusText: 'Service Unavailable' })
  }
  const session = await getSession(request)
  session.set('returnTo', safeReturnPath(returnTo))
  try {
    await oidc.authenticator.authenticate('oidc', new Request(new URL('/auth/oidc', request.url), { headers: request.headers }))
  } catch (thrown) {
    if (isResponse(thrown) && thrown.headers.get('Location')) {
      const headers = new Headers()
      const stateCookie = thrown.headers.get('Set-Cookie')
      if (stateCookie) headers.append('Set-Cookie', stateCookie)
      headers.append('Set-Cookie', await sessionStorage().commitSession(session))
      return redirect(thrown.headers.get('Location')!, { headers })
    }
    throw thrown
  }
  throw new Error('The sign-in strategy did not send the browser to the provider')
}

export type SingleSignOnResult = { ok: true; response: Response } | { ok: false; message: string; headers: Headers }

/**
 * The provider's callback: checks state (cookie), exchanges the code (PKCE), verifies the ID token and its nonce, has
 * the backend find or create the user, then starts a new session and goes to the saved page's bare path. A bad or
 * replayed callback creates no session: the state cookie is single-use.
 */
export async function completeSingleSignOn(request: Request): Promise<SingleSignOnResult> {
  const headers = new Headers()
  for (const cookie of clearedStateCookies(request)) headers.append('Set-Cookie', cookie)
  // Without a state this is no answer from the provider (the strategy would start a new sign-in instead).
  if (!new URL(request.url).searchParams.has('state')) return { ok: false, message: 'This address is only for coming back from the sign-in provider.', headers }
  let auth: AuthSession
  try {
    const oidc = await getOidc()
    auth = await oidc.authenticator.authenticate('oidc', request)
  } catch (error) {
    return { ok: false, message: describeSignInFailure(error), headers }
  }
  const returnTo = (await getSession(request)).get('returnTo') ?? DEFAULT_PATH
  return { ok: true, response: await createUserSession(request, auth, returnTo) }
}

function describeSignInFailure(error: unknown): string {
  if (error instanceof SignInFailure) return error.message
  if (error instanceof OAuth2RequestError) {
    return error.code === 'access_denied' ? 'Sign-in was cancelled at the provider.' : `The sign-in provider refused: ${error.description ?? error.code}.`
  }
  if (error instanceof ReferenceError && /state/i.test(error.message)) return 'This sign-in link has expired or was already used. Please sign in again.'
  if (error instanceof RangeError) return 'This sign-in answer does not match a sign-in started in this browser. Please sign in again.'
  if (error instanceof Error && 'code' in error && typeof error.code === 'string' && error.code.startsWith('ERR_J')) {
    return "The sign-in provider's answer could not be verified."
  }
  return 'The sign-in provider could not be reached or gave an answer we could not use. Please try again.'
}

/** Deletes the state cookies the strategy set for sign-ins started in this browser. */
function clearedStateCookies(request: Request): string[] {
  const secure = isCookieSecure(getEnv()) ? '; Secure' : ''
  return (request.headers.get('Cookie') ?? '')
    .split(';')
    .map((part) => part.trim().split('=')[0])
    .filter((name) => name.startsWith(STATE_COOKIE))
    .map((name) => `${name}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax${secure}`)
}

// ---------------------------------------------------------------------------------------------------------------
// Sign-out

/**
 * Ends the session here and, for single sign-on where the provider offers it, at the provider too (RP-initiated
 * logout with id_token_hint and post_logout_redirect_uri = this app's /login); local accounts go back to /login.
 */
export async function signOut(request: Request): Promise<Response> {
  assertSameOrigin(request)
  const env = getEnv()
  const auth = (await getSession(request)).get('auth')
  const headers = new Headers()
  headers.append('Set-Cookie', await endSession({ message: 'You are signed out.' }))
  // Signed out on purpose: a later visit is not told that a session ended.
  headers.append('Set-Cookie', await forgetSignedIn())
  // The backend ends the session too, so the token is refused from now on even where a copy of it survives.
  // Best effort: an expired or already refused token has no session left to end.
  const current = auth ? await latestOf(auth) : undefined
  if (current) await signOutAtBackend(current.token).catch(() => undefined)
  if (current?.kind === 'oidc' && isSingleSignOnEnabled(env)) {
    const oidc = await getOidc().catch(() => undefined)
    if (oidc) {
      if (current.refreshToken && oidc.metadata.revocation_endpoint) {
        // Best effort, briefly: the provider's end-session below ends the grant as well.
        await Promise.race([oidc.strategy.revokeToken(current.refreshToken), new Promise((resolve) => setTimeout(resolve, 3000))]).catch(() => undefined)
      }
      if (oidc.metadata.end_session_endpoint) {
        const url = new URL(oidc.metadata.end_session_endpoint)
        url.searchParams.set('id_token_hint', current.token)
        url.searchParams.set('client_id', env.OIDC_CLIENT_ID!)
        url.searchParams.set('post_logout_redirect_uri', env.OIDC_POST_LOGOUT_REDIRECT_URI ?? new URL('/login', env.OIDC_REDIRECT_URI).toString())
        return redirect(url.toString(), { headers })
      }
    }
  }
  return redirect('/login', { headers })
}
