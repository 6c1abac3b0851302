import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { defineConfig } from '@playwright/test'
import { chromiumLaunchOptions, scriptModes } from './tests/browser'

// Sign-in end to end (issue 6): the product with AUTH_ENABLED=true against a real OpenID provider (oidc-provider)
// started here on 127.0.0.1, plus local accounts. Its own ports and data, so it runs beside playwright.config.ts.
const WEB_PORT = Number(process.env.E2E_AUTH_WEB_PORT ?? 3320)
const API_PORT = Number(process.env.E2E_AUTH_API_PORT ?? 3321)
const OIDC_PORT = Number(process.env.E2E_AUTH_OIDC_PORT ?? 3322)
// The language model: the OpenAI-compatible fixture (tests/fixtures/openai-fixture.ts), so answers here are written by
// a "model", streamed to the Ask page, and misbehave on the fixture's `#fixture:<mode>` markers in a question.
const LLM_PORT = Number(process.env.E2E_AUTH_LLM_PORT ?? 3323)
const LLM_MODELS = 'fixture-chat,fixture-mini'
// A second product whose registration is by invitation (invitations.spec): the policy is the backend's start-up
// configuration, and the first product's registration stays open for the specs that register.
const INVITE_WEB_PORT = Number(process.env.E2E_AUTH_INVITE_WEB_PORT ?? WEB_PORT + 4)
const INVITE_API_PORT = Number(process.env.E2E_AUTH_INVITE_API_PORT ?? WEB_PORT + 5)

const WEB = `http://127.0.0.1:${WEB_PORT}`
const OIDC = `http://127.0.0.1:${OIDC_PORT}`
const CLIENT_ID = 'knowledge-assistant-e2e'
const CLIENT_SECRET = 'e2e-client-secret-0123456789abcdef'

// The specs read these to reach the backend and the provider's test counters (tests/e2e-auth/support.ts).
process.env.E2E_AUTH_DATA_DIR ??= mkdtempSync(path.join(tmpdir(), 'kb-e2e-auth-'))
process.env.E2E_AUTH_INVITE_DATA_DIR ??= mkdtempSync(path.join(tmpdir(), 'kb-e2e-auth-invite-'))
process.env.E2E_AUTH_WEB_URL = WEB
process.env.E2E_AUTH_INVITE_WEB_URL = `http://127.0.0.1:${INVITE_WEB_PORT}`
process.env.E2E_AUTH_INVITE_API_URL = `http://127.0.0.1:${INVITE_API_PORT}`
process.env.E2E_AUTH_API_URL = `http://127.0.0.1:${API_PORT}`
process.env.E2E_AUTH_OIDC_URL = OIDC
process.env.E2E_AUTH_LLM_URL = `http://127.0.0.1:${LLM_PORT}/v1`
process.env.E2E_AUTH_API_KEY ??= 'e2e-auth-api-key-0123456789'
process.env.E2E_AUTH_ADMIN_PASSWORD ??= 'e2e-auth-admin-password'
/** Local tokens live 70 s: renewal ahead of expiry (60 s) starts 10 s after sign-in. */
process.env.E2E_AUTH_TOKEN_TTL_SECONDS ??= '70'
/** The second product allows each account this many questions a minute (ask-limit.spec); the first, far more. */
process.env.E2E_AUTH_INVITE_ASK_RATE_LIMIT ??= '2'

export default defineConfig({
  testDir: 'tests/e2e-auth',
  timeout: 90_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? [['list']] : [['list'], ['html', { open: 'never', outputFolder: 'playwright-report-auth' }]],
  outputDir: 'test-results-auth',
  use: {
    baseURL: WEB,
    // Recording a trace costs every test about a fifth of its time on this 2-core machine (bench/README.md): on
    // CI a failure's retry records one (a failure still leaves its error context and page snapshot).
    trace: process.env.CI ? 'on-first-retry' : 'retain-on-failure',
    launchOptions: chromiumLaunchOptions,
  },
  projects: scriptModes('auth-'),
  webServer: [
    {
      command: `npx tsx tests/fixtures/openai-fixture.ts --port ${LLM_PORT} --models ${LLM_MODELS}`,
      url: `http://127.0.0.1:${LLM_PORT}/v1/models`,
      timeout: 60_000,
      reuseExistingServer: false,
      stdout: 'ignore',
      stderr: 'pipe',
    },
    {
      command: 'node tests/fixtures/oidc-provider.mjs',
      url: `${OIDC}/.well-known/openid-configuration`,
      timeout: 60_000,
      reuseExistingServer: false,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        OIDC_FIXTURE_PORT: String(OIDC_PORT),
        OIDC_FIXTURE_CLIENT_ID: CLIENT_ID,
        OIDC_FIXTURE_CLIENT_SECRET: CLIENT_SECRET,
        OIDC_FIXTURE_REDIRECT_URI: `${WEB}/auth/callback`,
        OIDC_FIXTURE_POST_LOGOUT_REDIRECT_URI: `${WEB}/login`,
        OIDC_FIXTURE_ID_TOKEN_TTL: '90',
      },
    },
    {
      command: 'node scripts/start.mjs',
      url: `${WEB}/login`,
      timeout: 120_000,
      reuseExistingServer: false,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        PORT: String(WEB_PORT),
        API_PORT: String(API_PORT),
        DATA_DIR: process.env.E2E_AUTH_DATA_DIR,
        LOG_LEVEL: 'warn',
        LOAD_DEMO_CONTENT: 'true',
        API_KEY: process.env.E2E_AUTH_API_KEY,
        SESSION_SECRET: 'e2e-auth-session-secret-0123456789abcdef',
        TOKEN_SECRET: 'e2e-auth-token-secret-0123456789abcdef',
        TOKEN_TTL_SECONDS: process.env.E2E_AUTH_TOKEN_TTL_SECONDS,
        ADMIN_PASSWORD: process.env.E2E_AUTH_ADMIN_PASSWORD,
        AUTH_ENABLED: 'true',
        // Ask gives knowledge-base answers first here (the specs read answers and their sources).
        TARGET: 'expert',
        // Every browser here is 127.0.0.1: the per-address limits are raised above what the suite sends, and the
        // per-account limit on asking above what one account asks here (the invitation product tests that limit).
        LOGIN_RATE_LIMIT: '10000',
        REGISTRATION_RATE_LIMIT: '10000',
        ASK_RATE_LIMIT: '10000',
        OIDC_AUTHORITY: OIDC,
        OIDC_CLIENT_ID: CLIENT_ID,
        OIDC_CLIENT_SECRET: CLIENT_SECRET,
        OIDC_REDIRECT_URI: `${WEB}/auth/callback`,
        OIDC_ISSUER: OIDC,
        OIDC_AUDIENCE: CLIENT_ID,
        // Single sign-on turns registration off by default; the local-account specs register, so it is opened here.
        REGISTRATION_POLICY: 'open',
        LLM_BASE_URL: process.env.E2E_AUTH_LLM_URL,
        LLM_MODELS,
      },
    },
    {
      // Local accounts only, registration by invitation, no demo content (nothing here reads articles), and a low
      // per-account limit on asking (ask-limit.spec), with the fixture model so that Ask tries its stream first.
      command: 'node scripts/start.mjs',
      url: `${process.env.E2E_AUTH_INVITE_WEB_URL}/login`,
      timeout: 120_000,
      reuseExistingServer: false,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        PORT: String(INVITE_WEB_PORT),
        API_PORT: String(INVITE_API_PORT),
        DATA_DIR: process.env.E2E_AUTH_INVITE_DATA_DIR,
        LOG_LEVEL: 'warn',
        LOAD_DEMO_CONTENT: 'false',
        API_KEY: process.env.E2E_AUTH_API_KEY,
        SESSION_SECRET: 'e2e-auth-invite-session-secret-0123456789abcdef',
        TOKEN_SECRET: 'e2e-auth-invite-token-secret-0123456789abcdef',
        ADMIN_PASSWORD: process.env.E2E_AUTH_ADMIN_PASSWORD,
        AUTH_ENABLED: 'true',
        LOGIN_RATE_LIMIT: '10000',
        REGISTRATION_RATE_LIMIT: '10000',
        REGISTRATION_POLICY: 'invite',
        TARGET: 'expert',
        ASK_RATE_LIMIT: process.env.E2E_AUTH_INVITE_ASK_RATE_LIMIT,
        LLM_BASE_URL: process.env.E2E_AUTH_LLM_URL,
        LLM_MODELS,
      },
    },
  ],
})
