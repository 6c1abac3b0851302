import { createHash, randomBytes } from 'node:crypto'
import { hash, verify } from '@node-rs/argon2'
import { decodeJwt, errors as joseErrors, jwtVerify, SignJWT, type JWTPayload } from 'jose'
import type { Config } from '../../config'
import type { Database } from '../../db/database'
import { AppError, InvalidInputError } from '../../errors'
import { credentialsGeneration } from './credentials-generation'
import { FailureCounter } from './failure-counter'
import { identityRepository as repository, type UserCredentials } from './identity.repository'
import type { CurrentUser, Role } from './identity.types'
import { OidcTokenVerifier } from './oidc-token-verifier'

const ISSUER = 'knowledge-assistant'
const AUDIENCE = 'knowledge-assistant-api'
export const INVALID_CREDENTIALS = 'Invalid username or password'

/** The lockout's refusal, saying when the address may try again: "…; try again in 15 minutes". */
export function tooManyFailuresMessage(refusedForMs: number): string {
  return `Too many failed sign-in attempts; try again in ${durationInWords(refusedForMs)}`
}

/** A wait in words, rounded up: seconds under a minute, minutes under two hours, else hours. */
export function durationInWords(milliseconds: number): string {
  const seconds = Math.max(Math.ceil(milliseconds / 1000), 1)
  const [count, unit] = seconds < 60 ? [seconds, 'second'] : seconds <= 120 * 60 ? [Math.ceil(seconds / 60), 'minute'] : [Math.ceil(seconds / 3600), 'hour']
  return `${count} ${unit}${count === 1 ? '' : 's'}`
}

export interface IdentityOptions {
  tokenSecret?: string
  tokenTtlSeconds: number
  /** A session's absolute lifetime from sign-in: renewal never takes it further. */
  sessionMaxSeconds: number
  /** Failed sign-ins from one client address for one account name before that address is refused for it. */
  maxFailures: number
  /** How long that refusal lasts, and how far apart failures may be and still add up. */
  lockSeconds: number
  /** Single sign-on: accept the provider's ID tokens as bearer tokens. */
  oidc?: OidcOptions
}

export interface OidcOptions {
  issuer: string
  /** The client id the provider issues ID tokens to. */
  audience: string
  jwksUri?: string
  /** Claim (a dotted path for nested claims) naming the user's organisation, matched by name. */
  organizationClaim: string
  /** Organisation (by name) for users whose token names none we know; the first organisation when unset. */
  defaultOrganization?: string
  /** Claim (a dotted path) carrying admin, editor or user; a list of roles gives the highest. */
  roleClaim: string
  defaultRole: Role
}

/** The identity options from the backend's configuration. */
export function identityOptionsFrom(config: Config): IdentityOptions {
  if (config.OIDC_ISSUER && !config.OIDC_AUDIENCE) {
    throw new Error('Invalid backend configuration: OIDC_ISSUER needs OIDC_AUDIENCE (the client id the provider issues ID tokens to)')
  }
  return {
    tokenSecret: config.TOKEN_SECRET,
    tokenTtlSeconds: config.TOKEN_TTL_SECONDS,
    sessionMaxSeconds: config.SESSION_MAX_SECONDS,
    maxFailures: config.LOGIN_MAX_FAILURES,
    lockSeconds: config.LOGIN_LOCK_SECONDS,
    oidc:
      config.OIDC_ISSUER && config.OIDC_AUDIENCE
        ? {
            issuer: config.OIDC_ISSUER,
            audience: config.OIDC_AUDIENCE,
            jwksUri: config.OIDC_JWKS_URI,
            organizationClaim: config.OIDC_ORGANIZATION_CLAIM,
            defaultOrganization: config.OIDC_DEFAULT_ORGANIZATION,
            roleClaim: config.OIDC_ROLE_CLAIM,
            defaultRole: config.OIDC_DEFAULT_ROLE,
          }
        : undefined,
  }
}

export class UnauthorizedError extends AppError {
  constructor(message: string) {
    super(401, 'Unauthorized', message)
  }
}

export class ForbiddenError extends AppError {
  constructor(message: string) {
    super(403, 'Forbidden', message)
  }
}

export const hashPassword = (password: string) => hash(password)

export interface SignedIn {
  accessToken: string
  /** Seconds the token is valid for: the token lifetime, or less when the session ends sooner. */
  expiresIn: number
  user: CurrentUser
}

const INVALID_TOKEN = 'The bearer token is not valid or has expired'
/** How many verified local tokens keep their checked claims (see IdentityService.verifiedTokens). */
const VERIFIED_TOKENS_KEPT = 2000
const ENDED_SESSION = 'The session of this bearer token has ended; sign in again'
/**
 * How long a session's account, once read, is trusted without reading it again (ADR 160). A change made through
 * this process applies at once (credentialsChanged); one made through another process, within this time.
 */
export const SESSION_KEPT_MS = 1000
const SESSIONS_KEPT = 5000
const FAILURE_DELAY_STEP_MS = 250
const MAX_FAILURE_DELAY_STEPS = 4
const ROLES: Role[] = ['admin', 'editor', 'user']
// Serialises the start-up step that creates the built-in administrator across processes (with the schema's hash).
const BUILTIN_ADMIN_LOCK = 72_531_050

/**
 * Who may call: local accounts (argon2 password checks, sessions the backend can end, tokens signed with its own
 * key) and, with single sign-on, the provider's users (its ID tokens, verified against its published keys).
 */
export class IdentityService {
  private readonly key: Uint8Array
  private readonly oidcVerifier: OidcTokenVerifier | undefined
  private decoyHash: Promise<string> | undefined
  /** Failed sign-ins by client address and account name: enough of them refuse that pair for a while. */
  private readonly failuresByAddress: FailureCounter
  /** Failed sign-ins by account name from any address: each one waits a little longer, never refused. */
  private readonly failuresByName: FailureCounter
  /**
   * The claims of local tokens whose signature, issuer and audience were checked, by token: a token's text never
   * changes, so neither does that check. Expiry is checked again on each call; the session and account are kept
   * apart, below.
   */
  private readonly verifiedTokens = new Map<string, JWTPayload>()
  /**
   * Live sessions' accounts as last read, by user and session: trusted for SESSION_KEPT_MS, and only while no
   * session, account, password or role has changed through this process since (credentialsGeneration).
   */
  private readonly keptSessions = new Map<string, { account: UserCredentials & { sessionExpiresAt: Date }; until: number; generation: number }>()

  constructor(
    private readonly db: Database,
    private readonly options: IdentityOptions,
  ) {
    // Without a configured secret, tokens last as long as this process; clients sign in again after a restart.
    this.key = new TextEncoder().encode(options.tokenSecret ?? randomBytes(48).toString('hex'))
    this.oidcVerifier = options.oidc ? new OidcTokenVerifier(options.oidc) : undefined
    this.failuresByAddress = new FailureCounter(db, { name: 'address', maxFailures: options.maxFailures, windowMs: options.lockSeconds * 1000 })
    this.failuresByName = new FailureCounter(db, { name: 'name', maxFailures: Number.POSITIVE_INFINITY, windowMs: options.lockSeconds * 1000 })
  }

  /**
   * Checks a username and password and starts a session. Every refusal is the same whether or not the account
   * exists: the same 401 message after the same work (an argon2 check), and the same 429 once this client address
   * has failed too often for this name (no lookup, no check). Other addresses are never refused for it.
   */
  async signIn(username: string, password: string, clientAddress = 'local'): Promise<SignedIn> {
    const addressKey = `${clientAddress}\n${username.toLowerCase()}`
    await this.refuseWhileLocked(addressKey)
    const account = await repository.findByUsername(this.db, username)
    const isValid = await this.checkPassword(account?.passwordHash ?? null, password)
    if (!account || !isValid || !account.enabled) {
      await this.failuresByAddress.recordFailure(addressKey)
      await this.delayAfterFailure(username)
      throw new UnauthorizedError(INVALID_CREDENTIALS)
    }
    await this.failuresByAddress.forget(addressKey)
    return this.startSession(account)
  }

  /** argon2 against the stored hash, or against a decoy when there is none, so that both take the same time. */
  private async checkPassword(passwordHash: string | null, password: string): Promise<boolean> {
    if (!passwordHash) {
      this.decoyHash ??= hash(randomBytes(16).toString('hex'))
      await verify(await this.decoyHash, password).catch(() => false)
      return false
    }
    return verify(passwordHash, password).catch(() => false)
  }

  /**
   * Slows repeated guessing of one name from anywhere: each failure after the first waits 250 ms more, up to 1 s.
   * Kept by name whether or not it exists, so the delay tells nothing about which accounts exist.
   */
  private async delayAfterFailure(username: string): Promise<void> {
    const failures = await this.failuresByName.recordFailure(username.toLowerCase())
    const delayMs = Math.min(failures - 1, MAX_FAILURE_DELAY_STEPS) * FAILURE_DELAY_STEP_MS
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs))
  }

  private async startSession(account: UserCredentials): Promise<SignedIn> {
    const sessionId = randomBytes(18).toString('base64url')
    const session = await repository.createSession(this.db, { id: sessionId, userId: account.id, maxSeconds: this.options.sessionMaxSeconds })
    const user = { ...this.toCurrentUser(account), sessionId }
    return this.tokenFor(user, { id: sessionId, startedAt: session.startedAt, expiresAt: session.expiresAt })
  }

  /** A token for a session: it names the session and the sign-in time, and never outlives the session. */
  private async tokenFor(user: CurrentUser, session: { id: string; startedAt: Date; expiresAt: Date }): Promise<SignedIn> {
    const now = Math.floor(Date.now() / 1000)
    const sessionEnd = Math.floor(session.expiresAt.getTime() / 1000)
    const expiresAt = Math.min(now + this.options.tokenTtlSeconds, sessionEnd)
    if (expiresAt <= now) throw new UnauthorizedError(ENDED_SESSION)
    const accessToken = await new SignJWT({ org: user.organizationId, sid: session.id, auth_time: Math.floor(session.startedAt.getTime() / 1000) })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(String(user.id))
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt(now)
      .setExpirationTime(expiresAt)
      .sign(this.key)
    return { accessToken, expiresIn: expiresAt - now, user }
  }

  /**
   * Verifies a bearer token and loads its user as they are now (role changes apply at once). The unverified
   * issuer only picks the verifier: our own key for local tokens, the provider's keys for its ID tokens.
   */
  async authenticate(token: string): Promise<CurrentUser> {
    // A token already verified as a local one needs no decoding to tell which it is.
    if (!this.verifiedTokens.has(token)) {
      let issuer: string | undefined
      try {
        issuer = decodeJwt(token).iss
      } catch {
        throw new UnauthorizedError(INVALID_TOKEN)
      }
      if (this.oidcVerifier && issuer === this.oidcVerifier.issuer) return this.authenticateExternal(token)
    }
    const { user } = await this.findLocalSession(token)
    return user
  }

  /**
   * A fresh local token for a still-valid one, in the same session: it keeps the sign-in time and never reaches
   * past the session's end, so renewal cannot keep a session alive for ever.
   */
  async refresh(token: string): Promise<SignedIn> {
    if (this.oidcVerifier && this.issuerOf(token) === this.oidcVerifier.issuer) {
      throw new AppError(400, 'Bad Request', "The sign-in provider's tokens are renewed with the provider, not here")
    }
    const { user, session } = await this.findLocalSession(token)
    return this.tokenFor(user, session)
  }

  /**
   * Ends the session of this token. For the provider's tokens (they carry no session of ours): refuses this one and
   * every one issued to the user before this second, while a sign-in at the provider from now on works, even within
   * this second (repository.endProviderSignIn).
   */
  async signOut(user: CurrentUser, token?: string): Promise<void> {
    if (user.sessionId) return repository.deleteSession(this.db, user.id, user.sessionId)
    const issuedAt = token && this.oidcVerifier && this.issuerOf(token) === this.oidcVerifier.issuer ? decodeJwt(token).iat : undefined
    if (typeof issuedAt === 'number' && Number.isFinite(issuedAt)) return repository.endProviderSignIn(this.db, user.id, Math.floor(issuedAt))
    return repository.endSessions(this.db, user.id)
  }

  /**
   * Ends every session of a user (a password change, a disabled account), except `keepSessionId`: the caller's own
   * session when they changed their own password.
   */
  endSessions(userId: number, keepSessionId?: string): Promise<void> {
    return repository.endSessions(this.db, userId, keepSessionId)
  }

  /** The 429 of an address locked out for an account name, saying how long the lock has still to run. */
  private async refuseWhileLocked(addressKey: string): Promise<void> {
    const refusedForMs = await this.failuresByAddress.refusedForMs(addressKey)
    if (refusedForMs > 0) throw new AppError(429, 'Too Many Requests', tooManyFailuresMessage(refusedForMs))
  }

  /**
   * A signed-in local account changes its own password, proving it knows the current one. A wrong current password
   * counts as a failed sign-in from this address. Every other session of the account ends; this one goes on.
   */
  async changeOwnPassword(caller: CurrentUser, change: { currentPassword: string; newPassword: string }, clientAddress = 'local'): Promise<void> {
    const account = await repository.findById(this.db, caller.id)
    if (!account?.passwordHash) {
      throw new InvalidInputError('current_password', 'This account signs in through the sign-in provider; change the password there')
    }
    const addressKey = `${clientAddress}\n${account.username.toLowerCase()}`
    await this.refuseWhileLocked(addressKey)
    if (!(await this.checkPassword(account.passwordHash, change.currentPassword))) {
      await this.failuresByAddress.recordFailure(addressKey)
      await this.delayAfterFailure(account.username)
      throw new InvalidInputError('current_password', 'The current password is not correct')
    }
    await repository.setPasswordHash(this.db, account.id, await hashPassword(change.newPassword))
    await repository.endSessions(this.db, account.id, caller.sessionId)
  }

  private issuerOf(token: string): string | undefined {
    try {
      return decodeJwt(token).iss
    } catch {
      return undefined
    }
  }

  /** The user and session of a local token: its signature, its session still open, its sign-in recent enough. */
  private async findLocalSession(token: string): Promise<{ user: CurrentUser; session: { id: string; startedAt: Date; expiresAt: Date } }> {
    const payload = await this.verifiedLocalToken(token)
    const { sub, sid, auth_time: authTime } = payload
    if (!sub || !/^\d+$/.test(sub) || typeof sid !== 'string' || typeof authTime !== 'number') throw new UnauthorizedError(INVALID_TOKEN)
    // The session's end was fixed at sign-in; a lower SESSION_MAX_SECONDS since then applies too.
    const latestEnd = new Date((authTime + this.options.sessionMaxSeconds) * 1000)
    if (latestEnd.getTime() <= Date.now()) throw new UnauthorizedError(ENDED_SESSION)
    const account = await this.sessionAccount(Number(sub), sid)
    if (!account) throw new UnauthorizedError(ENDED_SESSION)
    if (!account.enabled) throw new UnauthorizedError('The bearer token belongs to no enabled user')
    const expiresAt = account.sessionExpiresAt < latestEnd ? account.sessionExpiresAt : latestEnd
    return { user: { ...this.toCurrentUser(account), sessionId: sid }, session: { id: sid, startedAt: new Date(authTime * 1000), expiresAt } }
  }

  /** A live session's account: as kept, when it was read recently and nothing changed since; else read again. */
  private async sessionAccount(userId: number, sessionId: string): Promise<(UserCredentials & { sessionExpiresAt: Date }) | undefined> {
    const key = `${userId} ${sessionId}`
    const now = Date.now()
    const kept = this.keptSessions.get(key)
    if (kept && kept.until > now && kept.generation === credentialsGeneration()) return kept.account
    this.keptSessions.delete(key)
    const generation = credentialsGeneration()
    const account = await repository.findBySession(this.db, userId, sessionId)
    if (!account || generation !== credentialsGeneration()) return account
    if (this.keptSessions.size >= SESSIONS_KEPT) this.keptSessions.delete(this.keptSessions.keys().next().value!)
    this.keptSessions.set(key, { account, until: Math.min(now + SESSION_KEPT_MS, account.sessionExpiresAt.getTime()), generation })
    return account
  }

  /** The checked claims of a local token (its signature checked once per token, its expiry on every call). */
  private async verifiedLocalToken(token: string): Promise<JWTPayload> {
    const known = this.verifiedTokens.get(token)
    if (known && (known.exp === undefined || known.exp * 1000 > Date.now())) return known
    this.verifiedTokens.delete(token)
    const payload = await jwtVerify(token, this.key, { issuer: ISSUER, audience: AUDIENCE, algorithms: ['HS256'] }).then(
      (verified) => verified.payload,
      () => {
        throw new UnauthorizedError(INVALID_TOKEN)
      },
    )
    // The oldest entry makes room (a Map keeps insertion order).
    if (this.verifiedTokens.size >= VERIFIED_TOKENS_KEPT) this.verifiedTokens.delete(this.verifiedTokens.keys().next().value!)
    this.verifiedTokens.set(token, payload)
    return payload
  }

  /** The provider's user for a verified ID token: found by issuer and subject, created on first sight. */
  private async authenticateExternal(token: string): Promise<CurrentUser> {
    const oidc = this.options.oidc!
    let claims: JWTPayload & { sub: string }
    try {
      claims = await this.oidcVerifier!.verify(token)
    } catch (error) {
      if (error instanceof AppError) throw error
      // A failed check of the token is the caller's problem; the provider's keys being out of reach is not.
      if (error instanceof joseErrors.JOSEError && !(error instanceof joseErrors.JWKSTimeout)) throw new UnauthorizedError(INVALID_TOKEN)
      throw new AppError(503, 'Service Unavailable', `The sign-in provider's keys could not be fetched (${(error as Error).message})`)
    }
    const externalSubject = `${claims.iss}|${claims.sub}`
    const claimedRole = roleFrom(claimAt(claims, oidc.roleClaim))
    const claimedOrganization = firstString(claimAt(claims, oidc.organizationClaim))
    const claimedOrganizationId = claimedOrganization ? await repository.organizationIdByName(this.db, claimedOrganization) : undefined

    let account = await repository.findByExternalSubject(this.db, externalSubject)
    if (!account) {
      const organizationId = claimedOrganizationId ?? (await this.defaultOrganizationId())
      const groupId = await this.groupFor(organizationId, claimedRole ?? oidc.defaultRole)
      account = await this.createExternalUser(claims, externalSubject, organizationId, groupId)
    } else if ((claimedRole && claimedRole !== account.role) || (claimedOrganizationId && claimedOrganizationId !== account.organizationId)) {
      // The provider is the source of truth for what its claims say; what they leave out, administrators manage here.
      const organizationId = claimedOrganizationId ?? account.organizationId
      const groupId = await this.groupFor(organizationId, claimedRole ?? account.role)
      await repository.moveToGroup(this.db, account.id, organizationId, groupId)
      account = await repository.findByExternalSubject(this.db, externalSubject)
    }
    if (!account || !account.enabled) throw new UnauthorizedError('The bearer token belongs to no enabled user')
    // Signed out, or disabled since: the provider's tokens issued until then are refused (iat has whole seconds).
    if (account.tokensValidAfter && typeof claims.iat === 'number' && claims.iat <= Math.floor(account.tokensValidAfter.getTime() / 1000)) {
      throw new UnauthorizedError(ENDED_SESSION)
    }
    return this.toCurrentUser(account)
  }

  private async defaultOrganizationId(): Promise<number> {
    const name = this.options.oidc?.defaultOrganization
    const named = name ? await repository.organizationIdByName(this.db, name) : undefined
    return named ?? repository.defaultOrganizationId(this.db)
  }

  private async groupFor(organizationId: number, role: Role): Promise<number> {
    const groupId = await repository.groupOfRole(this.db, organizationId, role)
    if (!groupId) throw new ForbiddenError(`Your organisation has no group for the ${role} role; ask an administrator`)
    return groupId
  }

  private async createExternalUser(claims: JWTPayload & { sub: string }, externalSubject: string, organizationId: number, groupId: number) {
    const email = firstString(claims.email)
    const digest = createHash('sha256').update(externalSubject).digest('hex').slice(0, 16)
    // Usernames follow the registration rules (3 to 60 of letters, digits, . _ @ -), leaving room for a -N suffix.
    const wanted = (firstString(claims.preferred_username) ?? email ?? claims.sub).replace(/[^\p{L}\p{N}._@-]+/gu, '-').slice(0, 54)
    const base = wanted.length >= 3 ? wanted : `user-${digest.slice(0, 8)}`
    // The provider's email is kept unless a local account has it: accounts are never joined by email (that would let
    // whoever controls an address at the provider take over the local account).
    let isEmailFree = Boolean(email && email.length <= 254 && /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email) && !(await repository.isEmailTaken(this.db, email)))
    for (let attempt = 0; attempt < 5; attempt++, isEmailFree = false) {
      const taken = await repository.takenUsernames(this.db, base)
      let username = base
      for (let suffix = 2; taken.has(username.toLowerCase()); suffix++) username = `${base}-${suffix}`
      const id = await repository.insertExternalUser(this.db, {
        username,
        email: isEmailFree && email ? email : `${digest}@users.sign-in.invalid`,
        firstName: firstString(claims.given_name) ?? '',
        lastName: firstString(claims.family_name) ?? '',
        organizationId,
        groupId,
        externalSubject,
      })
      const account = await repository.findByExternalSubject(this.db, externalSubject)
      if (account) return account // ours, or a concurrent first request's
      if (id !== undefined) break
      // A username or the email was taken meanwhile: pick again, with the placeholder email.
    }
    throw new AppError(409, 'Conflict', 'Could not create an account for this sign-in; try again')
  }

  /**
   * Makes sure the built-in administrator exists, and has the configured password. It is the row marked as built-in,
   * never a row found by name: a restart changes nobody's role and takes over no account. The first start creates
   * it with the configured username; when that name belongs to another account, start-up stops with a message
   * rather than promote that account. Safe when several processes start together (one creates, the others find it).
   */
  async ensureAdministrator(admin: { username: string; email: string; password: string }): Promise<number> {
    const passwordHash = await hashPassword(admin.password)
    return this.db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1, hashtext(current_schema()))', [BUILTIN_ADMIN_LOCK])
      const existing = await repository.findBuiltinAdministrator(tx)
      if (existing) {
        // A new ADMIN_PASSWORD is a password change: it ends the administrator's sessions. The same one changes nothing.
        if (!existing.passwordHash || !(await verify(existing.passwordHash, admin.password).catch(() => false))) {
          await repository.setPasswordHash(tx, existing.id, passwordHash)
          await repository.endSessions(tx, existing.id)
        }
        return existing.id
      }
      const organizationId = await repository.defaultOrganizationId(tx)
      const groupId = await repository.groupOfRole(tx, organizationId, 'admin')
      if (!groupId) throw new Error('The default organisation has no administrators group')
      const id = await repository.insertBuiltinAdministrator(tx, { ...admin, passwordHash, organizationId, groupId })
      if (id !== undefined) return id
      const holder = (await repository.findByUsername(tx, admin.username)) ? `ADMIN_USERNAME "${admin.username}"` : `ADMIN_EMAIL "${admin.email}"`
      throw new Error(
        `Cannot create the built-in administrator: ${holder} belongs to an existing account, which is not made an administrator. ` +
          'Set ADMIN_USERNAME and ADMIN_EMAIL to ones no account has.',
      )
    })
  }

  private toCurrentUser(account: CurrentUser): CurrentUser {
    return { id: account.id, username: account.username, role: account.role, organizationId: account.organizationId, groupId: account.groupId }
  }
}

/** The value at a claim name, or at a dotted path into nested claims (e.g. realm_access.roles). */
function claimAt(claims: JWTPayload, path: string): unknown {
  if (path in claims) return claims[path]
  let value: unknown = claims
  for (const part of path.split('.')) {
    if (!value || typeof value !== 'object') return undefined
    value = (value as Record<string, unknown>)[part]
  }
  return value
}

function firstString(value: unknown): string | undefined {
  const first = Array.isArray(value) ? value.find((item) => typeof item === 'string' && item.trim()) : value
  return typeof first === 'string' && first.trim() ? first.trim() : undefined
}

/** admin, editor or user from a claim holding one role or a list of them (the highest wins). */
function roleFrom(value: unknown): Role | undefined {
  const values = (Array.isArray(value) ? value : [value]).filter((item): item is string => typeof item === 'string').map((item) => item.toLowerCase())
  return ROLES.find((role) => values.includes(role))
}
