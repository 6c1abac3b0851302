import { createServer, type Server } from 'node:http'
import { buildBackend } from './app'
import { loadConfig } from './config'
import { healthReport } from './modules/health/health'

/**
 * Starts a job worker: storage, migrations, the index and the job queue, without the HTTP API. Any number of
 * workers and API processes (RUN_WORKER=false) share one PostgreSQL database (docs/deployment.md). With
 * WORKER_HEALTH_PORT set, it answers GET /healthz there, and nothing else.
 */
async function main() {
  // The built-in administrator is the API processes' business too: a worker never sets its password.
  const config = { ...loadConfig(), RUN_WORKER: true, ADMIN_PASSWORD: undefined }
  if (!config.DATABASE_URL || !/^postgres(ql)?:\/\//.test(config.DATABASE_URL)) {
    throw new Error(
      'A separate worker needs PostgreSQL (DATABASE_URL=postgres://…): the embedded database belongs to one process, which runs its jobs itself',
    )
  }
  // The demo articles are the API processes' business: a worker never loads them.
  const backend = await buildBackend(config)
  const log = backend.app.log

  let health: Server | undefined
  if (config.WORKER_HEALTH_PORT !== undefined) {
    const sources = { db: backend.db, knowledge: backend.services.knowledge, jobs: backend.jobs }
    health = createServer((request, response) => {
      if (request.method !== 'GET' || request.url !== '/healthz') {
        response.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ success: false, error: 'Not Found' }))
        return
      }
      healthReport(sources).then(
        (report) => response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(report)),
        () => response.writeHead(503, { 'content-type': 'application/json' }).end(JSON.stringify({ status: 'unavailable' })),
      )
    })
    await new Promise<void>((resolve, reject) => health!.once('error', reject).listen(config.WORKER_HEALTH_PORT, config.API_HOST, resolve))
  }
  const address = health?.address()
  const where = address && typeof address === 'object' ? `, /healthz on http://${address.address}:${address.port}` : ''
  log.info(`Job worker ${backend.jobs.id} running (storage: ${backend.db.kind}${where})`)

  let isStopping = false
  const stop = async (signal: string) => {
    if (isStopping) return
    isStopping = true
    log.info(`${signal} received, stopping after the running jobs' current steps`)
    await new Promise<void>((resolve) => (health ? health.close(() => resolve()) : resolve()))
    await backend.close()
    process.exit(0)
  }
  process.on('SIGINT', () => void stop('SIGINT'))
  process.on('SIGTERM', () => void stop('SIGTERM'))
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error)
  process.exit(1)
})
