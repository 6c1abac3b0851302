import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startFixtureSite, type FixtureSite } from '../../../tests/fixtures/fixture-site'
import { createFakeResolver } from './fake-dns.test-support'
import { FetchError, GuardedFetcher } from './guarded-fetch'
import { describeNonPublicAddress, FetchRefusedError, resolveFetchTarget, type FetchPolicy } from './ssrf-guard'

const STRICT: FetchPolicy = { allowPrivate: false, allowedHosts: [] }

describe('SSRF guard: which addresses are refused', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['10.20.30.40', 'private'],
    ['172.16.0.1', 'private'],
    ['192.168.0.1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['100.64.0.1', 'shared (carrier-grade NAT)'],
    ['0.0.0.0', 'unspecified'],
    ['::1', 'loopback'],
    ['fe80::1', 'link-local'],
    ['fd00::1', 'private (unique local)'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:a01:203', 'private'],
    ['64:ff9b::a00:1', 'NAT64'],
  ])('refuses %s as %s', (address, kind) => {
    expect(describeNonPublicAddress(address)).toBe(kind)
  })

  it.each(['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'])('lets the public address %s through', (address) => {
    expect(describeNonPublicAddress(address)).toBeUndefined()
  })
})

describe('SSRF guard: checking a URL before anything is sent', () => {
  const resolve = createFakeResolver()
  const check = (url: string, policy = STRICT) => resolveFetchTarget(new URL(url), policy, resolve)

  it.each([
    ['http://localhost:8080/', /localhost resolves to 127\.0\.0\.1, a loopback address/],
    ['http://loopback6.test/', /loopback6\.test resolves to ::1, a loopback address/],
    ['http://intranet.test/wiki', /intranet\.test resolves to 10\.1\.2\.3, a private address/],
    ['http://metadata.test/latest', /169\.254\.169\.254, a link-local address/],
    ['http://mixed.test/', /192\.168\.1\.10, a private address/],
  ])('refuses %s by the address its name resolves to', async (url, message) => {
    await expect(check(url)).rejects.toThrow(FetchRefusedError)
    await expect(check(url)).rejects.toThrow(message)
  })

  it.each([
    ['http://127.0.0.1/', /127\.0\.0\.1 is a loopback address/],
    ['http://2130706433/', /127\.0\.0\.1 is a loopback address/],
    ['http://0x7f.1/', /127\.0\.0\.1 is a loopback address/],
    ['http://10.0.0.1:8080/', /10\.0\.0\.1 is a private address/],
    ['http://169.254.169.254/latest/meta-data/', /link-local/],
    ['http://[::1]/', /::1 is a loopback address/],
    ['http://[::ffff:127.0.0.1]/', /loopback/],
    ['http://[fe80::1]/', /link-local/],
    ['http://[fd12:3456::1]/', /unique local/],
  ])('refuses the literal address in %s', async (url, message) => {
    await expect(check(url)).rejects.toThrow(message)
  })

  it('refuses other schemes and addresses with credentials', async () => {
    await expect(check('ftp://public.test/file')).rejects.toThrow(/only http and https/)
    await expect(check('file:///etc/passwd')).rejects.toThrow(/only http and https/)
    await expect(check('http://user:secret@public.test/')).rejects.toThrow(/credentials/)
  })

  it('accepts a public address and returns it as the one to connect to', async () => {
    expect(await check('https://public.test/page')).toEqual({ address: '93.184.216.34', family: 4 })
  })

  it('lets private addresses through when ALLOW_PRIVATE_FETCH is set', async () => {
    expect(await check('http://intranet.test/', { allowPrivate: true, allowedHosts: [] })).toEqual({ address: '10.1.2.3', family: 4 })
  })

  it('lets through only the hosts FETCH_ALLOW_HOSTS names, port included when given', async () => {
    const policy = { allowPrivate: false, allowedHosts: ['intranet.test', '127.0.0.1:8080'] }
    expect(await check('http://intranet.test/', policy)).toMatchObject({ address: '10.1.2.3' })
    expect(await check('http://127.0.0.1:8080/', policy)).toMatchObject({ address: '127.0.0.1' })
    await expect(check('http://127.0.0.1:9090/', policy)).rejects.toThrow(/loopback/)
    await expect(check('http://metadata.test/', policy)).rejects.toThrow(/link-local/)
  })

  it('reports a name that does not resolve', async () => {
    await expect(check('http://nowhere.test/')).rejects.toThrow(/Could not resolve nowhere\.test: ENOTFOUND/)
  })
})

describe('guarded fetcher against the local fixture site', () => {
  let site: FixtureSite
  let fetcher: GuardedFetcher
  const resolve = createFakeResolver()
  beforeAll(async () => {
    site = await startFixtureSite({ slowPageMs: 2000 })
    // Only the fixture site itself is exempt: every redirect target is judged on its own.
    fetcher = new GuardedFetcher({ allowPrivate: false, allowedHosts: [`127.0.0.1:${site.port}`] }, resolve)
  })
  afterAll(async () => {
    await site.close()
  })
  const fetchPage = (path: string, options: { timeoutMs?: number; maxBytes?: number } = {}) =>
    fetcher.fetch(`${site.baseUrl}${path}`, { timeoutMs: options.timeoutMs ?? 5000, maxBytes: options.maxBytes ?? 1024 * 1024 })

  it('fetches and decompresses a page', async () => {
    const page = await fetchPage('/guide/watering')
    expect(page).toMatchObject({ status: 200, mediaType: 'text/html', charset: 'utf-8', url: `${site.baseUrl}/guide/watering` })
    expect(page.body.toString()).toContain('Tomato plants need deep watering')
  })

  it('follows a redirect within the allowed site and says where it landed', async () => {
    const page = await fetchPage('/old-soil')
    expect(page.url).toBe(`${site.baseUrl}/guide/soil`)
  })

  it.each([
    ['/ssrf/to-metadata', /169\.254\.169\.254 is a link-local address/],
    ['/ssrf/to-loopback', /127\.0\.0\.1 is a loopback address/],
    ['/ssrf/to-ipv6-loopback', /::1 is a loopback address/],
    ['/ssrf/to-private-name', /intranet\.test resolves to 10\.1\.2\.3, a private address/],
  ])('refuses a redirect from %s into a private range before contacting it', async (path, message) => {
    const error = await fetchPage(path).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(FetchRefusedError)
    expect((error as Error).message).toMatch(message)
  })

  it('stops a redirect loop', async () => {
    await expect(fetchPage('/loop-a')).rejects.toThrow(/Redirect loop: .*\/loop-a → .*\/loop-b → .*\/loop-a/)
  })

  it('gives up on a page slower than the time limit', async () => {
    const error = await fetchPage('/slow', { timeoutMs: 300 }).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(FetchError)
    expect(error).toMatchObject({ kind: 'timeout', message: expect.stringMatching(/within 300 ms/) })
  })

  it('bounds the body after decompression, not only on the wire', async () => {
    const error = await fetchPage('/guide/watering', { maxBytes: 500 }).catch((caught: unknown) => caught)
    expect(error).toMatchObject({ kind: 'too-large', message: expect.stringMatching(/larger than the limit of 500 bytes/) })
  })

  it('returns an error status without reading its body', async () => {
    expect(await fetchPage('/broken')).toMatchObject({ status: 500, body: Buffer.alloc(0) })
  })

  it('never asked the real DNS anything', () => {
    // Every name went to the fake resolver; literal addresses need none.
    expect(resolve.lookups.every((name) => name.endsWith('.test') || name === 'localhost')).toBe(true)
  })
})
