import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { isPostgresAvailable, publishArticles, startTestBackend, type StorageKind, type TestBackend } from '../testing/test-backend'
import { databaseFingerprint, mayAccept, routePlans, type JsonSchema, type RouteParameter, type RoutePlan } from './bad-input.test-support'

const BODY_LIMIT_BYTES = 64 * 1024

// JSON values, each sent only where the route's schema surely refuses it (mayAccept says no).
const JSON_VALUES: unknown[] = [
  { nested: [1] },
  [{ x: 1 }],
  [],
  {},
  '',
  'not valid ☃',
  '\u0000',
  'x'.repeat(25_000),
  1.5,
  -1,
  0,
  2 ** 31,
  1e308,
  -1e308,
  true,
  false,
  null,
  'abc',
  "' OR 1=1 --",
  '<script>alert(1)</script>',
]

// Query and path values (always text), each sent only where the parameter's schema surely refuses it.
const TEXT_VALUES = ['', 'abc', '1.5', '-1', '0', '99999999999', '1e999', 'NaN', 'x'.repeat(600), '\u0000', 'not-an-enum', '[]', '{"title":1}', "' OR 1=1 --", '🙂']

const MALFORMED_JSON = ['{', '{"title": ', '[1,', '{"a":1}}', 'nul', "{'a':1}", '{"a":1,}', '{"a":"\\x"}', '\u0000']

// Bodies of types no JSON route reads; text/plain is read, so it goes only to routes whose schema refuses a string.
const FOREIGN_BODIES: Array<[string, string]> = [
  ['application/xml', '<article><title>x</title></article>'],
  ['application/x-www-form-urlencoded', 'title=x&content=y'],
  ['text/csv', 'title,content\nx,y\n'],
]

const BROKEN_MULTIPART: Array<[string, string]> = [
  ['multipart/form-data', 'files=x'],
  ['multipart/form-data; boundary=', '--\r\n\r\n'],
  ['multipart/form-data; boundary=B', '--B\r\nContent-Disposition: form-data; name="files"; filename="a.txt"\r\n\r\nhello\r\n'],
  ['multipart/form-data; boundary=B', '--C\r\nContent-Disposition: form-data; name="files"; filename="a.txt"\r\n\r\nhello\r\n--C--\r\n'],
]

interface BadRequest {
  kind: string
  path: string
  query: Record<string, string>
  contentType?: string
  body?: string
  /** The body fields given a wrong value: the error should name one of them. */
  fields?: string[]
}

const wrongJsonValues = (schema: JsonSchema) => JSON_VALUES.filter((value) => !mayAccept(value, schema))
const wrongTextValues = (schema: JsonSchema) => TEXT_VALUES.filter((value) => !mayAccept(value, schema, true))

/** A path with each parameter filled with a value of the right shape (the request is wrong elsewhere). */
const plausiblePath = (plan: RoutePlan) => plan.url.replace(/:([a-z_]+)/g, (_, name: string) => (plan.path.find((parameter) => parameter.name === name)?.schema.type === 'integer' ? '1' : 'no-such-thing'))

/** Some of the parameters, each with a value its schema refuses. */
function wrongParameters(parameters: RouteParameter[]): fc.Arbitrary<Record<string, string>> | undefined {
  const refusable = parameters.map((parameter) => [parameter.name, wrongTextValues(parameter.schema)] as const).filter(([, values]) => values.length > 0)
  if (refusable.length === 0) return undefined
  return fc
    .subarray(refusable, { minLength: 1 })
    .chain((chosen) => fc.tuple(...chosen.map(([name, values]) => fc.constantFrom(...values).map((value) => [name, value] as const))))
    .map((entries) => Object.fromEntries(entries))
}

/** Every kind of bad request a route can be sent, as fast-check arbitraries. */
function badRequestsFor(plan: RoutePlan): fc.Arbitrary<BadRequest>[] {
  const path = plausiblePath(plan)
  const kinds: fc.Arbitrary<BadRequest>[] = []
  const hasBody = plan.method !== 'GET'

  const properties = Object.entries(plan.body?.properties ?? {})
    .map(([name, schema]) => [name, wrongJsonValues(schema)] as const)
    .filter(([, values]) => values.length > 0)
  if (plan.body && properties.length > 0) {
    kinds.push(
      fc
        .subarray(properties, { minLength: 1 })
        .chain((chosen) => fc.tuple(...chosen.map(([name, values]) => fc.constantFrom(...values).map((value) => [name, value] as const))))
        .map((entries) => ({ kind: 'wrong-type body', path, query: {}, contentType: 'application/json', body: JSON.stringify(Object.fromEntries(entries)), fields: entries.map(([name]) => name) })),
    )
  }
  if (plan.body) {
    const bodySchema = plan.body
    const refusedWholes = JSON_VALUES.filter((value) => !mayAccept(value, bodySchema))
    kinds.push(fc.constantFrom(...refusedWholes).map((value) => ({ kind: 'wrong-type whole body', path, query: {}, contentType: 'application/json', body: JSON.stringify(value) })))
    kinds.push(fc.constant({ kind: 'text body', path, query: {}, contentType: 'text/plain', body: 'title=x' }))
  }
  if (hasBody) {
    kinds.push(fc.constantFrom(...MALFORMED_JSON).map((body) => ({ kind: 'malformed JSON', path, query: {}, contentType: 'application/json', body })))
    kinds.push(fc.constant({ kind: 'oversized body', path, query: {}, contentType: 'application/json', body: JSON.stringify({ title: 'x'.repeat(BODY_LIMIT_BYTES), content: 'y' }) }))
    kinds.push(fc.constantFrom(...FOREIGN_BODIES).map(([contentType, body]) => ({ kind: 'foreign content type', path, query: {}, contentType, body })))
  }
  if (plan.isMultipart) {
    kinds.push(fc.constantFrom(...BROKEN_MULTIPART).map(([contentType, body]) => ({ kind: 'broken multipart', path, query: {}, contentType, body })))
  }
  const query = wrongParameters(plan.query)
  if (query) kinds.push(query.map((values) => ({ kind: 'wrong query', path, query: values })))
  const pathValues = wrongParameters(plan.path)
  if (pathValues) {
    kinds.push(
      pathValues.map((values) => ({
        kind: 'wrong path parameter',
        path: plan.url.replace(/:([a-z_]+)/g, (_, name: string) => (name in values ? encodeURIComponent(values[name]) : '1')),
        query: {},
      })),
    )
  }
  return kinds
}

for (const kind of ['pglite', 'postgres'] as StorageKind[]) {
  describe(`bad input to every route on ${kind}`, async () => {
    const isAvailable = kind === 'pglite' || (await isPostgresAvailable())
    let server: TestBackend

    beforeAll(async () => {
      if (!isAvailable) return
      server = await startTestBackend(kind, { BODY_LIMIT_BYTES: String(BODY_LIMIT_BYTES) })
      // Something of everything, so that a request that wrongly went through would have something to change.
      await publishArticles(server, [
        { title: 'Bicycle lights', content: 'Bicycle lights must be switched on between sunset and sunrise.' },
        { title: 'Bicycle bells', content: 'A bicycle must have a working bell.' },
      ])
      await server.call('/admin/inject_article', { method: 'POST', body: { title: 'Draft about tyres', content: 'Pump the tyres every week.' } })
      await server.call('/admin/create_template', { method: 'POST', body: { name: 'Care sheet', sections: [{ title: 'Summary' }] } })
      const asked = await server.call('/ask_qa', { method: 'POST', body: { command: 'When must bicycle lights be on?' } })
      for (let attempt = 0; attempt < 200; attempt++) {
        const { body } = await server.call('/ask_qa_answer', { method: 'POST', body: { task_id: asked.body.task_id } })
        if (!['queued', 'running'].includes(body.status)) break
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
      await server.call('/query_logs/comment', { method: 'PUT', body: { log_id: asked.body.log_id, comment: 'Checked' } })
      await server.call('/query_logs/add_query_favorite', { method: 'POST', body: { log_id: asked.body.log_id, comment: 'keep' } })
    })
    afterAll(async () => {
      await server?.stop()
    })

    it.skipIf(!isAvailable)('answers malformed, oversized and wrong-type requests to every route with a 4xx JSON error naming the problem, changing nothing', async () => {
      const plans = routePlans(server.backend)
      const requests = plans.flatMap(badRequestsFor)
      // Every route is covered: each has at least one kind of bad request it can be sent.
      const uncovered = plans.filter((plan) => badRequestsFor(plan).length === 0 && plan.method !== 'GET').map((plan) => `${plan.method} ${plan.url}`)
      expect(uncovered).toEqual([])
      const routesOf = new Map(plans.map((plan) => [plan, badRequestsFor(plan)]))
      const before = await databaseFingerprint(server.backend.db)
      const failures: string[] = []
      const seenKinds = new Set<string>()

      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...plans.filter((plan) => routesOf.get(plan)!.length > 0)).chain((plan) => fc.tuple(fc.constant(plan), fc.oneof(...routesOf.get(plan)!))),
          async ([plan, request]) => {
            seenKinds.add(request.kind)
            const search = new URLSearchParams(request.query).toString()
            const response = await server.call(`${request.path}${search ? `?${search}` : ''}`, {
              method: plan.method,
              rawBody: request.body,
              headers: request.contentType ? { 'content-type': request.contentType } : {},
            })
            const shown = typeof response.body === 'string' ? response.body : JSON.stringify(response.body)
            const describe = `${plan.method} ${request.path}?${search} [${request.kind}] ${String(request.body ?? '').slice(0, 100)} → ${response.status} ${shown.slice(0, 200)}`
            if (response.status < 400 || response.status >= 500) {
              failures.push(describe)
              return
            }
            if (!/^application\/json/.test(response.headers.get('content-type') ?? '') || typeof response.body !== 'object' || response.body === null) {
              failures.push(`${describe} (not JSON)`)
              return
            }
            const body = response.body as { success?: boolean; message?: unknown; details?: Array<{ field: string }> }
            const message = typeof body.message === 'string' ? body.message : ''
            if (body.success !== false || message.trim().length < 8) failures.push(`${describe} (no error that names the problem)`)
            if (request.fields && response.status === 400) {
              const named = [...(body.details ?? []).map((detail) => detail.field), message].join(' ')
              const required = plan.body?.required ?? []
              if (![...request.fields, ...required, 'body'].some((field) => named.includes(field))) failures.push(`${describe} (names none of the fields)`)
            }
          },
        ),
        { numRuns: 400, seed: 20261123, endOnFailure: true },
      )

      expect(failures).toEqual([])
      expect(await databaseFingerprint(server.backend.db)).toBe(before)
      // The administrator's own session went through it all untouched.
      expect((await server.call('/who_am_i')).status).toBe(200)
      expect([...seenKinds].sort()).toEqual(expect.arrayContaining(['broken multipart', 'foreign content type', 'malformed JSON', 'oversized body', 'wrong path parameter', 'wrong query', 'wrong-type body']))
      expect(requests.length).toBeGreaterThan(plans.length)
    })
  })
}
