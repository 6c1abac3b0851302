import { randomBytes } from 'node:crypto'
import { test as base, expect, type BrowserContext, type Locator, type Page, type TestInfo } from '@playwright/test'

/** Addresses and secrets playwright.auth.config.ts gave the servers it started. */
export const E2E = {
  web: process.env.E2E_AUTH_WEB_URL ?? 'http://127.0.0.1:3320',
  api: process.env.E2E_AUTH_API_URL ?? 'http://127.0.0.1:3321',
  oidc: process.env.E2E_AUTH_OIDC_URL ?? 'http://127.0.0.1:3322',
  /** The second product, whose registration is by invitation (REGISTRATION_POLICY=invite), and its backend. */
  inviteWeb: process.env.E2E_AUTH_INVITE_WEB_URL ?? 'http://127.0.0.1:3324',
  inviteApi: process.env.E2E_AUTH_INVITE_API_URL ?? 'http://127.0.0.1:3325',
  apiKey: process.env.E2E_AUTH_API_KEY ?? '',
  adminPassword: process.env.E2E_AUTH_ADMIN_PASSWORD ?? '',
  tokenTtlSeconds: Number(process.env.E2E_AUTH_TOKEN_TTL_SECONDS ?? 70),
  /** Questions a minute each account may ask on the second product (ASK_RATE_LIMIT there). */
  inviteAskLimit: Number(process.env.E2E_AUTH_INVITE_ASK_RATE_LIMIT ?? 2),
}

/** Pages may reach 127.0.0.1 only (the provider's development pages import a web font from the Internet). */
export const test = base.extend({
  context: async ({ context }, use) => {
    await context.route(
      (url) => url.hostname !== '127.0.0.1',
      (route) => route.abort(),
    )
    await use(context)
  },
})
export { expect }

export type Role = 'admin' | 'editor' | 'user'

/** With scripts on, waits until React has hydrated the element: a form filled before that would be reset by it. */
export async function whenHydrated(element: Locator, testInfo: TestInfo) {
  if (testInfo.project.use.javaScriptEnabled === false) return
  await expect.poll(() => element.evaluate((node) => Object.keys(node).some((key) => key.startsWith('__reactProps')))).toBe(true)
}

export const dashboardNav = (page: Page) => page.getByRole('navigation', { name: 'Dashboard' })

/** A bare path: the address has exactly this path and no query. */
export const bareUrl = (path: string) => new RegExp(`^${E2E.web.replaceAll('.', '\\.')}${path}$`)

// ---------------------------------------------------------------------------------------------------------------
// The provider

/**
 * From the app's sign-in page through the provider's development login (any password) and consent pages, back to
 * the app. Starts at /login, or wherever the page already is when it shows the sign-in page.
 */
export async function signInWithProvider(page: Page, account: string, options: { from?: string } = {}) {
  if (options.from) await page.goto(options.from)
  else if (!page.url().includes('/login')) await page.goto('/login')
  await page.getByRole('button', { name: 'Sign in with single sign-on' }).click()
  await expect(page).toHaveURL(new RegExp(`^${E2E.oidc.replaceAll('.', '\\.')}/`))
  await page.locator('input[name="login"]').fill(account)
  await page.locator('input[name="password"]').fill('any password')
  await page.getByRole('button', { name: 'Sign-in' }).click()
  // Consent is asked in each new provider session (a new browser context is one); then back to the app.
  const consent = page.getByRole('button', { name: 'Continue' })
  const isBack = (url: URL) => url.origin === E2E.web
  await Promise.race([page.waitForURL(isBack).catch(() => undefined), consent.waitFor().catch(() => undefined)])
  if (!isBack(new URL(page.url()))) await consent.click()
  await page.waitForURL(isBack)
}

/**
 * A provider person of the calling test alone, with the claims and token lifetimes of `account` (the fixture's
 * `<account>+<tag>`): signing out ends every provider token of a person (ADR 051), and refreshes are counted by
 * person, so a test that signs out or counts must not share its person with the tests running beside it.
 */
export const providerPerson = (account: 'user' | 'refresher') => `${account}+${randomBytes(4).toString('hex')}`

/** Refresh-token grants the provider has answered, for one account. */
export async function providerRefreshes(account: string): Promise<number> {
  const response = await fetch(`${E2E.oidc}/__test/refreshes`)
  const body = (await response.json()) as { byAccount: Record<string, number> }
  return body.byAccount[account] ?? 0
}

// ---------------------------------------------------------------------------------------------------------------
// Local accounts, made through the backend on 127.0.0.1 with the test API key

/** A call to a backend of the suite: the first product's unless `api` names another (E2E.inviteApi). */
export async function backend(path: string, init: { method?: string; body?: unknown; token?: string; api?: string } = {}) {
  const response = await fetch(`${init.api ?? E2E.api}${path}`, {
    method: init.method ?? 'GET',
    headers: {
      apikey: E2E.apiKey,
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  })
  const body = await response.json().catch(() => null)
  if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${path} answered ${response.status}: ${JSON.stringify(body)}`)
  return body
}

let adminToken: { token: string; renewAt: number } | undefined
/** The administrator's backend token, signed in again before it expires (local tokens live only 70 s here). */
export const asAdministrator = async () => {
  if (!adminToken || adminToken.renewAt <= Date.now()) {
    const answer = await backend('/auth/login', { method: 'POST', body: { username: 'admin', password: E2E.adminPassword } })
    adminToken = { token: answer.access_token, renewAt: Date.now() + (answer.expires_in - 15) * 1000 }
  }
  return adminToken.token
}

export interface LocalAccount {
  id: number
  username: string
  password: string
}

/** Registers an account (POST /users, as the registration page does) and gives it a role through the admin API. */
export async function createLocalAccount(role: Role): Promise<LocalAccount> {
  const username = `local-${role}-${randomBytes(4).toString('hex')}`
  const password = `pw-${randomBytes(6).toString('hex')}-9`
  const [organization] = (await backend('/organizations')) as { id: number; name: string }[]
  const registered = await backend('/users', {
    method: 'POST',
    body: { username, email: `${username}@example.test`, firstName: 'Local', lastName: role, cellphone: '', password, enabled: true, organizations: [organization.id] },
  })
  if (role !== 'user') await updateAccount(registered.id, { role })
  return { id: registered.id, username, password }
}

/** Changes an account's role or enabled flag as an administrator would. */
export async function updateAccount(id: number, change: { role?: Role; enabled?: boolean }) {
  const token = await asAdministrator()
  const user = await backend(`/admin/users/${id}`, { token })
  const groups = (await backend(`/admin/groups/${user.organization_id}`, { token })) as { id: number; role: Role }[]
  const groupId = change.role ? groups.find((group) => group.role === change.role)!.id : user.group_id
  await backend(`/admin/users/${id}`, {
    method: 'PUT',
    token,
    body: {
      id,
      username: user.username,
      email: user.email,
      firstName: user.firstName,
      lastName: user.lastName,
      cellphone: user.cellphone,
      group_id: groupId,
      organization_id: user.organization_id,
      enabled: change.enabled ?? user.enabled,
    },
  })
}

/** Fills and sends the local sign-in form (a plain form post without scripts). */
export async function signInLocally(page: Page, account: { username: string; password: string }, options: { from?: string } = {}) {
  if (options.from) await page.goto(options.from)
  else if (!page.url().includes('/login')) await page.goto('/login')
  const form = page.getByRole('form', { name: 'Sign in with a local account' })
  await form.getByLabel('Username').fill(account.username)
  await form.getByLabel('Password').fill(account.password)
  await form.getByRole('button', { name: 'Sign in', exact: true }).click()
}

// ---------------------------------------------------------------------------------------------------------------
// The session cookie

/**
 * The session as the signed cookie carries it (signed, not encrypted: readable, but not changeable without the key).
 * Used to watch renewals of local sessions, which the backend does not count.
 */
export async function readSession(context: BrowserContext): Promise<SessionContent> {
  const cookie = (await context.cookies(E2E.web)).find((candidate) => candidate.name === '__session')
  return cookie ? decodeSession(cookie.value) : {}
}

interface SessionContent {
  auth?: { kind: string; expiresAt: number; user: { username: string; role: string } }
}

/** The session in a __session cookie value, as Remix's cookie session storage writes it (base64 JSON, then a signature). */
function decodeSession(value: string): SessionContent {
  const signed = decodeURIComponent(value)
  const payload = signed.slice(0, signed.lastIndexOf('.'))
  return JSON.parse(decodeURIComponent(escape(Buffer.from(payload, 'base64').toString('binary'))))
}

/** The session a response's Set-Cookie would store, if it sets one. */
export function sessionSetBy(response: Response): SessionContent | undefined {
  const setCookie = response.headers.getSetCookie().find((cookie) => cookie.startsWith('__session='))
  return setCookie ? decodeSession(setCookie.slice('__session='.length).split(';')[0]) : undefined
}

/** The Cookie header a browser in this context would send to the app. */
export async function cookieHeader(context: BrowserContext): Promise<string> {
  return (await context.cookies(E2E.web)).map((cookie) => `${cookie.name}=${cookie.value}`).join('; ')
}

/**
 * A form post to the app as another site's page would send it, with this browser's cookies: a plain form post
 * (`document`: Origin http://evil.example), the same post the way Remix's scripts send it (`data`: with `_data`), or
 * from a browser that sends no Origin but says Sec-Fetch-Site: cross-site (`fetch-metadata`).
 */
export async function postFromAnotherSite(
  context: BrowserContext,
  path: string,
  options: { form?: Record<string, string>; as: 'document' | 'data' | 'fetch-metadata'; routeId?: string },
) {
  const url = new URL(path, E2E.web)
  if (options.as === 'data') url.searchParams.set('_data', options.routeId ?? '')
  return fetch(url, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      cookie: await cookieHeader(context),
      ...(options.as === 'fetch-metadata' ? {} : { origin: 'http://evil.example' }),
      'sec-fetch-site': 'cross-site',
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams(options.form ?? {}).toString(),
  })
}

/**
 * A post from another site is refused with 403: by the web server before Remix sees it (scripts/web-server.mjs),
 * and by the app's own check for everything else (script posts, resource routes, Sec-Fetch-Site: cross-site).
 */
export const isRefused = (status: number) => status === 403
