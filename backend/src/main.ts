import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { buildBackend } from './app'
import { loadConfig } from './config'

/** Starts the backend service: storage, migrations, worker and HTTP API. */
async function main() {
  const config = loadConfig()
  // Next to the source when run with tsx, next to the bundle when built.
  const demoDirectory = [new URL('./demo/articles/', import.meta.url), new URL('./demo-articles/', import.meta.url)]
    .map((url) => fileURLToPath(url))
    .find((candidate) => existsSync(candidate))
  const backend = await buildBackend(config, { demoDirectory })
  const address = await backend.app.listen({ host: config.API_HOST, port: config.API_PORT })
  backend.app.log.info(`Backend API listening on ${address} (storage: ${backend.db.kind}, OpenAPI at ${address}/docs)`)
  if (!config.RUN_WORKER) {
    // Jobs (slow answers, agent runs, publishing, imports) then run only in `npm run worker` processes.
    backend.app.log[backend.db.kind === 'pglite' ? 'warn' : 'info'](
      backend.db.kind === 'pglite'
        ? 'RUN_WORKER=false on the embedded database: no other process can run its jobs, so they will wait forever'
        : 'RUN_WORKER=false: jobs run in separate worker processes',
    )
  }

  let isStopping = false
  const stop = async (signal: string) => {
    if (isStopping) return
    isStopping = true
    backend.app.log.info(`${signal} received, stopping`)
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
