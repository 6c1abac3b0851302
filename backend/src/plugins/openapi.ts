import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import type { FastifyInstance } from 'fastify'
import { jsonSchemaTransform } from 'fastify-type-provider-zod'

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
  await app.register(swaggerUi, { routePrefix: '/docs' })
}
