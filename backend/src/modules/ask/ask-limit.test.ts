import { describe, expect, it } from 'vitest'
import { loadConfig } from '../../config'
import { isPostgresAvailable, startTestBackend, type StorageKind, type TestBackend } from '../../testing/test-backend'

// Every question may cost a paid model call, and the web server asks for every browser from one address: questions
// and agent runs are limited per account (ASK_RATE_LIMIT a minute), whatever the address.

const ask = (server: TestBackend, token: string, body: Record<string, unknown> = {}, address = '198.51.100.7') =>
  server.call('/ask_qa', { method: 'POST', body: { command: 'How do I add an article?', ...body }, as: { token }, headers: { 'x-client-address': address } })

const askByStream = async (server: TestBackend, token: string) => {
  const answer = await server.call('/ask_qa_stream', { method: 'POST', body: { command: 'How do I publish a draft?' }, as: { token } })
  return answer.status
}

for (const kind of ['pglite', 'postgres'] as StorageKind[]) {
  describe(`the per-account limit on asking on ${kind}`, async () => {
    const isAvailable = kind === 'pglite' || (await isPostgresAvailable())

    it.skipIf(!isAvailable)(
      'refuses an account past ASK_RATE_LIMIT questions and agent runs a minute with 429, a reason and Retry-After, and only that account',
      { timeout: 180_000 },
      async () => {
        const server = await startTestBackend(kind, { ASK_RATE_LIMIT: '3' })
        try {
          const first = await server.createUser('user')
          const second = await server.createUser('user')
          // A refused form asks nothing and costs nothing of the allowance.
          expect((await ask(server, first.token, { command: '   ' })).status).toBe(400)
          // A question, an agent run and a streamed question each count; each from another address, which does not help.
          const asked = await ask(server, first.token, {}, '198.51.100.1')
          expect(asked.status).toBe(200)
          expect((await ask(server, first.token, { mode: 'agent' }, '198.51.100.2')).status).toBe(200)
          expect(await askByStream(server, first.token)).toBe(200)

          const refused = await ask(server, first.token, {}, '198.51.100.3')
          expect(refused.status).toBe(429)
          expect(refused.body).toMatchObject({ success: false, error: 'Too Many Requests' })
          expect(refused.body.message).toMatch(/^You have reached the limit of 3 questions a minute \(agent runs count too\)\. Please wait \d+ seconds? and ask again\.$/)
          const retryAfter = Number(refused.headers.get('retry-after'))
          expect(retryAfter).toBeGreaterThan(0)
          expect(retryAfter).toBeLessThanOrEqual(60)
          expect((await ask(server, first.token, { mode: 'agent' })).status).toBe(429)
          expect(await askByStream(server, first.token)).toBe(429)
          // Refused questions are not logged: nothing was asked.
          const [{ count }] = await server.backend.db.query<{ count: number }>(`SELECT COUNT(*)::int AS count FROM query_logs WHERE user_id = $1`, [first.id])
          expect(count).toBe(3)

          // Reading answers is not asking: the answer of an earlier question still comes.
          expect(asked.body.task_id).toEqual(expect.any(String))
          const polled = await server.call('/ask_qa_answer', { method: 'POST', body: { task_id: asked.body.task_id }, as: { token: first.token } })
          expect(polled.status).toBe(200)
          // Another account from the same address asks as before.
          expect((await ask(server, second.token, {}, '198.51.100.3')).status).toBe(200)
        } finally {
          await server.stop()
        }
      },
    )

    it.skipIf(!isAvailable)('counts an integration key as its own account, and asks without limit when ASK_RATE_LIMIT is 0', { timeout: 180_000 }, async () => {
      const limited = await startTestBackend(kind, { ASK_RATE_LIMIT: '2' })
      try {
        const [organization] = await limited.backend.db.query<{ id: number }>(`SELECT id FROM organizations ORDER BY id LIMIT 1`)
        const created = await limited.call('/admin/api_keys', { method: 'POST', body: { name: 'Chat widget', role: 'user', organization_id: organization.id } })
        expect(created.status).toBe(200)
        const withKey = () => limited.call('/ask_qa', { method: 'POST', body: { command: 'How do I add an article?' }, as: 'anonymous', headers: { apikey: created.body.key } })
        expect([(await withKey()).status, (await withKey()).status, (await withKey()).status]).toEqual([200, 200, 429])
        // The administrator, another account, is not held back by the key.
        expect((await limited.call('/ask_qa', { method: 'POST', body: { command: 'How do I add an article?' } })).status).toBe(200)
      } finally {
        await limited.stop()
      }
      const unlimited = await startTestBackend(kind, { ASK_RATE_LIMIT: '0' })
      try {
        const user = await unlimited.createUser('user')
        const statuses = []
        for (let question = 0; question < 40; question++) statuses.push((await ask(unlimited, user.token)).status)
        expect(statuses.every((status) => status === 200)).toBe(true)
      } finally {
        await unlimited.stop()
      }
    })
  })
}

describe('ASK_RATE_LIMIT', () => {
  const base = { API_KEY: 'a-long-enough-key' }

  it('is 30 questions a minute unless set, and 0 turns the limit off', () => {
    expect(loadConfig(base).ASK_RATE_LIMIT).toBe(30)
    expect(loadConfig({ ...base, ASK_RATE_LIMIT: '0' }).ASK_RATE_LIMIT).toBe(0)
    expect(loadConfig({ ...base, ASK_RATE_LIMIT: '120' }).ASK_RATE_LIMIT).toBe(120)
  })

  it('refuses a value that is no whole number of questions, naming the setting', () => {
    for (const value of ['-1', '2.5', 'many']) expect(() => loadConfig({ ...base, ASK_RATE_LIMIT: value })).toThrow(/ASK_RATE_LIMIT/)
  })
})
