import path from 'node:path'
import rateLimit from '@fastify/rate-limit'
import Fastify, { type FastifyInstance } from 'fastify'
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod'
import type { Config } from './config'
import { openDatabase, type Database } from './db/database'
import { migrate } from './db/migrate'
import { loadDemoContentOnce } from './demo/demo-content'
import { loadStarterTemplateOnce } from './demo/starter-template'
import { JobQueue } from './jobs/job-queue'
import { agentsRoutes } from './modules/agents/agents.routes'
import { apiKeysRoutes } from './modules/api-keys/api-keys.routes'
import { ApiKeysService } from './modules/api-keys/api-keys.service'
import { AgentsService } from './modules/agents/agents.service'
import { articlesRoutes } from './modules/articles/articles.routes'
import { ArticlesService } from './modules/articles/articles.service'
import { askRoutes } from './modules/ask/ask.routes'
import { AskService } from './modules/ask/ask.service'
import { createEmbeddingsProvider, createLlmProvider } from './llm'
import { createSearchRetriever, embeddingsProgress, openVectors, type SearchRetriever, type Vectors } from './vectors'
import { documentsRoutes } from './modules/documents/documents.routes'
import { DocumentsService } from './modules/documents/documents.service'
import { ingestRepository } from './modules/ingest/ingest.repository'
import { healthRoutes } from './modules/health/health.routes'
import { identityRoutes } from './modules/identity/identity.routes'
import { IdentityService, identityOptionsFrom } from './modules/identity/identity.service'
import { ingestRoutes } from './modules/ingest/ingest.routes'
import { createIngestService, type IngestOverrides } from './modules/ingest/ingest.service'
import { KnowledgeService } from './modules/knowledge/knowledge.service'
import { setKnowledgeLanguage } from './retrieval/text'
import { organizationsRoutes } from './modules/organizations/organizations.routes'
import { OrganizationsService } from './modules/organizations/organizations.service'
import { queryLogsRoutes } from './modules/query-logs/query-logs.routes'
import { QueryLogsService } from './modules/query-logs/query-logs.service'
import { settingsRoutes } from './modules/settings/settings.routes'
import { SettingsService } from './modules/settings/settings.service'
import { templatesRoutes } from './modules/templates/templates.routes'
import { TemplatesService } from './modules/templates/templates.service'
import { usersRoutes } from './modules/users/users.routes'
import { registrationOptionsFrom, UsersService } from './modules/users/users.service'
import type { Access } from './modules/identity/identity.types'
import { accessOf, registerAccess } from './plugins/access'
import { registerApiKey } from './plugins/apikey'
import { registerErrorHandling } from './plugins/errors'
import { BASELINE_HEADERS, registerSecurityHeaders } from './plugins/security-headers'
import { loggerOptions, type LogStream } from './plugins/logging'
import { registerOpenApi } from './plugins/openapi'
import { databaseRateLimitStore } from './plugins/shared-rate-limits'

export interface Backend {
  app: FastifyInstance
  db: Database
  jobs: JobQueue
  services: { articles: ArticlesService; ask: AskService; knowledge: KnowledgeService; settings: SettingsService; identity: IdentityService; agents: AgentsService; vectors: Vectors | undefined; retriever: SearchRetriever }
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
  /** Where log lines go instead of standard output (tests read them). */
  logStream?: LogStream
}

/** Opens storage, applies migrations, wires the services and their routes. Nothing listens yet. */
export async function buildBackend(config: Config, options: BuildOptions = {}): Promise<Backend> {
  const db = await openDatabase({ url: config.DATABASE_URL, dataDir: config.DATA_DIR })
  try {
    await migrate(db)
    const jobs = new JobQueue(db, { pollMs: config.JOB_POLL_MS, heartbeatMs: config.JOB_HEARTBEAT_MS, staleAfterMs: config.JOB_STALE_MS })
    // A throw-away database gets no snapshot: its index is rebuilt at every start anyway (ADR 145).
    const snapshotFile = config.DATABASE_URL?.startsWith('memory://') ? undefined : path.join(config.DATA_DIR, 'index', 'keyword-index.snapshot')
    // Before anything is indexed or asked: the articles' and the questions' words become terms by its rules (ADR 269).
    setKnowledgeLanguage(config.KNOWLEDGE_LANGUAGE)
    const knowledge = new KnowledgeService(db, undefined, { snapshotFile })
    // Embeddings (EMBEDDINGS_MODEL): vector, hybrid and MMR search, and passes that embed what is indexed.
    const embeddings = createEmbeddingsProvider(config)
    // The language model (LLM_BASE_URL); without one, answers quote the sources.
    const llm = createLlmProvider(config)
    const settings = new SettingsService(db, config.LLM_MODELS, () => ingestRepository.botInfoLists(db), { embeddingsModel: embeddings?.model, llm })
    let vectorLog: ((level: 'info' | 'warn', message: string) => void) | undefined
    const vectors = embeddings ? await openVectors(db, jobs, embeddings, { log: (message) => vectorLog?.('info', message) }) : undefined
    // Finds passages as Bot settings' search_type says.
    const retriever = createSearchRetriever({
      keyword: knowledge,
      vectors,
      settings: () => settings.botSettings(),
      onVectorFailure: (error) => vectorLog?.('warn', `vector search failed, keyword search answered: ${error instanceof Error ? error.message : String(error)}`),
    })
    const articles = new ArticlesService(db, knowledge, jobs)
    const agents = new AgentsService(db, jobs, knowledge, settings, { retriever, llm })
    const ask = new AskService(db, jobs, knowledge, settings, config.ASK_WAIT_MS, agents, llm, retriever)
    const logs = new QueryLogsService(db)
    const templates = new TemplatesService(db)
    const documents = new DocumentsService()
    const ingest = createIngestService(db, jobs, config, options.ingest)
    const identity = new IdentityService(db, identityOptionsFrom(config))
    const users = new UsersService(db, identity, registrationOptionsFrom(config))
    const organizations = new OrganizationsService(db)
    const apiKeys = new ApiKeysService(db)
    if (config.ADMIN_PASSWORD) {
      await identity.ensureAdministrator({ username: config.ADMIN_USERNAME, email: config.ADMIN_EMAIL, password: config.ADMIN_PASSWORD })
    }

    if (config.LOAD_DEMO_CONTENT && options.demoDirectory) await loadDemoContentOnce(db, articles, options.demoDirectory)
    await loadStarterTemplateOnce(db)
    await knowledge.load()

    const app = Fastify({
      logger: loggerOptions(config.LOG_LEVEL, options.logStream),
      bodyLimit: config.BODY_LIMIT_BYTES,
      // Malformed URLs and headers are refused before routing; answer them in the same JSON shape as everything else.
      frameworkErrors: (error, _request, reply) => {
        const body = JSON.stringify({ success: false, error: 'Bad Request', message: error.message })
        // The reply here is not typed by any route schema, so its status and body are given untyped.
        void reply
          .code((error.statusCode ?? 400) as never)
          .headers(BASELINE_HEADERS)
          .type('application/json')
          .send(body as never)
      },
    }).withTypeProvider<ZodTypeProvider>()
    app.setValidatorCompiler(validatorCompiler)
    app.setSerializerCompiler(serializerCompiler)
    // Security headers first: every later hook's refusal carries them.
    await registerSecurityHeaders(app)
    registerErrorHandling(app)
    registerApiKey(app, config.API_KEY, apiKeys)
    registerAccess(app, identity, { apiKey: config.API_KEY })
    // Per-route limits only: sign-in and registration per client address, asking per account. Counted in the
    // database, so that every backend process on it shares the counts (ADR 310).
    await app.register(rateLimit, { global: false, store: databaseRateLimitStore(db) })
    const routes: Backend['routes'] = []
    app.addHook('onRoute', (route) => {
      for (const method of [route.method].flat()) {
        if (method !== 'HEAD' && !route.url.startsWith('/docs')) routes.push({ method, url: route.url, access: accessOf(route.url, route.config?.access) })
      }
    })
    await registerOpenApi(app)
    await app.register(healthRoutes({ db, knowledge, jobs }))
    await app.register(identityRoutes(identity, { signInsPerMinute: config.LOGIN_RATE_LIMIT }))
    await app.register(articlesRoutes(articles, { embeddings: () => embeddingsProgress(vectors) }))
    await app.register(askRoutes(ask, { questionsPerMinute: config.ASK_RATE_LIMIT }))
    await app.register(agentsRoutes(agents))
    await app.register(queryLogsRoutes(logs))
    await app.register(settingsRoutes(settings))
    await app.register(templatesRoutes(templates))
    await app.register(usersRoutes(users, { registrationsPerHour: config.REGISTRATION_RATE_LIMIT }))
    await app.register(organizationsRoutes(organizations))
    await app.register(apiKeysRoutes(apiKeys))
    await app.register(documentsRoutes(documents))
    await app.register(ingestRoutes(ingest))
    await app.ready()

    // Replays index changes as soon as any process commits them, not only before this process's next search.
    await knowledge.follow(config.INDEX_SYNC_MS)
    vectorLog = (level, message) => app.log[level](message)
    // LLM_MODELS is compared with the endpoint's list once, without holding up the start: a model it lacks would
    // make every answer quote the sources, so the administrator is told which, and what the endpoint offers.
    void llm
      ?.unavailableModels?.()
      .then((found) => {
        if (!found || found.missing.length === 0) return
        const names = found.missing.map((model) => `"${model}"`).join(', ')
        const offered = found.offered.length > 0 ? found.offered.join(', ') : 'none'
        app.log.warn(`LLM_MODELS names ${names}, which the model endpoint does not offer (it offers: ${offered}); answers with ${found.missing.length === 1 ? 'it' : 'them'} will quote the sources instead`)
      })
      .catch((error: unknown) => app.log.warn(`could not compare LLM_MODELS with the model endpoint's list: ${error instanceof Error ? error.message : String(error)}`))
    app.log.info(vectors ? vectors.store.description : 'vectors: no EMBEDDINGS_MODEL, so search is by keyword only')
    // Queues a pass for chunks without a vector (all of them after a change of model), then follows the index.
    await vectors?.start()
    // On PGlite this process owns the database, so anything left "running" belonged to a process that died.
    if (config.RUN_WORKER) await jobs.start({ recoverAllRunning: db.kind === 'pglite' })

    return {
      app,
      db,
      jobs,
      routes,
      services: { articles, ask, knowledge, settings, identity, agents, vectors, retriever },
      async close() {
        // The queue hears of the stop first, so a job whose handler gives up below is handed back, not failed.
        const jobsStopped = jobs.stop()
        // Crawls and uploads stop at their next page or file; otherwise jobs.stop() would wait for a whole crawl.
        ingest.stop()
        // Agent runs stop at once and resume from their last step on the next start.
        agents.stop()
        await vectors?.stop()
        await jobsStopped
        await app.close()
        await knowledge.unfollow()
        await db.close()
      },
    }
  } catch (error) {
    await db.close().catch(() => undefined)
    throw error
  }
}
