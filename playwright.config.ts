import { randomBytes } from 'node:crypto'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { defineConfig } from '@playwright/test'
import { chromiumLaunchOptions, scriptModes } from './tests/browser'

const WEB_PORT = Number(process.env.E2E_WEB_PORT ?? 3310)
const API_PORT = Number(process.env.E2E_API_PORT ?? 3311)
// Two more web servers, in other sponsor themes, over the same backend (themes.spec, screen-walk.spec, ask-answer-first.spec, screenshots.spec).
const THEMED_SERVERS = [
  { key: 'regional-rail', port: WEB_PORT + 2 },
  { key: 'white-label', port: WEB_PORT + 3 },
].map((server, index) => ({ ...server, port: Number(process.env.E2E_THEME_PORTS?.split(',')[index] ?? server.port) }))

// This file is evaluated again in every worker: values made here go through the environment so all agree.
process.env.E2E_DATA_DIR ??= mkdtempSync(path.join(tmpdir(), 'kb-e2e-'))
// The web servers share one backend, so they need the same API key and administrator password (start.mjs keeps given values).
process.env.E2E_API_KEY ??= randomBytes(24).toString('hex')
process.env.E2E_ADMIN_PASSWORD ??= randomBytes(18).toString('base64url')
// The local fixture site of the ingestion flow (ingest.spec): a crawl target and a stand-in transcript service.
process.env.E2E_FIXTURE_PORT ??= String(WEB_PORT + 4)
// A second fixture site for the js project's crawl (ingest.spec: stopping a crawl runs in both projects at once).
process.env.E2E_FIXTURE_JS_PORT ??= String(Number(process.env.E2E_FIXTURE_PORT) + 1)
// The stand-in transcript service, up for the whole run: both projects import videos (ingest.spec), each its own.
process.env.E2E_TRANSCRIPT_PORT ??= String(Number(process.env.E2E_FIXTURE_JS_PORT) + 1)
process.env.E2E_THEME_SERVERS ??= JSON.stringify([
  { key: 'default', baseURL: `http://127.0.0.1:${WEB_PORT}` },
  ...THEMED_SERVERS.map(({ key, port }) => ({ key, baseURL: `http://127.0.0.1:${port}` })),
])

const sharedEnv = {
  API_KEY: process.env.E2E_API_KEY,
  ADMIN_PASSWORD: process.env.E2E_ADMIN_PASSWORD,
  API_BASE_URL: `http://127.0.0.1:${API_PORT}`,
  LOG_LEVEL: 'warn',
  // The specs ask for knowledge-base answers on Ask; SEED.md's default (agent) is switched to in ask.spec.
  TARGET: 'expert',
  // Demo mode: every spec asks as the one administrator, far more often than the per-account limit allows a person.
  ASK_RATE_LIMIT: '100000',
}

export default defineConfig({
  testDir: 'tests/e2e',
  timeout: 60_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? [['list']] : [['list'], ['html', { open: 'never' }]],
  use: {
    baseURL: `http://127.0.0.1:${WEB_PORT}`,
    // Recording a trace costs every test about a fifth of its time on this 2-core machine (bench/README.md): on
    // CI a failure's retry records one (a failure still leaves its error context and page snapshot).
    trace: process.env.CI ? 'on-first-retry' : 'retain-on-failure',
    launchOptions: chromiumLaunchOptions,
  },
  // Tests tagged @scripts-on-only (the screen walk of the two extra sponsor themes, ADR 150) run with scripts on only.
  projects: scriptModes().map((project) => (project.use.javaScriptEnabled ? project : { ...project, grepInvert: /@scripts-on-only/ })),
  webServer: [
    {
      name: 'transcripts',
      command: `npx tsx tests/fixtures/fixture-site.ts --port ${process.env.E2E_TRANSCRIPT_PORT}`,
      url: `http://127.0.0.1:${process.env.E2E_TRANSCRIPT_PORT}/robots.txt`,
      timeout: 60_000,
      reuseExistingServer: false,
      stdout: 'ignore',
      stderr: 'pipe',
    },
    {
      name: 'product',
      command: 'node scripts/start.mjs',
      url: `http://127.0.0.1:${WEB_PORT}/ask`,
      timeout: 120_000,
      reuseExistingServer: false,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        ...sharedEnv,
        PORT: String(WEB_PORT),
        API_PORT: String(API_PORT),
        DATA_DIR: process.env.E2E_DATA_DIR,
        SPONSOR_THEME: 'default',
        // The SSRF guard refuses loopback: only the fixture sites (host and port) are let through. The themed web
        // servers use this same backend, so they need nothing more.
        FETCH_ALLOW_HOSTS: [process.env.E2E_FIXTURE_PORT, process.env.E2E_FIXTURE_JS_PORT, process.env.E2E_TRANSCRIPT_PORT].map((port) => `127.0.0.1:${port}`).join(','),
        YOUTUBE_TRANSCRIPT_BASE_URL: `http://127.0.0.1:${process.env.E2E_TRANSCRIPT_PORT}`,
      },
    },
    ...THEMED_SERVERS.map(({ key, port }) => ({
      name: `web ${key}`,
      command: 'node node_modules/@remix-run/serve/dist/cli.js build/server/index.js',
      // Answers once the backend started by the first server is up.
      url: `http://127.0.0.1:${port}/ask`,
      timeout: 120_000,
      reuseExistingServer: false,
      stdout: 'ignore' as const,
      stderr: 'pipe' as const,
      env: {
        ...sharedEnv,
        NODE_ENV: 'production',
        HOST: '127.0.0.1',
        PORT: String(port),
        SESSION_SECRET: randomBytes(32).toString('hex'),
        SPONSOR_THEME: key,
      },
    })),
  ],
})
