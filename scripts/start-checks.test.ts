import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { checkDemoExposure, isLoopbackHost, localAddressOf, prepareStartEnv } from './start-checks.mjs'

const ROOT = path.resolve(import.meta.dirname, '..')

/** Runs a script of the product with this environment alone; resolves with its exit code and output. */
function runScript(script: string, env: Record<string, string>, build = 'build/server/index.js'): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'scripts', script), build], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', NODE_ENV: 'production', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => (output += chunk))
    child.stderr.on('data', (chunk: Buffer) => (output += chunk))
    child.on('error', reject)
    child.on('exit', (code) => resolve({ code, output }))
  })
}

describe('demo mode serves loopback only', () => {
  it('refuses demo mode (sign-in off) on an address other machines reach, naming the ways out', () => {
    for (const HOST of ['0.0.0.0', '::', '192.168.1.20', 'kb.example.test', '', undefined]) {
      const result = checkDemoExposure({ AUTH_ENABLED: 'false', HOST })
      expect(result.ok, String(HOST)).toBe(false)
      expect(result.error).toMatch(/AUTH_ENABLED=true/)
      expect(result.error).toMatch(/HOST=127\.0\.0\.1/)
      expect(result.error).toMatch(/ALLOW_ANONYMOUS_ADMIN_ON_NETWORK=true/)
    }
    // Unset AUTH_ENABLED is demo mode too, and a value that is not on.
    expect(checkDemoExposure({ HOST: '0.0.0.0' }).ok).toBe(false)
    expect(checkDemoExposure({ HOST: '0.0.0.0', AUTH_ENABLED: 'yes' }).ok).toBe(false)
  })

  it('allows demo mode on loopback addresses', () => {
    for (const HOST of ['127.0.0.1', '127.1.2.3', '::1', '[::1]', 'localhost', '::ffff:127.0.0.1']) {
      expect(checkDemoExposure({ AUTH_ENABLED: 'false', HOST }), HOST).toEqual({ ok: true })
    }
  })

  it('allows any address with sign-in on', () => {
    expect(checkDemoExposure({ AUTH_ENABLED: 'true', HOST: '0.0.0.0' })).toEqual({ ok: true })
    expect(checkDemoExposure({ AUTH_ENABLED: '1', HOST: '::' })).toEqual({ ok: true })
  })

  it('allows the network with the explicit opt-in, with a loud warning', () => {
    const result = checkDemoExposure({ AUTH_ENABLED: 'false', HOST: '0.0.0.0', PORT: '3000', ALLOW_ANONYMOUS_ADMIN_ON_NETWORK: 'true' })
    expect(result.ok).toBe(true)
    expect(result.warning).toMatch(/WARNING/)
    expect(result.warning).toMatch(/ADMINISTRATOR/)
    expect(result.warning).toMatch(/HOST=0\.0\.0\.0, port 3000/)
    expect(checkDemoExposure({ HOST: '0.0.0.0', ALLOW_ANONYMOUS_ADMIN_ON_NETWORK: 'false' }).ok).toBe(false)
  })

  it('knows loopback addresses from the rest', () => {
    expect(isLoopbackHost('127.0.0.1')).toBe(true)
    expect(isLoopbackHost('0:0:0:0:0:0:0:1')).toBe(true)
    expect(isLoopbackHost('10.0.0.1')).toBe(false)
    expect(isLoopbackHost('127.example.test')).toBe(false)
    expect(isLoopbackHost('::ffff:10.0.0.1')).toBe(false)
    expect(localAddressOf('0.0.0.0')).toBe('127.0.0.1')
    expect(localAddressOf('::1')).toBe('[::1]')
  })

  it('start.mjs refuses before it starts anything', async () => {
    const result = await runScript('start.mjs', { AUTH_ENABLED: 'false', HOST: '0.0.0.0', PORT: '3405', API_PORT: '3404' })
    expect(result.code).toBe(1)
    expect(result.output).toMatch(/Refusing to start: sign-in is off/)
    expect(result.output).not.toMatch(/Web app:/)
  })

  it('the web server refuses a build older than itself at start, rather than answering 500 to every page', async () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'stale-build-'))
    try {
      // A build from before the web server read the same-origin rule from it: everything else is there.
      const stale = path.join(folder, 'index.js')
      writeFileSync(stale, 'export const future = {}\nexport const entry = { module: { createNonce() {}, runWithClientAddress() {}, securityHeaders() {} } }\n')
      const result = await runScript('web-server.mjs', { AUTH_ENABLED: 'false', HOST: '127.0.0.1', PORT: '3406' }, stale)
      expect(result.code).toBe(1)
      expect(result.output).toContain('is older than scripts/web-server.mjs (it has no crossSiteReason): run npm run build')
    } finally {
      rmSync(folder, { recursive: true, force: true })
    }
  })

  it('the web server refuses on its own too (started without start.mjs)', async () => {
    const result = await runScript('web-server.mjs', { AUTH_ENABLED: 'false', HOST: '0.0.0.0', PORT: '3405' })
    expect(result.code).toBe(1)
    expect(result.output).toMatch(/Refusing to start/)
  })
})

describe('the first administrator', () => {
  it('is shown once when sign-in is on and its password was generated for this run', () => {
    const { env, notices } = prepareStartEnv({ AUTH_ENABLED: 'true' })
    expect(env.ADMIN_PASSWORD).toMatch(/^[\w-]{20,}$/)
    expect(notices).toEqual([`First administrator: admin / ${env.ADMIN_PASSWORD} (generated for this run; set ADMIN_PASSWORD to choose it)`])
    expect(prepareStartEnv({ AUTH_ENABLED: 'true', ADMIN_USERNAME: 'root' }).notices[0]).toMatch(/^First administrator: root \//)
  })

  it('is not shown when the operator chose the password, nor in demo mode (nobody signs in there)', () => {
    expect(prepareStartEnv({ AUTH_ENABLED: 'true', ADMIN_PASSWORD: 'chosen-by-the-operator' }).notices).toEqual([])
    expect(prepareStartEnv({ AUTH_ENABLED: 'false' }).notices).toEqual([])
  })

  it('keeps what is configured and fills in the rest', () => {
    const { env } = prepareStartEnv({ HOST: '', PORT: '8080', API_KEY: 'given-key-123' })
    expect(env).toMatchObject({ HOST: '127.0.0.1', PORT: '8080', API_PORT: '3001', API_KEY: 'given-key-123', NODE_ENV: 'production' })
    expect(env.SESSION_SECRET).toHaveLength(64)
  })
})
