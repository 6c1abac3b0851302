import { timingSafeEqual } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import type { CurrentUser } from '../modules/identity/identity.types'

declare module 'fastify' {
  interface FastifyRequest {
    /** Whom an integration key acts as, when the apikey was one (see registerAccess). */
    integrationUser: CurrentUser | null
  }
}

/** Keys administrators made for integrations: who a key acts as, or undefined when it is none of them. */
export interface IntegrationKeys {
  authenticate(key: string): Promise<CurrentUser | undefined>
}

const PUBLIC_PATHS = [/^\/healthz$/, /^\/docs(\/.*)?$/]

/**
 * Requires an API key, as the `apikey` header or query parameter, on every call but health and docs: the web server's
 * own (API_KEY), or a key made for an integration, which also says whom the call acts as.
 */
export function registerApiKey(app: FastifyInstance, apiKey: string, integrationKeys?: IntegrationKeys): void {
  const expected = Buffer.from(apiKey)
  app.decorateRequest('integrationUser', null)
  app.addHook('onRequest', async (request, reply) => {
    const path = request.url.split('?')[0]
    if (PUBLIC_PATHS.some((pattern) => pattern.test(path))) return
    const fromHeader = request.headers.apikey
    const fromQuery = (request.query as Record<string, unknown> | undefined)?.apikey
    const given = typeof fromHeader === 'string' ? fromHeader : typeof fromQuery === 'string' ? fromQuery : undefined
    if (given === undefined) {
      return reply.status(401).send({ success: false, error: 'Unauthorized', message: 'The apikey header or query parameter is required' })
    }
    const candidate = Buffer.from(given)
    if (candidate.length === expected.length && timingSafeEqual(candidate, expected)) return
    const integrationUser = await integrationKeys?.authenticate(given)
    if (integrationUser) {
      request.integrationUser = integrationUser
      return
    }
    return reply.status(401).send({ success: false, error: 'Unauthorized', message: 'The apikey is not valid' })
  })
}
