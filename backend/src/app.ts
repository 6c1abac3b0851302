import Fastify, { type FastifyInstance } from 'fastify'
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod'
import type { Config } from './config'
import { openDatabase, type Database } from './db/database'
import { migrate } from './db/migrate'
import { loadDemoContentOnce } from './demo/demo-content'
import { JobQueue } from './jobs/job-queue'
import { agentsRoutes } from './modules/agents/agents.routes'
import { AgentsService } from './modules/agents/agents.service'
import { articlesRoutes } from './modules/articles/articles.routes'
import { ArticlesService } from './modules/articles/articles.service'
import { askRoutes } from './modules/ask/ask.routes'
import { AskService } from './modules/ask/ask.service'
import { documentsRoutes } from './modules/documents/documents.routes'
import { DocumentsService } from './modules/documents/documents.service'
import { ingestRepository } from './modules/ingest/ingest.repository'
import { healthRoutes } from './modules/health/health.routes'
import { identityRoutes } from './modules/identity/identity.routes'
import { IdentityService, identityOptionsFrom } from './modules/identity/identity.service'
import { ingestRoutes } from './modules/ingest/ingest.routes'
import { createIngestService, type IngestOverrides } from './modules/ingest/ingest.service'
import { KnowledgeService } from './modules/knowledge/knowledge.service'
import { queryLogsRoutes } from './modules/query-logs/query-logs.routes'
import { QueryLogsService } from './modules/query-logs/query-logs.service'
import { settingsRoutes } from './modules/settings/settings.routes'
import { SettingsService } from './modules/settings/settings.service'
import { templatesRoutes } from './modules/templates/templates.routes'
import { TemplatesService } from './modules/templates/templates.service'
import { usersRoutes } from './modules/users/users.routes'
import { UsersService } from './modules/users/users.service'
import type { Access } from './modules/identity/identity.types'
import { accessOf, registerAccess } from './plugins/access'
import { registerApiKey } from './plugins/apikey'
import { registerErrorHandling } from './plugins/errors'
import { registerOpenApi } from './plugins/openapi'

export interface Backend {
  app: FastifyInstance
  db: Database
  jobs: JobQueue
  services: { articles: ArticlesService; ask: AskService; knowledge: KnowledgeService; settings: SettingsService; identity: IdentityService; agents: AgentsService }
  /** Every route with the access it requires (for the access-matrix and property tests, and the docs). */
  routes: { method: string; url: string; access: Access }[]
  /** Stops the worker, the HTTP server and the database, in that order. */
  close(): Promise<void>
}

export interface BuildOptions {
  /** Where the demo articles live; loaded on the first start of an empty installation when set. */
  demoDirectory?: string
  /** Fakes of ingestion's external services (DNS, transcript source), for tests. */
  ingest?: IngestOverrides
}

/** Opens storage, applies migrations, wires the services and their routes. Nothing listens yet. */
export async function buildBackend(config: Config, options: BuildOptions = {}): Promise<Backend> {
  const db = await openDatabase({ url: config.DATABASE_URL, dataDir: config.DATA_DIR })
  try {
    await migrate(db)
    const jobs = new JobQueue(db, { pollMs: config.JOB_POLL_MS })
    const knowledge = new KnowledgeService(db)
    const settings = new SettingsService(db, config.LLM_MODELS, () => ingestRepository.botInfoLists(db))
    const articles = new ArticlesService(db, knowledge, jobs)
    const agents = new AgentsService(db, jobs, knowledge, settings)
    const ask = new AskService(db, jobs, knowledge, settings, config.ASK_WAIT_MS, agents)
    const logs = new QueryLogsService(db)
    const templates = new TemplatesService(db)
    const users = new UsersService(db)
    const documents = new DocumentsService()
    const ingest = createIngestService(db, jobs, config, options.ingest)
    const identity = new IdentityService(db, identityOptionsFrom(config))
    if (config.ADMIN_PASSWORD) {
      await identity.ensureAdministrator({ username: config.ADMIN_USERNAME, email: config.ADMIN_EMAIL, password: config.ADMIN_PASSWORD })
    }

    if (config.LOAD_DEMO_CONTENT && options.demoDirectory) await loadDemoContentOnce(db, articles, options.demoDirectory)
    await knowledge.load()

    const app = Fastify({
      logger: config.LOG_LEVEL === 'silent' ? false : { level: config.LOG_LEVEL },
      bodyLimit: config.BODY_LIMIT_BYTES,
      // Malformed URLs and headers are refused before routing; answer them in the same JSON shape as everything else.
      frameworkErrors: (error, _request, reply) => {
        const body = JSON.stringify({ success: false, error: 'Bad Request', message: error.message })
        // The reply here is not typed by any route schema, so its status and body are given untyped.
        void reply.code((error.statusCode ?? 400) as never).type('application/json').send(body as never)
      },
    }).withTypeProvider<ZodTypeProvider>()
    app.setValidatorCompiler(validatorCompiler)
    app.setSerializerCompiler(serializerCompiler)
    registerErrorHandling(app)
    registerApiKey(app, config.API_KEY)
    registerAccess(app, identity)
    const routes: Backend['routes'] = []
    app.addHook('onRoute', (route) => {
      for (const method of [route.method].flat()) {
        if (method !== 'HEAD' && !route.url.startsWith('/docs')) routes.push({ method, url: route.url, access: accessOf(route.url, route.config?.access) })
      }
    })
    await registerOpenApi(app)
    await app.register(healthRoutes(db))
    await app.register(identityRoutes(identity))
    await app.register(articlesRoutes(articles))
    await app.register(askRoutes(ask))
    await app.register(agentsRoutes(agents))
    await app.register(queryLogsRoutes(logs))
    await app.register(settingsRoutes(settings))
    await app.register(templatesRoutes(templates))
    await app.register(usersRoutes(users))
    await app.register(documentsRoutes(documents))
    await app.register(ingestRoutes(ingest))
    await app.ready()

    // On PGlite this process owns the database, so anything left "running" belonged to a process that died.
    if (config.RUN_WORKER) await jobs.start({ recoverAllRunning: db.kind === 'pglite' })

    return {
      app,
      db,
      jobs,
      routes,
      services: { articles, ask, knowledge, settings, identity, agents },
      async close() {
        // Crawls and uploads stop at their next page or file; otherwise jobs.stop() would wait for a whole crawl.
        ingest.stop()
        // Agent runs stop at once and resume from their last step on the next start.
        agents.stop()
        await jobs.stop()
        await app.close()
        await db.close()
      },
    }
  } catch (error) {
    await db.close().catch(() => undefined)
    throw error
  }
}
