import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { CurrentUserAnswer, SignInBody, SignInAnswer } from '../../../../contracts/identity'
import { bearerTokenOf, currentUser } from '../../plugins/access'
import type { IdentityService } from './identity.service'

export const identityRoutes =
  (identity: IdentityService): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      '/auth/login',
      { config: { access: 'public' }, schema: { tags: ['identity'], body: SignInBody, response: { 200: SignInAnswer } } },
      async (request) => {
        const session = await identity.signIn(request.body.username, request.body.password)
        return { success: true as const, access_token: session.accessToken, token_type: 'Bearer' as const, expires_in: session.expiresIn, user: toAnswerUser(session.user) }
      },
    )
    // A new local token for a still-valid one: the web server renews sessions ahead of expiry with it.
    app.post(
      '/auth/refresh',
      { config: { access: 'user' }, schema: { tags: ['identity'], response: { 200: SignInAnswer } } },
      async (request) => {
        const session = await identity.refresh(bearerTokenOf(request) ?? '')
        return { success: true as const, access_token: session.accessToken, token_type: 'Bearer' as const, expires_in: session.expiresIn, user: toAnswerUser(session.user) }
      },
    )
    app.get('/auth/me', { schema: { tags: ['identity'], response: { 200: CurrentUserAnswer } } }, async (request) => toAnswerUser(currentUser(request)))
  }

const toAnswerUser = (user: { id: number; username: string; role: 'admin' | 'editor' | 'user'; organizationId: number; groupId: number }) => ({
  id: user.id,
  username: user.username,
  role: user.role,
  organization_id: user.organizationId,
  group_id: user.groupId,
})
