import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { BuildOptions } from '../app'
import { isPostgresAvailable, startTestBackend, TEST_API_KEY, type StorageKind, type TestBackend } from '../testing/test-backend'
import { redactUrl } from './logging'

describe('redacting secrets from logged URLs', () => {
  it.each([
    ['/who_am_i?apikey=s3cret', '/who_am_i?apikey=[redacted]'],
    ['/query_logs?limit=5&apikey=s3cret&status=all', '/query_logs?limit=5&apikey=[redacted]&status=all'],
    ['/x?APIKEY=s3cret', '/x?APIKEY=[redacted]'],
    ['/x?api%6Bey=s3cret', '/x?api%6Bey=[redacted]'],
    ['/x?apikey=s3cret&apikey=again', '/x?apikey=[redacted]&apikey=[redacted]'],
    ['/x?access_token=abc.def&token=t&password=p', '/x?access_token=[redacted]&token=[redacted]&password=[redacted]'],
    ['/x?apikey=s3cret#part', '/x?apikey=[redacted]#part'],
    ['/x?apikey', '/x?apikey=[redacted]'],
    ['/x?first=0&rows=30', '/x?first=0&rows=30'],
    ['/x?a%ZZ=1', '/x?a%ZZ=1'],
    ['/healthz', '/healthz'],
  ])('logs %s as %s', (url, logged) => {
    expect(redactUrl(url)).toBe(logged)
  })
})

for (const kind of ['pglite', 'postgres'] as StorageKind[]) {
  describe(`the backend's log on ${kind}`, async () => {
    const isAvailable = kind === 'pglite' || (await isPostgresAvailable())
    const lines: string[] = []
    const options: BuildOptions = { logStream: { write: (line) => void lines.push(line) } }
    let server: TestBackend

    beforeAll(async () => {
      if (isAvailable) server = await startTestBackend(kind, { LOG_LEVEL: 'info' }, options)
    })
    afterAll(async () => {
      await server?.stop()
    })

    it.skipIf(!isAvailable)('never writes the apikey or a bearer token, at the default level', async () => {
      const signedIn = await server.call('/who_am_i')
      expect(signedIn.status).toBe(200)
      const token = 'eyJhbGciOiJIUzI1NiJ9.secret-token-payload.signature'
      const calls = [
        `/who_am_i?apikey=${TEST_API_KEY}`,
        `/query_logs?limit=5&apikey=${TEST_API_KEY}`,
        `/no/such/route?apikey=${TEST_API_KEY}`,
        `/admin/get_temp_content?id=abc&apikey=${TEST_API_KEY}`,
        `/who_am_i?APIKEY=${encodeURIComponent(TEST_API_KEY)}`,
        `/who_am_i?apikey=${TEST_API_KEY}x`,
      ]
      for (const call of calls) {
        await fetch(`${server.baseUrl}${call}`, { headers: { authorization: `Bearer ${token}` } })
      }
      // A log line that carries headers has them censored.
      server.backend.app.log.info({ headers: { apikey: TEST_API_KEY, authorization: `Bearer ${token}`, cookie: `session=${token}`, accept: 'text/html' } }, 'headers seen')
      const headerLine = lines.find((line) => line.includes('headers seen'))
      expect(JSON.parse(headerLine!).headers).toEqual({ apikey: '[redacted]', authorization: '[redacted]', cookie: '[redacted]', accept: 'text/html' })
      const log = lines.join('')
      expect(lines.length).toBeGreaterThan(calls.length)
      expect(log).toContain('"url":"/who_am_i?apikey=[redacted]"')
      expect(log).toContain('"url":"/query_logs?limit=5&apikey=[redacted]"')
      expect(log).not.toContain(TEST_API_KEY)
      expect(log).not.toContain(token)
    })
  })
}
