import { timingSafeEqual } from 'node:crypto'
import { isIP } from 'node:net'
import { normalizeIP } from '@fastify/rate-limit'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { ForbiddenError, UnauthorizedError, type IdentityService } from '../modules/identity/identity.service'
import { hasRole, type Access, type CurrentUser } from '../modules/identity/identity.types'

declare module 'fastify' {
  interface FastifyRequest {
    user: CurrentUser | null
    /** Whom sign-in and registration limits count against: see clientAddressOf. */
    clientAddress: string
  }
  interface FastifyContextConfig {
    /** Who may call the route; defaults to admin under /admin and to any signed-in user elsewhere. */
    access?: Access
  }
}

/** The route's required access: its own setting, else by path. */
export function accessOf(url: string, configured?: Access): Access {
  if (configured) return configured
  return url.startsWith('/admin/') ? 'admin' : 'user'
}

/**
 * Resolves the caller from `Authorization: Bearer …` (after the apikey check) and enforces each route's access
 * before its body is even parsed: 401 without a valid token, 403 when the role is not enough.
 */
export function registerAccess(app: FastifyInstance, identity: IdentityService, options: { apiKey: string }): void {
  app.decorateRequest('user', null)
  app.decorateRequest('clientAddress', '')
  app.addHook('onRequest', async (request) => {
    request.clientAddress = clientAddressOf(request, options.apiKey)
    const token = bearerTokenOf(request)
    // A bearer token says who calls; without one, an integration key acts as its own service account.
    if (token) request.user = await identity.authenticate(token)
    else if (request.integrationUser) request.user = request.integrationUser
    const path = request.routeOptions.url
    if (!path || path.startsWith('/docs') || path === '/healthz') return
    const access = accessOf(path, request.routeOptions.config?.access)
    if (access === 'public') return
    if (!request.user) throw new UnauthorizedError('Sign-in required: send a bearer token with this call')
    if (!hasRole(request.user, access)) throw new ForbiddenError(`This call needs the ${access} role`)
  })
}

/** The signed-in caller; routes that are not public can rely on it. */
export function currentUser(request: { user: CurrentUser | null }): CurrentUser {
  if (!request.user) throw new UnauthorizedError('Sign-in required: send a bearer token with this call')
  return request.user
}

/**
 * The token of `Authorization: Bearer …`, undefined without the header. The token is either the backend's own (local
 * accounts) or the single sign-on provider's ID token; IdentityService tells them apart and verifies both.
 */
export function bearerTokenOf(request: { headers: { authorization?: string } }): string | undefined {
  const header = request.headers.authorization
  if (!header) return undefined
  const match = /^Bearer\s+(.+)$/i.exec(header)
  if (!match) throw new UnauthorizedError('The Authorization header must be "Bearer <token>"')
  return match[1].trim()
}

/** The header in which the web server names the browser it calls for; trusted only with the backend's own API key. */
export const CLIENT_ADDRESS_HEADER = 'x-client-address'

/**
 * The address of the client a request is for. The web server calls on behalf of browsers, so the connection's
 * address is its own: it names the browser's address in X-Client-Address. That header counts only on a request
 * that carries the backend's own API key (API_KEY), which only the web server holds, and only when it is one IP
 * address; otherwise the connection's address counts.
 */
export function clientAddressOf(request: Pick<FastifyRequest, 'headers' | 'query' | 'ip'>, apiKey: string): string {
  const named = request.headers[CLIENT_ADDRESS_HEADER]
  const address = typeof named === 'string' && isIP(named.trim()) && hasServerKey(request, apiKey) ? named.trim() : request.ip || 'unknown'
  // IPv4 written as IPv6 counts as IPv4; an IPv6 address counts as its /64, which one client usually holds whole.
  return normalizeIP(address)
}

function hasServerKey(request: Pick<FastifyRequest, 'headers' | 'query'>, apiKey: string): boolean {
  const fromHeader = request.headers.apikey
  const fromQuery = (request.query as Record<string, unknown> | undefined)?.apikey
  const given = typeof fromHeader === 'string' ? fromHeader : typeof fromQuery === 'string' ? fromQuery : undefined
  if (given === undefined) return false
  const candidate = Buffer.from(given)
  const expected = Buffer.from(apiKey)
  return candidate.length === expected.length && timingSafeEqual(candidate, expected)
}
