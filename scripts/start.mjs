// Starts the product on its embedded default: the backend API and the web server, side by side. ROLE=api, worker or
// web starts one part only, to run beside others on one PostgreSQL database (scripts/roles.mjs, docs/deployment.md).
// The API key and session secret are generated for this run when not configured, and are never sent to browsers.
// Demo mode (sign-in off) is refused on anything but loopback unless explicitly allowed (scripts/start-checks.mjs).
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { checkRole } from './roles.mjs'
import { checkDemoExposure, localAddressOf, prepareStartEnv } from './start-checks.mjs'

const roleCheck = checkRole(process.env)
if (!roleCheck.ok) {
  console.error(roleCheck.error)
  process.exit(1)
}
const { role } = roleCheck
const { env, notices } = prepareStartEnv(process.env)

const exposure = role === 'all' || role === 'web' ? checkDemoExposure(env) : { ok: true }
if (!exposure.ok) {
  console.error(exposure.error)
  process.exit(1)
}
if (exposure.warning) console.error(exposure.warning)

const webServer = fileURLToPath(new URL('./web-server.mjs', import.meta.url))
const children = []
let isStopping = false

function run(name, args) {
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'inherit', 'inherit'] })
  child.on('exit', (code, signal) => {
    if (isStopping) return
    console.error(`${name} stopped (${signal ?? `exit code ${code}`}); stopping the product`)
    stop(code ?? 1)
  })
  children.push(child)
  return child
}

/**
 * Stops the children and exits once they have. A child still running after STOP_GRACE_MS (a worker whose job step
 * has not ended) is killed: none may outlive this process, running a job whose heartbeat another worker still sees.
 */
function stop(code = 0) {
  if (isStopping) return
  isStopping = true
  const running = children.filter((child) => child.exitCode === null && child.signalCode === null)
  for (const child of running) child.kill('SIGTERM')
  const graceMs = /^\d+$/.test(process.env.STOP_GRACE_MS ?? '') ? Number(process.env.STOP_GRACE_MS) : 10_000
  const grace = setTimeout(() => {
    for (const child of running) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  }, graceMs)
  Promise.all(running.map((child) => new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', resolve))))).then(() => {
    clearTimeout(grace)
    process.exit(code)
  })
}

process.on('SIGINT', () => stop(0))
process.on('SIGTERM', () => stop(0))

async function waitFor(url, label) {
  for (let attempt = 0; attempt < 600; attempt++) {
    try {
      const response = await fetch(url, { redirect: 'manual' })
      if (response.status < 500) return
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  throw new Error(`${label} did not start`)
}

const apiAddress = `http://${localAddressOf(env.API_HOST)}:${env.API_PORT}`
if (role === 'all' || role === 'api') {
  run('backend', ['build/backend/main.js'])
  await waitFor(`${role === 'all' ? env.API_BASE_URL : apiAddress}/healthz`, 'The backend')
}
if (role === 'worker') {
  // The worker answers /healthz (only) on the API port, for the container's health check.
  env.WORKER_HEALTH_PORT ||= env.API_PORT
  run('worker', ['build/backend/worker.js'])
  await waitFor(`http://${localAddressOf(env.API_HOST)}:${env.WORKER_HEALTH_PORT}/healthz`, 'The worker')
}
const address = localAddressOf(env.HOST)
if (role === 'all' || role === 'web') {
  run('web server', [webServer, 'build/server/index.js'])
  await waitFor(`http://${address}:${env.PORT}/healthz`, 'The web server')
}
console.log('')
if (role === 'all' || role === 'web') {
  console.log(`  Web app:     http://${address === '127.0.0.1' && env.HOST !== '127.0.0.1' ? 'localhost' : address}:${env.PORT}/`)
}
if (role === 'all') console.log(`  Backend API: ${env.API_BASE_URL}/  (OpenAPI: ${env.API_BASE_URL}/docs)`)
if (role === 'api') console.log(`  Backend API: ${apiAddress}/  (OpenAPI: ${apiAddress}/docs)`)
if (role === 'worker') console.log(`  Job worker:  health at http://${localAddressOf(env.API_HOST)}:${env.WORKER_HEALTH_PORT}/healthz`)
if (role === 'all') for (const notice of notices) console.log(`  ${notice}`)
console.log('')
