import fc from 'fast-check'
import { expect, it } from 'vitest'
import { forEachStorage } from '../testing/test-backend'
import { databaseFingerprint, routePlans } from './bad-input.test-support'

// Values that no endpoint's body schema accepts as a whole body (every body is a JSON object).
const malformedBody = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 4 }),
)

// Query values that are never a valid id, number, enum or JSON filter: mutations keyed by query cannot match anything.
const malformedQueryValue = fc.oneof(
  fc.string({ maxLength: 30 }).filter((text) => !/^\s*[-+]?\d/.test(text) && !/^\s*[[{]/.test(text)),
  fc.constantFrom('-1', '1e999', '[]', '{"title":1}', 'NaN', "' OR 1=1 --", '%00', '<script>', 'x'.repeat(5000)),
)

const QUERY_KEYS = ['id', 'log_id', 'task_id', 'first', 'rows', 'sortField', 'sortOrder', 'filters', 'limit', 'last_id', 'status', 's3_key', 'filter', 'offset']

forEachStorage('malformed input', ({ server }) => {
  it('answers every route with a 4xx JSON error, never a 5xx, and changes no stored data', async () => {
    // Calls that take no input at all (sign-out, renewal, emptying the drafts) have nothing malformed to be sent.
    const routes = routePlans(server().backend).filter(
      (route) => route.url !== '/auth/login' && (route.method === 'GET' || route.body !== undefined || route.isMultipart || route.query.length > 0 || route.path.length > 0),
    )
    const before = await databaseFingerprint(server().backend.db)
    const failures: string[] = []
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...routes),
        malformedBody,
        fc.dictionary(fc.constantFrom(...QUERY_KEYS), malformedQueryValue, { maxKeys: 3 }),
        fc.constantFrom('1', '0', '-5', 'abc', '%E2%82', '99999999999'),
        async (route, body, query, pathValue) => {
          if (route.method === 'GET' && Object.keys(query).length === 0) query = { id: 'not-a-number' }
          const path = route.url.replace(/:[a-z_]+/g, pathValue)
          const search = new URLSearchParams(query).toString()
          // A route that declares no body ignores one: junk is sent only where a body is read.
          const hasBody = route.method !== 'GET' && (route.body !== undefined || route.isMultipart)
          const response = await server().call(`${path}${search ? `?${search}` : ''}`, {
            method: route.method,
            ...(hasBody ? { rawBody: JSON.stringify(body), headers: { 'content-type': 'application/json' } } : {}),
          })
          if (response.status >= 500) failures.push(`${route.method} ${path}?${search} ${JSON.stringify(body)?.slice(0, 80)} → ${response.status}`)
          if (response.status >= 400) {
            expect(response.body).toMatchObject({ success: false, message: expect.any(String) })
          }
        },
      ),
      { numRuns: 300, seed: 20261122 },
    )
    expect(failures).toEqual([])
    expect(await databaseFingerprint(server().backend.db)).toBe(before)
    expect((await server().call('/who_am_i')).status).toBe(200)
  })
})
