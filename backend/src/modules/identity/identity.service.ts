import { randomBytes } from 'node:crypto'
import { hash, verify } from '@node-rs/argon2'
import { createHash } from 'node:crypto'
import { decodeJwt, errors as joseErrors, jwtVerify, SignJWT, type JWTPayload } from 'jose'
import type { Config } from '../../config'
import type { Database } from '../../db/database'
import { AppError } from '../../errors'
import { identityRepository as repository } from './identity.repository'
import type { CurrentUser, Role } from './identity.types'
import { OidcTokenVerifier } from './oidc-token-verifier'

const ISSUER = 'knowledge-assistant'
const AUDIENCE = 'knowledge-assistant-api'
export const INVALID_CREDENTIALS = 'Invalid username or password'

export interface IdentityOptions {
  tokenSecret?: string
  tokenTtlSeconds: number
  maxFailures: number
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

const INVALID_TOKEN = 'The bearer token is not valid or has expired'
const FAILURE_DELAY_STEP_MS = 250
const MAX_TRACKED_USERNAMES = 10_000
const ROLES: Role[] = ['admin', 'editor', 'user']

/**
 * Who may call: local accounts (argon2 password checks with lockout, bearer tokens signed with the backend's own key)
 * and, with single sign-on, the provider's users (its ID tokens, verified against its published keys).
 */
export class IdentityService {
  private readonly key: Uint8Array
  private readonly oidcVerifier: OidcTokenVerifier | undefined
  private decoyHash: Promise<string> | undefined
  /** Recent failed sign-ins by lower-cased username, known or not, for the growing delay. */
  private readonly recentFailures = new Map<string, { count: number; at: number }>()

  constructor(
    private readonly db: Database,
    private readonly options: IdentityOptions,
  ) {
    // Without a configured secret, tokens last as long as this process; clients sign in again after a restart.
    this.key = new TextEncoder().encode(options.tokenSecret ?? randomBytes(48).toString('hex'))
    this.oidcVerifier = options.oidc ? new OidcTokenVerifier(options.oidc) : undefined
  }

  /** Checks a username and password; the same message whatever was wrong. */
  async signIn(username: string, password: string): Promise<{ accessToken: string; expiresIn: number; user: CurrentUser }> {
    const account = await repository.findByUsername(this.db, username)
    if (!account || !account.passwordHash) {
      // Spend the same effort as a real check so timing does not reveal which usernames exist.
      this.decoyHash ??= hash(randomBytes(16).toString('hex'))
      await verify(await this.decoyHash, password).catch(() => false)
      await this.delayAfterFailure(username)
      throw new UnauthorizedError(INVALID_CREDENTIALS)
    }
    if (account.lockedUntil && account.lockedUntil > new Date()) {
      throw new AppError(429, 'Too Many Requests', 'Too many failed sign-in attempts; try again later')
    }
    const isValid = await verify(account.passwordHash, password).catch(() => false)
    if (!isValid || !account.enabled) {
      if (!isValid) await repository.recordFailure(this.db, account.id, this.options.maxFailures, this.options.lockSeconds)
      await this.delayAfterFailure(username)
      throw new UnauthorizedError(INVALID_CREDENTIALS)
    }
    this.recentFailures.delete(username.toLowerCase())
    await repository.recordSuccess(this.db, account.id)
    const user = this.toCurrentUser(account)
    return { accessToken: await this.issueToken(user), expiresIn: this.options.tokenTtlSeconds, user }
  }

  /**
   * Slows repeated guessing before the lockout: each failure after the first waits 250 ms more, up to 1 s. Kept by
   * username whether or not it exists, so the delay tells nothing about which accounts exist.
   */
  private async delayAfterFailure(username: string): Promise<void> {
    const key = username.toLowerCase()
    const now = Date.now()
    const previous = this.recentFailures.get(key)
    const count = previous && now - previous.at < this.options.lockSeconds * 1000 ? previous.count : 0
    this.recentFailures.delete(key)
    this.recentFailures.set(key, { count: count + 1, at: now })
    // Bounded memory: forget the oldest entries (a Map iterates in insertion order).
    for (const oldest of this.recentFailures.keys()) {
      if (this.recentFailures.size <= MAX_TRACKED_USERNAMES) break
      this.recentFailures.delete(oldest)
    }
    const delayMs = Math.min(count, 4) * FAILURE_DELAY_STEP_MS
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs))
  }

  async issueToken(user: CurrentUser): Promise<string> {
    return new SignJWT({ org: user.organizationId })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(String(user.id))
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt()
      .setExpirationTime(`${this.options.tokenTtlSeconds}s`)
      .sign(this.key)
  }

  /**
   * Verifies a bearer token and loads its user as they are now (role changes apply at once). The unverified
   * issuer only picks the verifier: our own key for local tokens, the provider's keys for its ID tokens.
   */
  async authenticate(token: string): Promise<CurrentUser> {
    let issuer: string | undefined
    try {
      issuer = decodeJwt(token).iss
    } catch {
      throw new UnauthorizedError(INVALID_TOKEN)
    }
    if (this.oidcVerifier && issuer === this.oidcVerifier.issuer) return this.authenticateExternal(token)
    const account = await this.findLocalAccount(token)
    if (!account || !account.enabled) throw new UnauthorizedError('The bearer token belongs to no enabled user')
    return this.toCurrentUser(account)
  }

  /** A fresh local token for a still-valid local one, so a signed-in session can outlive one token. */
  async refresh(token: string): Promise<{ accessToken: string; expiresIn: number; user: CurrentUser }> {
    if (this.oidcVerifier && this.issuerOf(token) === this.oidcVerifier.issuer) {
      throw new AppError(400, 'Bad Request', "The sign-in provider's tokens are renewed with the provider, not here")
    }
    const account = await this.findLocalAccount(token)
    if (!account || !account.enabled) throw new UnauthorizedError('The bearer token belongs to no enabled user')
    const user = this.toCurrentUser(account)
    return { accessToken: await this.issueToken(user), expiresIn: this.options.tokenTtlSeconds, user }
  }

  private issuerOf(token: string): string | undefined {
    try {
      return decodeJwt(token).iss
    } catch {
      return undefined
    }
  }

  private async findLocalAccount(token: string) {
    let subject: string | undefined
    try {
      const { payload } = await jwtVerify(token, this.key, { issuer: ISSUER, audience: AUDIENCE, algorithms: ['HS256'] })
      subject = payload.sub
    } catch {
      throw new UnauthorizedError(INVALID_TOKEN)
    }
    return subject && /^\d+$/.test(subject) ? repository.findById(this.db, Number(subject)) : undefined
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

  /** Makes sure the configured administrator exists with the configured password. */
  async ensureAdministrator(admin: { username: string; email: string; password: string }): Promise<number> {
    const organizationId = await repository.defaultOrganizationId(this.db)
    const groupId = await repository.groupOfRole(this.db, organizationId, 'admin')
    if (!groupId) throw new Error('The default organisation has no administrators group')
    return repository.upsertAdministrator(this.db, { ...admin, passwordHash: await hashPassword(admin.password), organizationId, groupId })
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
