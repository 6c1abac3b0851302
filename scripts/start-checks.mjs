// The start-up rules shared by scripts/start.mjs (before anything starts) and scripts/web-server.mjs (before it listens):
// the configuration the product runs with, and whether it may serve demo mode where it is bound.
import { randomBytes } from 'node:crypto'
import ipaddr from 'ipaddr.js'

/** Whether an environment value switches a setting on (`true` or `1`, as the web and backend configurations read it). */
export function isOn(value) {
  return /^(true|1)$/i.test(String(value ?? '').trim())
}

/**
 * Whether HOST keeps the server on this machine: a loopback address (127.0.0.0/8, ::1, IPv4-mapped 127.x) or
 * `localhost`. An unset HOST is not: Node then listens on every interface.
 */
export function isLoopbackHost(host) {
  const value = String(host ?? '')
    .trim()
    .replace(/^\[(.*)\]$/, '$1')
    .toLowerCase()
  if (!value) return false
  if (value === 'localhost' || value === 'localhost.') return true
  if (!ipaddr.isValid(value)) return false
  return ipaddr.process(value).range() === 'loopback'
}

/**
 * Demo mode (AUTH_ENABLED off) makes everyone who reaches the web app the local administrator, so it may only serve
 * loopback, unless the operator opts in with ALLOW_ANONYMOUS_ADMIN_ON_NETWORK=true (then a loud warning).
 * Returns `{ ok: true }`, `{ ok: true, warning }` or `{ ok: false, error }`.
 */
export function checkDemoExposure(env) {
  if (isOn(env.AUTH_ENABLED)) return { ok: true }
  const host = env.HOST === undefined || env.HOST === '' ? '(unset: every interface)' : env.HOST
  if (isLoopbackHost(env.HOST)) return { ok: true }
  const where = `HOST=${host}${env.PORT ? `, port ${env.PORT}` : ''}`
  if (isOn(env.ALLOW_ANONYMOUS_ADMIN_ON_NETWORK)) {
    return {
      ok: true,
      warning: [
        '!!! WARNING: ALLOW_ANONYMOUS_ADMIN_ON_NETWORK=true with sign-in off (AUTH_ENABLED=false).',
        `!!! Everyone who can reach ${where} is the ADMINISTRATOR, without signing in:`,
        '!!! they can read, change and delete every article, log, user and setting.',
        '!!! Turn sign-in on (AUTH_ENABLED=true) unless this network is yours alone.',
      ].join('\n'),
    }
  }
  return {
    ok: false,
    error: [
      `Refusing to start: sign-in is off (AUTH_ENABLED=false, demo mode) and ${where} serves beyond this machine.`,
      'In demo mode everyone who reaches the web app acts as the administrator. Choose one:',
      '  - turn sign-in on: AUTH_ENABLED=true (the Docker image does), with ADMIN_PASSWORD for the first administrator;',
      '  - keep demo mode on this machine only: HOST=127.0.0.1 (or ::1);',
      '  - serve an anonymous administrator to the network on purpose: ALLOW_ANONYMOUS_ADMIN_ON_NETWORK=true.',
    ].join('\n'),
  }
}

/**
 * The environment start.mjs gives both services: defaults, and secrets generated for this run when not configured
 * (never sent to browsers). `notices` are lines to print once at start: with sign-in on and a generated
 * administrator password, how the first administrator signs in.
 */
export function prepareStartEnv(source) {
  const env = { ...source }
  const notices = []
  env.NODE_ENV ??= 'production'
  env.PORT ??= '3000'
  env.API_PORT ??= '3001'
  env.API_HOST ??= '127.0.0.1'
  env.HOST ||= '127.0.0.1'
  env.API_BASE_URL ??= `http://127.0.0.1:${env.API_PORT}`
  if (!env.API_KEY) env.API_KEY = randomBytes(24).toString('hex')
  if (!env.SESSION_SECRET) env.SESSION_SECRET = randomBytes(32).toString('hex')
  if (!env.TOKEN_SECRET) env.TOKEN_SECRET = randomBytes(32).toString('hex')
  // The built-in administrator: in demo mode the web server signs in as it on everyone's behalf; with sign-in on it is
  // the first account that can sign in, so a password made up here is shown (once) or nobody could use it.
  if (!env.ADMIN_PASSWORD) {
    env.ADMIN_PASSWORD = randomBytes(18).toString('base64url')
    if (isOn(env.AUTH_ENABLED)) {
      notices.push(`First administrator: ${env.ADMIN_USERNAME || 'admin'} / ${env.ADMIN_PASSWORD} (generated for this run; set ADMIN_PASSWORD to choose it)`)
    }
  }
  env.LOG_LEVEL ??= 'warn'
  // Single sign-on: the backend accepts the provider's ID tokens issued to this client (issuer and audience default to
  // the web server's authority and client id).
  if (isOn(env.AUTH_ENABLED) && env.OIDC_AUTHORITY && env.OIDC_CLIENT_ID) {
    env.OIDC_ISSUER ||= env.OIDC_AUTHORITY
    env.OIDC_AUDIENCE ||= env.OIDC_CLIENT_ID
  }
  return { env, notices }
}

/** The address to reach a server bound to HOST from this machine: loopback for a wildcard, IPv6 in brackets. */
export function localAddressOf(host) {
  const value = String(host ?? '').replace(/^\[(.*)\]$/, '$1')
  if (!value || value === '0.0.0.0' || value === '::') return '127.0.0.1'
  return value.includes(':') ? `[${value}]` : value
}
