import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import type { FastifyInstance } from 'fastify'
import { jsonSchemaTransform } from 'fastify-type-provider-zod'
import { DOCS_CSP } from './security-headers'

/** Publishes the OpenAPI document built from the routes' zod schemas, browsable at /docs. */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      info: { title: 'Knowledge assistant API', description: 'The backend of the knowledge-base assistant.', version: '0.1.0' },
      components: { securitySchemes: { apikey: { type: 'apiKey', name: 'apikey', in: 'header' } } },
      security: [{ apikey: [] }],
    },
    transform: jsonSchemaTransform,
  })
  // Its pages need their own scripts and styles: a policy of their own instead of the API's (security-headers.ts).
  await app.register(swaggerUi, { routePrefix: '/docs', staticCSP: DOCS_CSP })
}
