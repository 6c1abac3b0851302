import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { ApiKeyCreate, ApiKeyCreated, ApiKeyList, ApiKeyParams, ApiKeyRevoked } from '../../../../contracts/api-keys'
import { currentUser } from '../../plugins/access'
import type { ApiKeysService } from './api-keys.service'

/** Administrators create, list and revoke keys for integrations. */
export const apiKeysRoutes =
  (keys: ApiKeysService): FastifyPluginAsyncZod =>
  async (app) => {
    app.get('/admin/api_keys', { config: { access: 'admin' }, schema: { tags: ['api keys'], response: { 200: ApiKeyList } } }, () => keys.list())

    app.post(
      '/admin/api_keys',
      { config: { access: 'admin' }, schema: { tags: ['api keys'], body: ApiKeyCreate, response: { 200: ApiKeyCreated } } },
      async (request) => {
        const created = await keys.create(currentUser(request), request.body)
        return { success: true as const, message: `API key "${created.name}" created: copy it now, it is not shown again`, ...created }
      },
    )

    app.delete(
      '/admin/api_keys/:id',
      { config: { access: 'admin' }, schema: { tags: ['api keys'], params: ApiKeyParams, response: { 200: ApiKeyRevoked } } },
      async (request) => {
        const revoked = await keys.revoke(request.params.id)
        return { success: true as const, message: `API key "${revoked.name}" revoked`, id: revoked.id }
      },
    )
  }
