import { expect, it } from 'vitest'
import { forEachStorage, TEST_API_KEY } from '../testing/test-backend'

/** What every answer of the API carries, whatever its status. */
function expectApiHeaders(headers: Headers, what: string) {
  const csp = headers.get('content-security-policy') ?? ''
  expect(csp, what).toContain("default-src 'none'")
  expect(csp, what).toContain("frame-ancestors 'none'")
  expect(headers.get('x-frame-options'), what).toBe('DENY')
  expect(headers.get('x-content-type-options'), what).toBe('nosniff')
  expect(headers.get('referrer-policy'), what).toBe('no-referrer')
}

forEachStorage('security headers', ({ server }) => {
  it('are on JSON answers, and on HSTS and helmet’s other defaults too', async () => {
    const answer = await server().call('/organizations', { as: 'anonymous' })
    expect(answer.status).toBe(200)
    expectApiHeaders(answer.headers, 'GET /organizations')
    expect(answer.headers.get('strict-transport-security')).toMatch(/max-age=\d+/)
    expect(answer.headers.get('cross-origin-resource-policy')).toBe('same-origin')
  })

  it('are on every kind of refusal and error', async () => {
    const cases: [string, Promise<{ status: number; headers: Headers }>, number][] = [
      ['no apikey', server().call('/organizations', { as: 'anonymous', headers: { apikey: '' } }), 401],
      ['no token', server().call('/admin/users', { as: 'anonymous' }), 401],
      ['a user on an admin route', server().createUser('user').then(({ token }) => server().call('/admin/users', { as: { token } })), 403],
      ['an unknown route', server().call('/no/such/route'), 404],
      ['a body that breaks the contract', server().call('/auth/login', { method: 'POST', body: { username: 1 }, as: 'anonymous' }), 400],
      ['malformed JSON', server().call('/auth/login', { method: 'POST', rawBody: '{"username":', headers: { 'content-type': 'application/json' }, as: 'anonymous' }), 400],
    ]
    for (const [what, call, status] of cases) {
      const answer = await call
      expect(answer.status, what).toBe(status)
      expectApiHeaders(answer.headers, what)
    }
    // A URL Fastify cannot even decode is refused before any hook runs.
    const response = await fetch(`${server().baseUrl}/admin/users/%E0%A4%A`, { headers: { apikey: TEST_API_KEY } })
    expect(response.status).toBe(400)
    expectApiHeaders(response.headers, 'an undecodable URL')
  })

  it('leave the documentation pages working, with their own policy and no framing', async () => {
    const page = await fetch(`${server().baseUrl}/docs/`)
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toMatch(/^text\/html/)
    const html = await page.text()
    const csp = page.headers.get('content-security-policy') ?? ''
    expect(csp).toContain("script-src 'self'")
    expect(csp).toContain("frame-ancestors 'none'")
    expect(page.headers.get('x-frame-options')).toBe('DENY')
    // Every script the page loads is one of its own files, which the policy allows.
    const scripts = [...html.matchAll(/<script[^>]*src="([^"]+)"/g)].map((match) => match[1])
    expect(scripts.length).toBeGreaterThan(0)
    expect(html).not.toMatch(/<script(?![^>]*src=)[^>]*>\s*\S/)
    for (const script of scripts) {
      const asset = await fetch(new URL(script, `${server().baseUrl}/docs/`))
      expect(asset.status, script).toBe(200)
    }
    const document = await fetch(`${server().baseUrl}/docs/json`)
    expect(document.status).toBe(200)
    expect((await document.json()).openapi).toMatch(/^3\./)
  })
})
