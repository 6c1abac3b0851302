import { expect, test, type APIResponse } from '@playwright/test'
import { themeServers } from './support/screens'

// Every answer of the web server carries the security headers: pages, data answers, downloads, files, redirects,
// refusals. Pages allow scripts from this origin and inline scripts with the response's nonce only, and no site may
// frame them.

/** What the session cookie a response sets holds (a signed cookie: base64 of its JSON, a dot, the signature). */
function sessionSet(response: APIResponse): Record<string, unknown> {
  const value = /__session=([^;]*)/.exec(response.headers()['set-cookie'] ?? '')?.[1]
  return value ? (JSON.parse(Buffer.from(decodeURIComponent(value).split('.')[0], 'base64').toString('utf8')) as Record<string, unknown>) : {}
}

function expectSecurityHeaders(response: APIResponse, what: string) {
  const headers = response.headers()
  const policy = headers['content-security-policy'] ?? ''
  expect(policy, `${what}: Content-Security-Policy`).toContain("frame-ancestors 'none'")
  expect(policy, what).toContain("object-src 'none'")
  expect(policy, what).toContain("base-uri 'none'")
  const scripts = /script-src ([^;]*)/.exec(policy)?.[1] ?? ''
  expect(scripts, `${what}: script-src`).not.toContain('unsafe-inline')
  expect(scripts, what).not.toContain('unsafe-eval')
  expect(headers['x-frame-options'], what).toBe('DENY')
  expect(headers['x-content-type-options'], what).toBe('nosniff')
  expect(headers['referrer-policy'], what).toBe('same-origin')
  expect(headers['permissions-policy'], what).toContain('camera=()')
  return policy
}

test.describe('Security headers', () => {
  test('on pages, data answers, downloads, files, redirects and refusals', async ({ request }) => {
    const page = await request.get('/ask')
    expect(page.status()).toBe(200)
    const policy = expectSecurityHeaders(page, 'the Ask page')
    // Every inline script of the page carries this response's nonce, and only this response's.
    const nonce = /'nonce-([^']+)'/.exec(policy)?.[1]
    expect(nonce).toBeTruthy()
    const html = await page.text()
    const scripts = [...html.matchAll(/<script\b([^>]*)>/g)].map((match) => match[1])
    expect(scripts.length).toBeGreaterThan(1)
    for (const attributes of scripts) {
      if (/\bsrc=/.test(attributes)) continue
      expect(attributes).toContain(`nonce="${nonce}"`)
    }
    const again = await request.get('/ask')
    expect(/'nonce-([^']+)'/.exec(again.headers()['content-security-policy'] ?? '')?.[1]).not.toBe(nonce)

    expectSecurityHeaders(await request.get('/ask?_data=routes%2F_dashboard%2B%2Fask'), 'a data answer')
    const download = await request.get('/resources/query-logs.csv')
    expect(download.headers()['content-type']).toContain('text/csv')
    expectSecurityHeaders(download, 'a CSV download')
    expectSecurityHeaders(await request.get('/favicon.svg'), 'a public file')
    const redirect = await request.get('/login', { maxRedirects: 0 })
    expect(redirect.status()).toBe(302)
    expectSecurityHeaders(redirect, 'a redirect')
    const missing = await request.get('/no-such-page')
    expect(missing.status()).toBe(404)
    expectSecurityHeaders(missing, 'a missing page')
    const refused = await request.post('/ask', { form: { question: 'from elsewhere' }, headers: { origin: 'http://elsewhere.example' } })
    expect(refused.status()).toBe(403)
    expectSecurityHeaders(refused, 'a refusal')
  })

  test("a post from this host's page over another scheme is another site's, refused before it reaches the app", async ({ request, baseURL }) => {
    const host = new URL(baseURL!).host
    const post = (headers: Record<string, string>) => request.post('/ask', { form: { intent: 'toggleBotInfo' }, headers, maxRedirects: 0 })
    // Behind a proxy that serves the site over HTTPS (and says so), a page at http://<host> is another origin.
    const fromPlainHttp = await post({ origin: `http://${host}`, 'x-forwarded-proto': 'https' })
    expect(fromPlainHttp.status()).toBe(403)
    expect(await fromPlainHttp.text()).toContain('This form was sent from another site and was refused.')
    expectSecurityHeaders(fromPlainHttp, 'a refusal of another scheme')
    // The site's own page, over HTTPS as the proxy says, and here over plain HTTP on 127.0.0.1.
    expect((await post({ origin: `https://${host}`, 'x-forwarded-proto': 'https' })).status()).toBe(302)
    expect((await post({ origin: `http://${host}` })).status()).toBe(302)
  })

  // remix-serve (the themed servers) refuses no cross-site post itself: the app's own check is all there is, and it
  // covers the intents that only change the session as well as those that reach the backend. Remix aborts a page post
  // whose Origin is not its host, but not a data post (as the page's scripts send), nor a page post without Origin.
  for (const server of themeServers().filter(({ key }) => key !== 'default')) {
    test(`a cross-site post of a session-only intent of Ask is refused by the app itself (${server.key}, remix-serve)`, async ({ request }) => {
      const dataUrl = `${server.baseURL}/ask?_data=${encodeURIComponent('routes/_dashboard+/ask')}`
      const pageUrl = `${server.baseURL}/ask`
      const post = (url: string, form: Record<string, string>, headers: Record<string, string>) => request.post(url, { form, headers, maxRedirects: 0 })
      // The way to ask as the page's script remembers it (remember_only=1), and as a hand-made form might send it.
      for (const form of [{ mode: 'agent', remember_only: '1' }, { mode: 'agent', remember_only: 'true' }, { intent: 'toggleBotInfo' }] as Record<string, string>[]) {
        for (const [url, headers] of [
          [dataUrl, { origin: 'http://evil.example', 'sec-fetch-site': 'cross-site' }],
          [pageUrl, { 'sec-fetch-site': 'cross-site' }],
        ] as const) {
          const what = `${JSON.stringify(form)} to ${url} from another site`
          const refused = await post(url, form, headers)
          expect(refused.status(), what).toBe(403)
          if (url === dataUrl) expect(refused.headers()['set-cookie'], what).toBeUndefined()
          // The refusal page's layout renews the session cookie as every page does, unchanged: nothing is recorded.
          else expect(Object.keys(sessionSet(refused)), what).toEqual([])
        }
      }
      // The same posts from the server's own page are taken (so the refusals above are the check, not the form).
      for (const form of [{ mode: 'agent', remember_only: '1' }, { intent: 'toggleBotInfo' }] as Record<string, string>[]) {
        const own = await post(dataUrl, form, { origin: server.baseURL, 'sec-fetch-site': 'same-origin' })
        expect(own.status(), `${JSON.stringify(form)} from its own page`).toBeLessThan(400)
        expect(Object.keys(sessionSet(own)), `${JSON.stringify(form)} from its own page`).not.toEqual([])
      }
    })
  }

  test('HSTS is sent when the browser came over HTTPS (as the proxy in front says), not over plain HTTP', async ({ request }) => {
    const overHttps = await request.get('/ask', { headers: { 'x-forwarded-proto': 'https' } })
    expect(overHttps.headers()['strict-transport-security']).toMatch(/max-age=\d{7,}/)
    const overHttp = await request.get('/ask')
    expect(overHttp.headers()['strict-transport-security']).toBeUndefined()
  })

  test('the screens run under the policy without a single violation', async ({ page }, testInfo) => {
    test.skip(testInfo.project.name === 'no-js', 'the policy is about scripts')
    const violations: string[] = []
    page.on('console', (message) => {
      if (/Content.Security.Policy|Refused to/i.test(message.text())) violations.push(message.text())
    })
    page.on('pageerror', (error) => violations.push(`page error: ${error.message}`))
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (event) => {
        console.error(`Content-Security-Policy violation: ${event.violatedDirective} ${event.blockedURI} at ${event.sourceFile}:${event.lineNumber}`)
      })
    })
    const response = await page.goto('/ask')
    expect(response?.headers()['content-security-policy']).toContain("'nonce-")
    // Scripts ran: the question is asked without a page load, and the answer arrives.
    await page.getByRole('textbox', { name: 'Question', exact: true }).fill('How do I add an article?')
    await page.getByRole('button', { name: 'Ask', exact: true }).click()
    await expect(page.getByRole('region', { name: 'Answer' })).toContainText('Add article')
    const nav = page.getByRole('navigation', { name: 'Dashboard' })
    for (const [link, heading] of [
      ['Articles', 'Articles'],
      ['Logs', 'Logs'],
      ['Settings', 'Settings'],
    ] as const) {
      await nav.getByRole('link', { name: link, exact: true }).click()
      await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible()
    }
    await page.goto('/settings/graph')
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible()
    await page.goto('/agent')
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible()
    expect(violations).toEqual([])
  })

  test('a page of another site cannot frame the app', async ({ page, baseURL }) => {
    await page.route('http://framing-site.test/**', (route) =>
      route.fulfill({ contentType: 'text/html', body: `<!DOCTYPE html><title>Another site</title><h1>Another site</h1><iframe src="${baseURL}/ask" width="800" height="600"></iframe>` }),
    )
    await page.goto('http://framing-site.test/')
    await expect(page.getByRole('heading', { name: 'Another site' })).toBeVisible()
    // The browser asked for the page and refused to show it: the frame holds the browser's error page, not the app.
    const framed = () => page.frames().find((candidate) => candidate !== page.mainFrame())?.url()
    await expect.poll(framed).toMatch(/^chrome-error:/)
    await expect(page.frameLocator('iframe').getByRole('textbox', { name: 'Question', exact: true })).toHaveCount(0)
  })
})
