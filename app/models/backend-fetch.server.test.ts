import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { installGlobals } from '@remix-run/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'

// The web server's calls to the backend, with the globals the Remix server installs (its own fetch among them): a
// call cut short by API_TIMEOUT_MS is a 503 for that request and nothing else (ADR 276). With the installed fetch, a
// request whose body was sent rejected a second time where nobody could catch it, and the web server ended.

let backend: Server
const received: string[] = []
const unhandled: unknown[] = []
const onUnhandled = (reason: unknown) => unhandled.push(reason)

beforeAll(async () => {
  installGlobals()
  process.on('unhandledRejection', onUnhandled)
  // A backend that reads each request and never answers.
  backend = createServer((request) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => received.push(`${request.method} ${request.url} ${request.headers['content-type'] ?? ''} ${Buffer.concat(chunks).length}`))
  })
  await new Promise<void>((resolve) => backend.listen(0, '127.0.0.1', resolve))
  process.env.API_BASE_URL = `http://127.0.0.1:${(backend.address() as AddressInfo).port}`
  process.env.API_KEY = 'test-api-key'
  // Long enough for a request's body to arrive on a busy machine (at load ≈ 17 a 300 ms limit cut the first one short).
  process.env.API_TIMEOUT_MS = '1500'
  process.env.ADMIN_PASSWORD = 'test-admin-password'
})

afterAll(async () => {
  process.off('unhandledRejection', onUnhandled)
  backend.closeAllConnections()
  await new Promise((resolve) => backend.close(resolve))
})

describe('a backend call that times out', () => {
  it('is a 503 for a JSON post, an upload and a file, and leaves no rejection behind', async () => {
    const { ApiError, callApi, callApiForFile } = await import('./api.server')
    const { uploadFiles } = await import('./ingest.server')
    const session = { token: 'token' }
    const json = callApi('/admin/crawl', { session, method: 'POST', body: { url: 'https://example.org' }, schema: z.unknown() })
    await expect(json).rejects.toBeInstanceOf(ApiError)
    await expect(json).rejects.toMatchObject({ status: 503 })
    const upload = uploadFiles(session, [new File(['# Title\n\nText'], 'notes.md', { type: 'text/markdown' })])
    await expect(upload).rejects.toMatchObject({ status: 503 })
    await expect(callApiForFile('/admin/convert_doc', { session, method: 'POST', body: { doc: '# A' } })).rejects.toThrow()
    // Whatever the aborted calls leave behind would surface within a few event-loop turns.
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(unhandled.map(String)).toEqual([])
    // Each call reached the backend with its body: JSON, and the upload as multipart.
    expect(received).toEqual([
      expect.stringMatching(/^POST \/admin\/crawl application\/json [1-9]\d*$/),
      expect.stringMatching(/^POST \/admin\/upload_recovery multipart\/form-data; boundary=\S+ [1-9]\d*$/),
      expect.stringMatching(/^POST \/admin\/convert_doc application\/json [1-9]\d*$/),
    ])
  })
})
