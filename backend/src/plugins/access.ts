import type { FastifyInstance } from 'fastify'
import { ForbiddenError, UnauthorizedError, type IdentityService } from '../modules/identity/identity.service'
import { hasRole, type Access, type CurrentUser } from '../modules/identity/identity.types'

declare module 'fastify' {
  interface FastifyRequest {
    user: CurrentUser | null
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
export function registerAccess(app: FastifyInstance, identity: IdentityService): void {
  app.decorateRequest('user', null)
  app.addHook('onRequest', async (request) => {
    const token = bearerTokenOf(request)
    if (token) request.user = await identity.authenticate(token)
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
