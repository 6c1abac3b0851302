import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { Database } from '../../db/database'

const Health = z.object({ status: z.literal('ok'), database: z.enum(['pglite', 'postgres']) })

export const healthRoutes =
  (db: Database): FastifyPluginAsyncZod =>
  async (app) => {
    app.get('/healthz', { config: { access: 'public' }, schema: { tags: ['health'], security: [], response: { 200: Health } } }, async () => {
      await db.query('SELECT 1')
      return { status: 'ok' as const, database: db.kind }
    })
  }
