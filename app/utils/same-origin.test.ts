import { describe, expect, it } from 'vitest'
import { assertSameOrigin } from './auth.server'
import { crossSiteReason, type OriginCheck } from './same-origin'

// A state-changing request is this site's own only when its Origin is this site's origin: scheme, host and port. A page
// at http://kb.example.org is another origin than https://kb.example.org, and may not post to it.

/** What assertSameOrigin throws for this request (a 403 Response), or null when it lets it through. */
function refusalOf(url: string, headers: Record<string, string>, method = 'POST'): Response | null {
  try {
    assertSameOrigin(new Request(url, { method, headers }))
    return null
  } catch (thrown) {
    expect(thrown).toBeInstanceOf(Response)
    return thrown as Response
  }
}

describe('a post to the web app (assertSameOrigin)', () => {
  it('from its own page is let through, over plain HTTP on 127.0.0.1 as over HTTPS', () => {
    expect(refusalOf('http://127.0.0.1:3000/ask', { origin: 'http://127.0.0.1:3000' })).toBeNull()
    expect(refusalOf('http://localhost:3000/ask', { origin: 'http://localhost:3000' })).toBeNull()
    expect(refusalOf('https://kb.example.org/ask', { origin: 'https://kb.example.org' })).toBeNull()
    // The default port written out is the same origin.
    expect(refusalOf('https://kb.example.org:443/ask', { origin: 'https://kb.example.org' })).toBeNull()
    // Without an Origin (an older browser, a same-origin GET turned POST by a plugin) nothing says it is foreign.
    expect(refusalOf('https://kb.example.org/ask', {})).toBeNull()
  })

  it('from the same host over plain HTTP to the HTTPS site is refused with 403', async () => {
    const refused = refusalOf('https://kb.example.org/ask', { origin: 'http://kb.example.org' })
    expect(refused?.status).toBe(403)
    expect(((await refused!.json()) as { message: string }).message).toMatch(/^This form was sent from another site/)
  })

  it('behind a proxy, compares with the scheme the proxy says the browser used', () => {
    // The web server hears plain HTTP from the proxy; X-Forwarded-Proto (or Forwarded) says the browser used HTTPS.
    expect(refusalOf('http://kb.example.org/ask', { origin: 'https://kb.example.org', 'x-forwarded-proto': 'https' })).toBeNull()
    expect(refusalOf('http://kb.example.org/ask', { origin: 'https://kb.example.org', forwarded: 'for=203.0.113.9;proto=https' })).toBeNull()
    expect(refusalOf('http://kb.example.org/ask', { origin: 'http://kb.example.org', 'x-forwarded-proto': 'https' })?.status).toBe(403)
    expect(refusalOf('http://kb.example.org/ask', { origin: 'http://kb.example.org', 'x-forwarded-proto': 'https, http' })?.status).toBe(403)
  })

  it('from an HTTPS page to a site that sees plain HTTP is refused, naming what a proxy in front must send', async () => {
    const refused = refusalOf('http://kb.example.org/ask', { origin: 'https://kb.example.org' })
    expect(refused?.status).toBe(403)
    expect(((await refused!.json()) as { message: string }).message).toContain('X-Forwarded-Proto: https')
  })

  it('from another host or port, an opaque or unreadable origin, or a browser that says cross-site is refused', () => {
    for (const origin of ['http://evil.example', 'http://127.0.0.1:3001', 'null', 'not a url']) {
      expect(refusalOf('http://127.0.0.1:3000/ask', { origin })?.status, origin).toBe(403)
    }
    expect(refusalOf('http://127.0.0.1:3000/ask', { 'sec-fetch-site': 'cross-site' })?.status).toBe(403)
  })

  it('is not checked for reading (GET, HEAD, OPTIONS)', () => {
    for (const method of ['GET', 'HEAD', 'OPTIONS']) expect(refusalOf('https://kb.example.org/ask', { origin: 'http://kb.example.org' }, method), method).toBeNull()
  })
})

describe('the web server’s own check (crossSiteReason, before Remix)', () => {
  const check = (origin: string | undefined, protocol: 'http' | 'https', host: string, extra: Record<string, string> = {}): OriginCheck => ({
    method: 'POST',
    header: (name) => ({ ...(origin === undefined ? {} : { origin }), ...extra })[name] ?? null,
    protocol,
    host,
  })

  it('compares the whole origin with the scheme and host the browser used', () => {
    expect(crossSiteReason(check('https://kb.example.org', 'https', 'kb.example.org'))).toBeNull()
    expect(crossSiteReason(check('http://127.0.0.1:3000', 'http', '127.0.0.1:3000'))).toBeNull()
    expect(crossSiteReason(check('http://kb.example.org', 'https', 'kb.example.org'))).toMatch(/another site/)
    expect(crossSiteReason(check('http://kb.example.org', 'http', 'kb.example.org', { 'x-forwarded-proto': 'https' }))).toMatch(/another site/)
    expect(crossSiteReason(check('https://kb.example.org', 'http', 'kb.example.org', { 'x-forwarded-proto': 'https' }))).toBeNull()
    expect(crossSiteReason(check('not a url', 'http', 'kb.example.org'))).toMatch(/cannot be read/)
    expect(crossSiteReason(check(undefined, 'https', 'kb.example.org'))).toBeNull()
  })
})
