import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { isPostgresAvailable, startTestBackend, TEST_ADMIN_PASSWORD, type TestBackend } from '../testing/test-backend'

// Behind a balancer, the backend runs as several processes on one PostgreSQL database. The limits on sign-in,
// registration and asking, and the lockout after failed sign-ins, count every process's requests together (ADR 310):
// N processes allow what one does, not N times as much.

const postgresAvailable = await isPostgresAvailable()

describe.skipIf(!postgresAvailable)('limits shared by two backend processes on one database', () => {
  let one: TestBackend
  let two: TestBackend
  beforeAll(async () => {
    // One signing secret, as processes behind one balancer have: a token from one is good at the other.
    const limits = { LOGIN_RATE_LIMIT: '6', REGISTRATION_RATE_LIMIT: '2', ASK_RATE_LIMIT: '4', LOGIN_MAX_FAILURES: '3', TOKEN_SECRET: 'one-secret-for-both-processes-0123456789' }
    one = await startTestBackend('postgres', limits)
    two = await startTestBackend('postgres', limits, { sharedDatabaseUrl: one.config.DATABASE_URL })
  }, 180_000)
  afterAll(async () => {
    await two?.stop()
    await one?.stop()
  })

  /** Each call goes to the other process, as a balancer would send them. */
  const alternately = (index: number) => (index % 2 === 0 ? one : two)

  const signIn = (server: TestBackend, username: string, password: string, address: string) =>
    server.call('/auth/login', { method: 'POST', body: { username, password }, as: 'anonymous', headers: { 'x-client-address': address } })

  it('locks an address out of a name after LOGIN_MAX_FAILURES failures, wherever each was tried', async () => {
    const statuses = []
    for (let attempt = 0; attempt < 4; attempt++) statuses.push((await signIn(alternately(attempt), 'admin', `wrong-guess-${attempt}`, '203.0.113.70')).status)
    expect(statuses).toEqual([401, 401, 401, 429])
    // The right password from that address is refused by either process, and another address signs in.
    expect((await signIn(one, 'admin', TEST_ADMIN_PASSWORD, '203.0.113.70')).status).toBe(429)
    expect((await signIn(two, 'admin', TEST_ADMIN_PASSWORD, '203.0.113.70')).status).toBe(429)
    expect((await signIn(two, 'admin', TEST_ADMIN_PASSWORD, '203.0.113.71')).status).toBe(200)
  })

  it('counts sign-in attempts and registrations from an address across both processes', async () => {
    const statuses = []
    for (let attempt = 0; attempt < 7; attempt++) statuses.push((await signIn(alternately(attempt), `nobody-${attempt}`, 'whatever-pass-1', '198.51.100.70')).status)
    expect(statuses).toEqual([401, 401, 401, 401, 401, 401, 429])

    const register = (server: TestBackend, n: number) =>
      server.call('/users', {
        method: 'POST',
        body: { username: `shared-${n}`, email: `shared-${n}@example.test`, firstName: 'S', lastName: 'L', password: 'shared-pass-1' },
        as: 'anonymous',
        headers: { 'x-client-address': '198.51.100.71' },
      })
    expect([(await register(one, 1)).status, (await register(two, 2)).status, (await register(one, 3)).status, (await register(two, 4)).status]).toEqual([
      200, 200, 429, 429,
    ])
  })

  it('counts the questions of an account across both processes', async () => {
    const user = await one.createUser('user')
    const ask = (server: TestBackend) => server.call('/ask_qa', { method: 'POST', body: { command: 'How do I add an article?' }, as: { token: user.token } })
    const statuses = []
    for (let question = 0; question < 6; question++) statuses.push((await ask(alternately(question))).status)
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429])
    // Another account is not held back.
    const other = await two.createUser('user')
    expect((await one.call('/ask_qa', { method: 'POST', body: { command: 'How do I add an article?' }, as: { token: other.token } })).status).toBe(200)
  })
})
