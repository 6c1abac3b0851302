import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase, type Database } from '../../db/database'
import { migrate } from '../../db/migrate'
import { clientAddressOf } from '../../plugins/access'
import { forEachStorage, isPostgresAvailable, startTestBackend, TEST_ADMIN_PASSWORD, TEST_API_KEY, type StorageKind, type TestBackend } from '../../testing/test-backend'
import { FailureCounter } from './failure-counter'
import { durationInWords, tooManyFailuresMessage } from './identity.service'

const signIn = (server: TestBackend, username: string, password: string, address?: string) =>
  server.call('/auth/login', { method: 'POST', body: { username, password }, as: 'anonymous', headers: address ? { 'x-client-address': address } : {} })

/** A plain user with a known password, registered through POST /users. */
async function registeredUser(server: TestBackend, name: string) {
  const username = `${name}-${Math.random().toString(36).slice(2, 8)}`
  const password = 'throttle-pass-1'
  const registered = await server.call('/users', {
    method: 'POST',
    body: { username, email: `${username}@example.test`, firstName: 'Throttle', lastName: 'Test', password },
    as: 'anonymous',
    headers: { 'x-client-address': '192.0.2.250' },
  })
  expect(registered.status).toBe(200)
  return { username, password }
}

forEachStorage('sign-in throttling', ({ server }) => {
  it('answers a known and an unknown name alike, before and after too many failures from one address', async () => {
    const known = await registeredUser(server(), 'known')
    const unknown = `nobody-${Math.random().toString(36).slice(2, 8)}`
    const answers: Record<string, { status: number; body: unknown }[]> = { known: [], unknown: [] }
    for (let attempt = 1; attempt <= 6; attempt++) {
      for (const [who, username] of [['known', known.username], ['unknown', unknown]] as const) {
        const { status, body } = await signIn(server(), username, `wrong-password-${attempt}`, '203.0.113.10')
        answers[who].push({ status, body })
      }
    }
    expect(answers.known).toEqual(answers.unknown)
    expect(answers.known.map((answer) => answer.status)).toEqual([401, 401, 401, 401, 401, 429])
    expect(answers.known[0].body).toEqual({ success: false, error: 'Unauthorized', message: 'Invalid username or password' })
    // The lock's default length (LOGIN_LOCK_SECONDS, 900 s), in words: when the address may try again.
    expect(answers.known[5].body).toEqual({ success: false, error: 'Too Many Requests', message: 'Too many failed sign-in attempts; try again in 15 minutes' })
    // Refused from that address even with the right password: what it answers depends on nothing but the address.
    expect((await signIn(server(), known.username, known.password, '203.0.113.10')).status).toBe(429)
  })

  it("never refuses another address for a name that strangers failed on, the administrator's included", async () => {
    const victim = await registeredUser(server(), 'victim')
    for (const name of [victim.username, 'admin']) {
      for (const stranger of ['203.0.113.20', '2001:db8:1::20']) {
        for (let attempt = 0; attempt < 5; attempt++) await signIn(server(), name, `guess-${attempt}-password`, stranger)
        expect((await signIn(server(), name, 'one-more-guess-1', stranger)).status).toBe(429)
      }
    }
    expect((await signIn(server(), victim.username, victim.password, '198.51.100.7')).status).toBe(200)
    expect((await signIn(server(), 'admin', TEST_ADMIN_PASSWORD, '198.51.100.8')).status).toBe(200)
    // Another address in the same IPv6 /64 is the same client.
    expect((await signIn(server(), victim.username, victim.password, '2001:db8:1::99')).status).toBe(429)
  })

  it('forgets the failures of an address for a name once it signs in', async () => {
    const user = await registeredUser(server(), 'forgetful')
    for (let round = 0; round < 2; round++) {
      for (let attempt = 0; attempt < 4; attempt++) expect((await signIn(server(), user.username, 'not-it-password-1', '203.0.113.30')).status).toBe(401)
      expect((await signIn(server(), user.username, user.password, '203.0.113.30')).status).toBe(200)
    }
  })

  it('counts a client address that is not an IP address as the connection address', async () => {
    const user = await registeredUser(server(), 'spoofer')
    for (let attempt = 0; attempt < 5; attempt++) await signIn(server(), user.username, 'not-it-password-1', `not-an-address-${attempt}`)
    expect((await signIn(server(), user.username, user.password)).status).toBe(429)
    expect((await signIn(server(), user.username, user.password, '203.0.113.31')).status).toBe(200)
  })
})

for (const kind of ['pglite', 'postgres'] as StorageKind[]) {
  describe(`per-address limits of sign-in and registration on ${kind}`, async () => {
    const isAvailable = kind === 'pglite' || (await isPostgresAvailable())

    it.skipIf(!isAvailable)('refuses an address past LOGIN_RATE_LIMIT and REGISTRATION_RATE_LIMIT, and only that address', { timeout: 180_000 }, async () => {
      const server = await startTestBackend(kind, { LOGIN_RATE_LIMIT: '3', REGISTRATION_RATE_LIMIT: '2' })
      try {
        // Sign-in attempts, right or wrong, for any names.
        const statuses = []
        for (const name of ['a-name', 'b-name', 'admin', 'c-name']) statuses.push((await signIn(server, name, 'whatever-pass-1', '198.51.100.1')).status)
        expect(statuses).toEqual([401, 401, 401, 429])
        const limited = await signIn(server, 'admin', TEST_ADMIN_PASSWORD, '198.51.100.1')
        expect(limited.status).toBe(429)
        expect(limited.body).toMatchObject({ success: false, error: 'Too Many Requests', message: expect.stringContaining('Too many sign-in attempts from this address') })
        expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0)
        expect((await signIn(server, 'admin', TEST_ADMIN_PASSWORD, '198.51.100.2')).status).toBe(200)

        const register = (n: number, address: string) =>
          server.call('/users', {
            method: 'POST',
            body: { username: `limited-${n}`, email: `limited-${n}@example.test`, firstName: 'L', lastName: 'R', password: 'limited-pass-1' },
            as: 'anonymous',
            headers: { 'x-client-address': address },
          })
        expect([(await register(1, '198.51.100.3')).status, (await register(2, '198.51.100.3')).status, (await register(3, '198.51.100.3')).status]).toEqual([200, 200, 429])
        expect((await register(4, '198.51.100.4')).status).toBe(200)
        const [{ count }] = await server.backend.db.query<{ count: number }>(`SELECT COUNT(*)::int AS count FROM users WHERE username LIKE 'limited-%'`)
        expect(count).toBe(3)
      } finally {
        await server.stop()
      }
    })
  })
}

describe('the client address', () => {
  const request = (headers: Record<string, string>, ip = '127.0.0.1') => ({ headers, query: {}, ip })

  it('is the one the web server names, with the backend API key', () => {
    expect(clientAddressOf(request({ apikey: TEST_API_KEY, 'x-client-address': '203.0.113.5' }), TEST_API_KEY)).toBe('203.0.113.5')
    expect(clientAddressOf({ headers: { 'x-client-address': '203.0.113.6' }, query: { apikey: TEST_API_KEY }, ip: '127.0.0.1' }, TEST_API_KEY)).toBe('203.0.113.6')
  })

  it("is the connection's without the backend API key, or when the header is not one address", () => {
    expect(clientAddressOf(request({ apikey: 'some-other-key-0123456', 'x-client-address': '203.0.113.5' }), TEST_API_KEY)).toBe('127.0.0.1')
    expect(clientAddressOf(request({ 'x-client-address': '203.0.113.5' }), TEST_API_KEY)).toBe('127.0.0.1')
    expect(clientAddressOf(request({ apikey: TEST_API_KEY, 'x-client-address': '203.0.113.5, 10.0.0.1' }), TEST_API_KEY)).toBe('127.0.0.1')
  })

  it('counts IPv4 written as IPv6 as IPv4, and an IPv6 address as its /64', () => {
    expect(clientAddressOf(request({}, '::ffff:192.0.2.1'), TEST_API_KEY)).toBe('192.0.2.1')
    expect(clientAddressOf(request({ apikey: TEST_API_KEY, 'x-client-address': '2001:db8:1:2:3:4:5:6' }), TEST_API_KEY)).toBe(
      clientAddressOf(request({ apikey: TEST_API_KEY, 'x-client-address': '2001:db8:1:2::9' }), TEST_API_KEY),
    )
  })
})

describe('the failure counter', () => {
  let db: Database
  beforeAll(async () => {
    db = await openDatabase({ url: 'memory://', dataDir: '' })
    await migrate(db)
  })
  afterAll(async () => {
    await db?.close()
  })

  let counters = 0
  /** A counter of its own (its own name), on a clock the test moves. */
  const counter = (maxFailures = 3) => {
    let now = 1_000_000
    const failures = new FailureCounter(db, { name: `test-${++counters}`, maxFailures, windowMs: 60_000, now: () => now })
    return { failures, advance: (ms: number) => (now += ms) }
  }

  it('refuses a key after the maximum of failures, for the window, then starts afresh', async () => {
    const { failures, advance } = counter()
    expect([await failures.recordFailure('k'), await failures.recordFailure('k')]).toEqual([1, 2])
    expect(await failures.isRefused('k')).toBe(false)
    await failures.recordFailure('k')
    expect(await failures.isRefused('k')).toBe(true)
    expect(await failures.isRefused('other')).toBe(false)
    advance(59_999)
    expect(await failures.isRefused('k')).toBe(true)
    advance(1)
    expect(await failures.isRefused('k')).toBe(false)
    expect(await failures.recordFailure('k')).toBe(1)
  })

  it('tells how much longer a key is refused', async () => {
    const { failures, advance } = counter()
    for (let index = 0; index < 3; index++) await failures.recordFailure('k')
    expect(await failures.refusedForMs('k')).toBe(60_000)
    advance(45_500)
    expect(await failures.refusedForMs('k')).toBe(14_500)
    expect(await failures.refusedForMs('other')).toBe(0)
    advance(14_500)
    expect(await failures.refusedForMs('k')).toBe(0)
  })

  it('does not add up failures further apart than the window, and never refuses without a maximum', async () => {
    const { failures, advance } = counter()
    await failures.recordFailure('k')
    await failures.recordFailure('k')
    advance(60_000)
    expect(await failures.recordFailure('k')).toBe(1)
    const unlimited = counter(Number.POSITIVE_INFINITY).failures
    for (let index = 1; index <= 5; index++) expect(await unlimited.recordFailure('k')).toBe(index)
    expect(await unlimited.isRefused('k')).toBe(false)
  })

  it('keeps the counts of counters with other names apart, forgets a key on request, and prunes what counts no more', async () => {
    const one = counter()
    const other = counter()
    for (let index = 0; index < 3; index++) await one.failures.recordFailure('a')
    expect(await other.failures.isRefused('a')).toBe(false)
    expect(await other.failures.recordFailure('a')).toBe(1)
    await one.failures.forget('a')
    expect(await one.failures.isRefused('a')).toBe(false)
    expect(await other.failures.recordFailure('a')).toBe(2)

    await one.failures.recordFailure('b')
    const rows = async () => (await db.query<{ key: string }>(`SELECT key FROM sign_in_failures ORDER BY key`)).map((row) => row.key)
    const before = await rows()
    one.advance(60_000)
    await one.failures.prune()
    // Only the pruned counter's ended key goes.
    expect(await rows()).toEqual(before.filter((key) => key !== `test-${counters - 1}\nb`))
  })

  it('counts failures recorded at once by several processes, each of them', async () => {
    const { failures } = counter(Number.POSITIVE_INFINITY)
    // Another process is another counter with the same name on the same database.
    const elsewhere = new FailureCounter(db, { name: `test-${counters}`, maxFailures: Number.POSITIVE_INFINITY, windowMs: 60_000, now: () => 1_000_000 })
    const counts = await Promise.all(Array.from({ length: 20 }, (_, index) => (index % 2 ? failures : elsewhere).recordFailure('k')))
    expect([...counts].sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, index) => index + 1))
  })
})

describe('the lockout message', () => {
  it('says when the address may try again, rounded up', () => {
    expect(tooManyFailuresMessage(900_000)).toBe('Too many failed sign-in attempts; try again in 15 minutes')
    expect(tooManyFailuresMessage(14 * 60_000 + 1)).toBe('Too many failed sign-in attempts; try again in 15 minutes')
    expect(durationInWords(60_000)).toBe('1 minute')
    expect(durationInWords(61_000)).toBe('2 minutes')
    expect(durationInWords(30_000)).toBe('30 seconds')
    expect(durationInWords(1)).toBe('1 second')
    expect(durationInWords(120 * 60_000)).toBe('120 minutes')
    expect(durationInWords(24 * 3_600_000)).toBe('24 hours')
  })
})
