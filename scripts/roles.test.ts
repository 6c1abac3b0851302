import { spawn } from 'node:child_process'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { checkRole, healthUrlOf } from './roles.mjs'

const ROOT = path.resolve(import.meta.dirname, '..')

const shared = { API_KEY: 'shared-api-key', TOKEN_SECRET: 'x'.repeat(32), SESSION_SECRET: 'y'.repeat(32), ADMIN_PASSWORD: 'admin-password' }

describe('process roles', () => {
  it('starts everything in one place by default, making up what it lacks', () => {
    expect(checkRole({})).toEqual({ ok: true, role: 'all' })
  })

  it('refuses an unknown role, naming the ones there are', () => {
    expect(checkRole({ ROLE: 'scheduler' })).toEqual({ ok: false, error: expect.stringContaining('ROLE must be one of all, api, worker, web') })
  })

  it('refuses an API process without the secrets it shares with the others', () => {
    const refused = checkRole({ ROLE: 'api', API_KEY: 'shared-api-key' })
    expect(refused).toEqual({ ok: false, error: expect.stringContaining('TOKEN_SECRET, ADMIN_PASSWORD') })
    expect(checkRole({ ROLE: 'API', ...shared })).toEqual({ ok: true, role: 'api' })
  })

  it('refuses a worker on the embedded database, which belongs to one process', () => {
    expect(checkRole({ ROLE: 'worker' })).toEqual({ ok: false, error: expect.stringContaining('DATABASE_URL') })
    expect(checkRole({ ROLE: 'worker', DATABASE_URL: 'memory://' })).toEqual({ ok: false, error: expect.stringContaining('postgres://') })
    expect(checkRole({ ROLE: 'worker', DATABASE_URL: 'postgres://db/kb' })).toEqual({ ok: true, role: 'worker' })
  })

  it('refuses a web server without the shared session secret, or in demo mode without the administrator password', () => {
    expect(checkRole({ ROLE: 'web', API_KEY: 'k', API_BASE_URL: 'http://api:3001', AUTH_ENABLED: 'true' })).toEqual({
      ok: false,
      error: expect.stringContaining('SESSION_SECRET'),
    })
    expect(checkRole({ ROLE: 'web', API_KEY: 'k', SESSION_SECRET: 's', API_BASE_URL: 'http://api:3001' })).toEqual({
      ok: false,
      error: expect.stringContaining('ADMIN_PASSWORD'),
    })
    expect(checkRole({ ROLE: 'web', API_KEY: 'k', SESSION_SECRET: 's', API_BASE_URL: 'http://api:3001', AUTH_ENABLED: 'true' })).toEqual({ ok: true, role: 'web' })
  })

  it('checks the health of the part a container runs', () => {
    expect(healthUrlOf('all', { PORT: '3000' })).toBe('http://127.0.0.1:3000/healthz')
    expect(healthUrlOf('api', { API_PORT: '4001' })).toBe('http://127.0.0.1:4001/healthz')
    expect(healthUrlOf('worker', { API_PORT: '4001' })).toBe('http://127.0.0.1:4001/healthz')
    expect(healthUrlOf('worker', { API_PORT: '4001', WORKER_HEALTH_PORT: '4002' })).toBe('http://127.0.0.1:4002/healthz')
  })

  it('start.mjs stops at once, saying why, when a role lacks a shared setting', async () => {
    const child = spawn(process.execPath, [path.join(ROOT, 'scripts', 'start.mjs')], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', NODE_ENV: 'production', ROLE: 'worker' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => (output += chunk))
    child.stderr.on('data', (chunk: Buffer) => (output += chunk))
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve))
    expect(code).toBe(1)
    expect(output).toContain('ROLE=worker runs beside other processes, which must all be given the same DATABASE_URL')
  })
})
