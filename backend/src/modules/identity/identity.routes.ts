import type { RateLimitOptions } from '@fastify/rate-limit'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { CurrentUserAnswer, SignInBody, SignInAnswer, SignOutAnswer } from '../../../../contracts/identity'
import { PasswordChange, PasswordChanged } from '../../../../contracts/users'
import { AppError } from '../../errors'
import { bearerTokenOf, currentUser } from '../../plugins/access'
import type { IdentityService, SignedIn } from './identity.service'

export interface IdentityRouteOptions {
  /** Sign-in attempts (and own password changes) per minute from one client address. */
  signInsPerMinute: number
}

/** A per-client-address limit on a route, answered like every other error; counted by @fastify/rate-limit. */
export function perAddressLimit(max: number, timeWindowMs: number, what: string): RateLimitOptions {
  return {
    max,
    timeWindow: timeWindowMs,
    keyGenerator: (request) => request.clientAddress,
    errorResponseBuilder: (_request, context) => new AppError(429, 'Too Many Requests', `Too many ${what} from this address; try again in ${context.after}`),
  }
}

export const identityRoutes =
  (identity: IdentityService, options: IdentityRouteOptions): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      '/auth/login',
      {
        config: { access: 'public', rateLimit: perAddressLimit(options.signInsPerMinute, 60_000, 'sign-in attempts') },
        schema: { tags: ['identity'], body: SignInBody, response: { 200: SignInAnswer } },
      },
      async (request) => toAnswer(await identity.signIn(request.body.username, request.body.password, request.clientAddress)),
    )
    // A new local token for a still-valid one, in the same session: the web server renews sessions ahead of expiry with it.
    app.post('/auth/refresh', { config: { access: 'user' }, schema: { tags: ['identity'], response: { 200: SignInAnswer } } }, async (request) =>
      toAnswer(await identity.refresh(bearerTokenOf(request) ?? '')),
    )
    app.post('/auth/logout', { config: { access: 'user' }, schema: { tags: ['identity'], response: { 200: SignOutAnswer } } }, async (request) => {
      await identity.signOut(currentUser(request), bearerTokenOf(request))
      return { success: true as const, message: 'Signed out' }
    })
    app.post(
      '/auth/password',
      {
        config: { access: 'user', rateLimit: perAddressLimit(options.signInsPerMinute, 60_000, 'password attempts') },
        schema: { tags: ['identity'], body: PasswordChange, response: { 200: PasswordChanged } },
      },
      async (request) => {
        const change = { currentPassword: request.body.current_password, newPassword: request.body.new_password }
        await identity.changeOwnPassword(currentUser(request), change, request.clientAddress)
        return { success: true as const, message: 'Password changed; your other sessions have ended' }
      },
    )
    app.get('/auth/me', { schema: { tags: ['identity'], response: { 200: CurrentUserAnswer } } }, async (request) => toAnswerUser(currentUser(request)))
  }

const toAnswer = (session: SignedIn) => ({
  success: true as const,
  access_token: session.accessToken,
  token_type: 'Bearer' as const,
  expires_in: session.expiresIn,
  user: toAnswerUser(session.user),
})

const toAnswerUser = (user: { id: number; username: string; role: 'admin' | 'editor' | 'user'; organizationId: number; groupId: number }) => ({
  id: user.id,
  username: user.username,
  role: user.role,
  organization_id: user.organizationId,
  group_id: user.groupId,
})
