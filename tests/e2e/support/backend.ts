import { expect, type APIRequestContext, type Locator, type TestInfo } from '@playwright/test'

/** The backend the e2e web server talks to (playwright.config.ts starts it on E2E_API_PORT). */
export const BACKEND_URL = `http://127.0.0.1:${process.env.E2E_API_PORT ?? 3311}`

/** A call to the backend with only an `apikey` (no bearer token), as a client written against SEED.md's table makes. */
export function callWithKey(request: APIRequestContext, key: string, method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown) {
  return request.fetch(`${BACKEND_URL}${path}`, { method, headers: { apikey: key }, ...(body === undefined ? {} : { data: body }) })
}

/** Signs in to the backend with a local account, the way the web server does; answers the bearer token's headers. */
export async function backendSession(request: APIRequestContext, username: string, password: string) {
  const response = await request.post(`${BACKEND_URL}/auth/login`, {
    headers: { apikey: process.env.E2E_API_KEY ?? '' },
    data: { username, password },
  })
  return { status: response.status(), headers: { apikey: process.env.E2E_API_KEY ?? '', authorization: `Bearer ${(await response.json()).access_token}` } }
}

/** With scripts on, waits until React has hydrated the element: a form filled before that would be reset by it. */
export async function whenHydrated(element: Locator, testInfo: TestInfo) {
  if (testInfo.project.name !== 'js') return
  await expect.poll(() => element.evaluate((node) => Object.keys(node).some((key) => key.startsWith('__reactProps')))).toBe(true)
}

/**
 * What a form posts as it is filled in now (its fields by name), to post the same form again as a reload of its answer
 * does. Read once the form's button `submit` is shown, as a person sees it before posting: a click on a link returns
 * as the next page starts to arrive, and a page still arriving has only its first fields (without its one-time token,
 * the form posted again would create a second time).
 */
export async function postedFields(form: Locator, submit: string): Promise<Record<string, string>> {
  await expect(form.getByRole('button', { name: submit, exact: true })).toBeVisible()
  const fields: Record<string, string> = {}
  for (const field of await form.locator('input[name]:not([type="checkbox"]):not([type="radio"]), select[name], textarea[name]').all()) {
    const name = await field.getAttribute('name')
    if (name) fields[name] = await field.inputValue()
  }
  return fields
}

/**
 * Empty on a test's first run; on a retry (or a repeat) a mark that makes the words it writes differ from the first
 * run's, so what the first run left (a draft, an imported file) neither clashes with nor stands in for this run's.
 */
export const attemptMark = (testInfo: TestInfo): string => (testInfo.retry + testInfo.repeatEachIndex > 0 ? `${testInfo.retry}r${testInfo.repeatEachIndex}` : '')
