import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startFixtureSite, type FixtureSite } from '../../../tests/fixtures/fixture-site'
import { createFakeResolver } from './fake-dns.test-support'
import { FetchError, GuardedFetcher } from './guarded-fetch'
import { describeNonPublicAddress, FetchRefusedError, resolveFetchTarget, type FetchPolicy } from './ssrf-guard'

const STRICT: FetchPolicy = { allowPrivate: false, allowedHosts: [] }

describe('SSRF guard: which addresses are refused', () => {
  it.each([
    // IPv4
    ['127.0.0.1', 'a loopback address'],
    ['127.255.0.9', 'a loopback address'],
    ['10.20.30.40', 'a private address'],
    ['172.16.0.1', 'a private address'],
    ['172.31.255.254', 'a private address'],
    ['192.168.0.1', 'a private address'],
    ['169.254.169.254', 'a link-local address'],
    ['100.64.0.1', 'a shared (carrier-grade NAT) address'],
    ['0.0.0.0', 'an unspecified address ("this network")'],
    ['0.1.2.3', 'an unspecified address ("this network")'],
    ['192.0.0.8', 'an IETF protocol assignment address'],
    ['192.0.2.1', 'a documentation address'],
    ['198.51.100.7', 'a documentation address'],
    ['203.0.113.200', 'a documentation address'],
    ['198.18.0.1', 'a benchmarking address'],
    ['198.19.255.255', 'a benchmarking address'],
    ['192.88.99.1', 'a 6to4 relay anycast address'],
    ['224.0.0.1', 'a multicast address'],
    ['239.255.255.250', 'a multicast address'],
    ['240.0.0.1', 'a reserved address'],
    ['255.255.255.255', 'a broadcast address'],
    // IPv6
    ['::', 'an unspecified address'],
    ['::1', 'a loopback address'],
    ['fe80::1', 'a link-local address'],
    ['febf::1', 'a link-local address'],
    ['fe80::1%eth0', 'a link-local address'],
    ['fec0::1', 'a site-local address (a deprecated form)'],
    ['fd00::1', 'a private (unique local) address'],
    ['fc00::1', 'a private (unique local) address'],
    ['ff02::1', 'a multicast address'],
    ['ff0e::1', 'a multicast address'],
    ['2001:db8::1', 'a documentation address'],
    ['3fff::1', 'a documentation address'],
    ['2001:2::1', 'a benchmarking address'],
    ['2001:10::1', 'an ORCHID address'],
    ['2001:20::1', 'an ORCHID address'],
    ['2001:100::1', 'an IETF protocol assignment address'],
    ['100::1', 'a discard-only address'],
    ['64:ff9b:1::a00:1', 'a local-use NAT64 address'],
    ['::ffff:0:7f00:1', 'an IPv4-translated address'],
    ['4000::1', 'a reserved address (outside global unicast)'],
    ['5f00::1', 'a reserved address (outside global unicast)'],
    // IPv6 forms that carry an IPv4 address
    ['::127.0.0.1', 'an IPv4-compatible address (a deprecated form)'],
    ['::7f00:1', 'an IPv4-compatible address (a deprecated form)'],
    ['::8.8.8.8', 'an IPv4-compatible address (a deprecated form)'],
    ['::ffff:127.0.0.1', 'an IPv4-mapped address of 127.0.0.1, a loopback address'],
    ['::ffff:a01:203', 'an IPv4-mapped address of 10.1.2.3, a private address'],
    ['::ffff:169.254.169.254', 'an IPv4-mapped address of 169.254.169.254, a link-local address'],
    ['64:ff9b::a00:1', 'a NAT64 address of 10.0.0.1, a private address'],
    ['64:ff9b::127.0.0.1', 'a NAT64 address of 127.0.0.1, a loopback address'],
    ['2002:7f00:1::1', 'a 6to4 address of 127.0.0.1, a loopback address'],
    ['2002:c0a8:101::', 'a 6to4 address of 192.168.1.1, a private address'],
    ['2002:a9fe:a9fe::1', 'a 6to4 address of 169.254.169.254, a link-local address'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'a Teredo address'],
    ['2001::1', 'a Teredo address'],
    // Not an address at all
    ['not-an-address', 'not a readable address'],
  ])('refuses %s as %s', (address, description) => {
    expect(describeNonPublicAddress(address)).toBe(description)
  })

  it.each([
    '93.184.216.34',
    '8.8.8.8',
    '1.1.1.1',
    '192.0.1.1',
    '198.20.0.1',
    '2606:2800:220:1:248:1893:25c8:1946',
    '2a00:1450:4001:80b::200e',
    '::ffff:93.184.216.34',
    '64:ff9b::8.8.8.8',
    '2002:5db8:d822::1',
  ])('lets the globally routable unicast address %s through', (address) => {
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
    ['http://[::127.0.0.1]/', /::7f00:1 is an IPv4-compatible address/],
    ['http://[::ffff:10.0.0.1]:8080/', /::ffff:a00:1 is an IPv4-mapped address of 10\.0\.0\.1, a private address/],
    ['http://[64:ff9b::169.254.169.254]/', /NAT64 address of 169\.254\.169\.254, a link-local address/],
    ['http://[2002:7f00:1::1]/', /6to4 address of 127\.0\.0\.1, a loopback address/],
    ['http://[2001::7f00:1]/', /Teredo/],
    ['http://[fec0::1]/', /site-local/],
    ['http://[ff02::1]/', /multicast/],
    ['http://[2001:db8::1]/', /documentation/],
    ['http://198.18.0.1/', /benchmarking/],
    ['http://224.0.0.251/', /multicast/],
    ['http://255.255.255.255/', /broadcast/],
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

  it.each([
    ['compat.test', '::7f00:1', /compat\.test resolves to ::7f00:1, an IPv4-compatible address/],
    ['nat64.test', '64:ff9b::a00:1', /nat64\.test resolves to 64:ff9b::a00:1, a NAT64 address of 10\.0\.0\.1, a private address/],
    ['sixtofour.test', '2002:a00:1::1', /sixtofour\.test resolves to 2002:a00:1::1, a 6to4 address of 10\.0\.0\.1, a private address/],
    ['mapped.test', '::ffff:169.254.169.254', /mapped\.test resolves to ::ffff:169\.254\.169\.254, an IPv4-mapped address of 169\.254\.169\.254/],
    ['sitelocal.test', 'fec0::5', /sitelocal\.test resolves to fec0::5, a site-local address/],
  ])('refuses %s, which resolves to %s', async (name, address, message) => {
    const resolveTo = createFakeResolver({ [name]: ['2606:2800:220:1:248:1893:25c8:1946', address] })
    await expect(resolveFetchTarget(new URL(`http://${name}/`), STRICT, resolveTo)).rejects.toThrow(message)
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

  describe('on every redirect hop', () => {
    let redirector: Server
    let redirectorUrl: string
    let hopFetcher: GuardedFetcher
    beforeAll(async () => {
      // Redirects to whatever address the query names: each hop must be judged before it is contacted.
      redirector = createServer((request, response) => {
        const location = new URL(request.url ?? '/', 'http://redirector').searchParams.get('to') ?? '/'
        response.writeHead(302, { location }).end()
      })
      await new Promise<void>((resolve) => redirector.listen(0, '127.0.0.1', resolve))
      const { port } = redirector.address() as AddressInfo
      redirectorUrl = `http://127.0.0.1:${port}`
      hopFetcher = new GuardedFetcher({ allowPrivate: false, allowedHosts: [`127.0.0.1:${port}`] }, createFakeResolver({ 'nat64.test': ['64:ff9b::7f00:1'] }))
    })
    afterAll(async () => {
      await new Promise((resolve) => redirector.close(resolve))
    })

    it.each([
      ['http://[::127.0.0.1]:1/', /IPv4-compatible/],
      ['http://[::ffff:127.0.0.1]:1/', /IPv4-mapped address of 127\.0\.0\.1, a loopback address/],
      ['http://[64:ff9b::a9fe:a9fe]/', /NAT64 address of 169\.254\.169\.254, a link-local address/],
      ['http://[2002:a9fe:a9fe::]/', /6to4 address of 169\.254\.169\.254/],
      ['http://[2001::1]/', /Teredo/],
      ['http://[fec0::1]/', /site-local/],
      ['http://[fd00::1]/', /unique local/],
      ['http://nat64.test:1/', /nat64\.test resolves to 64:ff9b::7f00:1, a NAT64 address of 127\.0\.0\.1/],
    ])('refuses a redirect to %s', async (target, message) => {
      const error = await hopFetcher.fetch(`${redirectorUrl}/?to=${encodeURIComponent(target)}`, { timeoutMs: 5000, maxBytes: 1024 }).catch((caught: unknown) => caught)
      expect(error).toBeInstanceOf(FetchRefusedError)
      expect((error as Error).message).toMatch(message)
    })
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
