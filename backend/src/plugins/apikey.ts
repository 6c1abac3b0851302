import { timingSafeEqual } from 'node:crypto'
import type { FastifyInstance } from 'fastify'

const PUBLIC_PATHS = [/^\/healthz$/, /^\/docs(\/.*)?$/]

/** Requires the shared API key, as the `apikey` header or query parameter, on every call but health and docs. */
export function registerApiKey(app: FastifyInstance, apiKey: string): void {
  const expected = Buffer.from(apiKey)
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
    if (candidate.length !== expected.length || !timingSafeEqual(candidate, expected)) {
      return reply.status(401).send({ success: false, error: 'Unauthorized', message: 'The apikey is not valid' })
    }
  })
}
