// Starts the product on its embedded default: the backend API and the web server, side by side.
// The API key and session secret are generated for this run when not configured, and are never sent to browsers.
import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { createRequire } from 'node:module'

const env = { ...process.env }
env.NODE_ENV ??= 'production'
env.PORT ??= '3000'
env.API_PORT ??= '3001'
env.API_HOST ??= '127.0.0.1'
env.HOST ??= '127.0.0.1'
env.API_BASE_URL ??= `http://127.0.0.1:${env.API_PORT}`
if (!env.API_KEY) env.API_KEY = randomBytes(24).toString('hex')
if (!env.SESSION_SECRET) env.SESSION_SECRET = randomBytes(32).toString('hex')
if (!env.TOKEN_SECRET) env.TOKEN_SECRET = randomBytes(32).toString('hex')
// Demo mode: the web server signs in to the backend as this administrator on the user's behalf.
if (!env.ADMIN_PASSWORD) env.ADMIN_PASSWORD = randomBytes(18).toString('base64url')
env.LOG_LEVEL ??= 'warn'
// Single sign-on: the backend accepts the provider's ID tokens issued to this client (issuer and audience default to
// the web server's authority and client id).
if (/^(true|1)$/.test(env.AUTH_ENABLED ?? '') && env.OIDC_AUTHORITY && env.OIDC_CLIENT_ID) {
  env.OIDC_ISSUER ||= env.OIDC_AUTHORITY
  env.OIDC_AUDIENCE ||= env.OIDC_CLIENT_ID
}

const remixServe = createRequire(import.meta.url).resolve('@remix-run/serve/dist/cli.js')
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

function stop(code = 0) {
  isStopping = true
  for (const child of children) child.kill('SIGTERM')
  setTimeout(() => process.exit(code), 3000).unref()
  Promise.all(children.map((child) => new Promise((resolve) => (child.exitCode !== null ? resolve() : child.on('exit', resolve))))).then(() => process.exit(code))
}

process.on('SIGINT', () => stop(0))
process.on('SIGTERM', () => stop(0))

async function waitFor(url, label) {
  for (let attempt = 0; attempt < 600; attempt++) {
    try {
      const response = await fetch(url)
      if (response.status < 500) return
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  throw new Error(`${label} did not start`)
}

run('backend', ['build/backend/main.js'])
await waitFor(`${env.API_BASE_URL}/healthz`, 'The backend')
run('web server', [remixServe, 'build/server/index.js'])
await waitFor(`http://127.0.0.1:${env.PORT}/ask`, 'The web server')
console.log('')
console.log(`  Web app:     http://${env.HOST === '0.0.0.0' ? 'localhost' : env.HOST}:${env.PORT}/`)
console.log(`  Backend API: ${env.API_BASE_URL}/  (OpenAPI: ${env.API_BASE_URL}/docs)`)
console.log('')
