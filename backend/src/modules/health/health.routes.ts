import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { Health, healthReport, type HealthSources } from './health'

export const healthRoutes =
  (sources: HealthSources): FastifyPluginAsyncZod =>
  async (app) => {
    app.get('/healthz', { config: { access: 'public' }, schema: { tags: ['health'], security: [], response: { 200: Health } } }, () =>
      healthReport(sources),
    )
  }
