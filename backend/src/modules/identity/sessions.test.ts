import { decodeJwt, SignJWT } from 'jose'
import { describe, expect, it } from 'vitest'
import { SESSION_KEPT_MS } from './identity.service'
import { forEachStorage, isPostgresAvailable, startTestBackend, type StorageKind, type TestBackend } from '../../testing/test-backend'

const PASSWORD = 'session-pass-1'

/** Registers a plain user through POST /users and signs them in twice (two sessions, as on two devices). */
async function personWithTwoSessions(server: TestBackend, name: string) {
  const username = `${name}-${Math.random().toString(36).slice(2, 8)}`
  const organizationId = (await server.call('/organizations', { as: 'anonymous' })).body[0].id
  const registered = await server.call('/users', {
    method: 'POST',
    body: { username, email: `${username}@example.test`, firstName: 'Session', lastName: 'Person', password: PASSWORD, organizations: [organizationId] },
    as: 'anonymous',
  })
  expect(registered.status).toBe(200)
  const signIn = async (password = PASSWORD) => server.call('/auth/login', { method: 'POST', body: { username, password }, as: 'anonymous' })
  const [first, second] = [(await signIn()).body.access_token as string, (await signIn()).body.access_token as string]
  return { id: registered.body.id as number, username, first, second, signIn }
}

const statusOf = async (server: TestBackend, token: string) => (await server.call('/auth/me', { as: { token } })).status

/** The body an administrator's form sends for an existing user, with changes. */
async function editOf(server: TestBackend, id: number, changes: Record<string, unknown>) {
  const user = (await server.call(`/admin/users/${id}`)).body
  return {
    id,
    username: user.username,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    cellphone: user.cellphone,
    password: '',
    group_id: user.group_id,
    organization_id: user.organization_id,
    enabled: user.enabled,
    ...changes,
  }
}

forEachStorage('sessions', ({ server }) => {
  describe('sign-out', () => {
    it('ends the session of the token it is called with, and only that one', async () => {
      const person = await personWithTwoSessions(server(), 'leaver')
      const answer = await server().call('/auth/logout', { method: 'POST', as: { token: person.first } })
      expect(answer.status).toBe(200)
      expect(answer.body).toEqual({ success: true, message: 'Signed out' })
      expect(await statusOf(server(), person.first)).toBe(401)
      expect((await server().call('/auth/refresh', { method: 'POST', as: { token: person.first } })).status).toBe(401)
      expect((await server().call('/auth/logout', { method: 'POST', as: { token: person.first } })).status).toBe(401)
      // The same person's other session (another device) goes on.
      expect(await statusOf(server(), person.second)).toBe(200)
    })

    it('needs a signed-in caller', async () => {
      const answer = await server().call('/auth/logout', { method: 'POST', as: 'anonymous' })
      expect(answer.status).toBe(401)
      expect(answer.body).toMatchObject({ success: false, message: expect.any(String) })
    })
  })

  describe('a password change', () => {
    it("by the user: ends the user's other sessions, keeps this one, and the old password stops working", async () => {
      const person = await personWithTwoSessions(server(), 'changer')
      const answer = await server().call('/auth/password', {
        method: 'POST',
        body: { current_password: PASSWORD, new_password: 'a-brand-new-pass-2' },
        as: { token: person.first },
      })
      expect(answer.status).toBe(200)
      expect(answer.body.success).toBe(true)
      expect(await statusOf(server(), person.first)).toBe(200)
      expect(await statusOf(server(), person.second)).toBe(401)
      expect((await person.signIn()).status).toBe(401)
      expect((await person.signIn('a-brand-new-pass-2')).status).toBe(200)
    })

    it('by the user: refuses a wrong current password or a weak new one, changing nothing', async () => {
      const person = await personWithTwoSessions(server(), 'guesser')
      const wrong = await server().call('/auth/password', {
        method: 'POST',
        body: { current_password: 'not-my-password-1', new_password: 'a-brand-new-pass-2' },
        as: { token: person.first },
      })
      expect(wrong.status).toBe(400)
      expect(wrong.body.details).toEqual([{ field: 'current_password', message: 'The current password is not correct' }])
      const weak = await server().call('/auth/password', { method: 'POST', body: { current_password: PASSWORD, new_password: 'short' }, as: { token: person.first } })
      expect(weak.status).toBe(400)
      expect(weak.body.details[0].field).toBe('new_password')
      expect(await statusOf(server(), person.second)).toBe(200)
      expect((await person.signIn()).status).toBe(200)
    })

    it("by an administrator: ends every session of the user", async () => {
      const person = await personWithTwoSessions(server(), 'reset')
      const answer = await server().call(`/admin/users/${person.id}`, { method: 'PUT', body: await editOf(server(), person.id, { password: 'set-by-admin-3' }) })
      expect(answer.status).toBe(200)
      expect(await statusOf(server(), person.first)).toBe(401)
      expect(await statusOf(server(), person.second)).toBe(401)
      expect((await person.signIn('set-by-admin-3')).status).toBe(200)
    })

    it('by an administrator of their own password: keeps the session they work in and ends their others', async () => {
      const person = await personWithTwoSessions(server(), 'self-admin')
      const adminGroup = (await server().call(`/admin/groups/${(await server().call(`/admin/users/${person.id}`)).body.organization_id}`)).body.find(
        (group: { role: string }) => group.role === 'admin',
      ).id
      expect((await server().call(`/admin/users/${person.id}`, { method: 'PUT', body: await editOf(server(), person.id, { group_id: adminGroup }) })).status).toBe(200)
      // Made an administrator, they sign in again (another role ends the sessions of the old one).
      const [first, second] = [(await person.signIn()).body.access_token as string, (await person.signIn()).body.access_token as string]
      const answer = await server().call(`/admin/users/${person.id}`, {
        method: 'PUT',
        body: await editOf(server(), person.id, { password: 'my-own-new-pass-4' }),
        as: { token: first },
      })
      expect(answer.status).toBe(200)
      expect(await statusOf(server(), first)).toBe(200)
      expect(await statusOf(server(), second)).toBe(401)
    })

    it('by an administrator giving another role or organisation: ends every session of the user, whose next sign-in has the new role', async () => {
      const person = await personWithTwoSessions(server(), 'moved')
      const organizationId = (await server().call(`/admin/users/${person.id}`)).body.organization_id
      const groups = (await server().call(`/admin/groups/${organizationId}`)).body as { id: number; role: string }[]
      const editorGroup = groups.find((group) => group.role === 'editor')!.id
      // Another field (a name) changes nothing of who they are: the sessions go on.
      expect((await server().call(`/admin/users/${person.id}`, { method: 'PUT', body: await editOf(server(), person.id, { lastName: 'Renamed' }) })).status).toBe(200)
      expect(await statusOf(server(), person.first)).toBe(200)
      expect((await server().call(`/admin/users/${person.id}`, { method: 'PUT', body: await editOf(server(), person.id, { group_id: editorGroup }) })).status).toBe(200)
      expect(await statusOf(server(), person.first)).toBe(401)
      expect(await statusOf(server(), person.second)).toBe(401)
      expect((await server().call('/auth/refresh', { method: 'POST', as: { token: person.second } })).status).toBe(401)
      const again = await person.signIn()
      expect(again.status).toBe(200)
      expect((await server().call('/auth/me', { as: { token: again.body.access_token } })).body.role).toBe('editor')
    })
  })

  describe('sessions kept in memory', () => {
    it('reads a session once while nothing changes, and trusts a change made by another process within SESSION_KEPT_MS', async () => {
      const person = await personWithTwoSessions(server(), 'kept')
      const db = server().backend.db
      const original = db.query.bind(db)
      let sessionReads = 0
      db.query = ((sql: string, params?: unknown[]) => {
        if (sql.includes('FROM sessions s JOIN users')) sessionReads++
        return original(sql, params)
      }) as typeof db.query
      try {
        expect(await statusOf(server(), person.first)).toBe(200)
        expect(await statusOf(server(), person.first)).toBe(200)
        expect(await statusOf(server(), person.first)).toBe(200)
        expect(sessionReads).toBe(1)
        // Another process ends the session: this one notices once its kept copy is older than SESSION_KEPT_MS.
        await original(`DELETE FROM sessions WHERE user_id = $1`, [person.id])
        await new Promise((resolve) => setTimeout(resolve, SESSION_KEPT_MS + 50))
        expect(await statusOf(server(), person.first)).toBe(401)
        expect(sessionReads).toBe(2)
      } finally {
        db.query = original
      }
    })
  })

  describe('disabling an account', () => {
    it('ends its sessions for good: enabling it again does not bring old tokens back', async () => {
      const person = await personWithTwoSessions(server(), 'paused')
      expect((await server().call(`/admin/users/${person.id}`, { method: 'PUT', body: await editOf(server(), person.id, { enabled: false }) })).status).toBe(200)
      expect(await statusOf(server(), person.first)).toBe(401)
      expect((await server().call(`/admin/users/${person.id}`, { method: 'PUT', body: await editOf(server(), person.id, { enabled: true }) })).status).toBe(200)
      expect(await statusOf(server(), person.first)).toBe(401)
      expect(await statusOf(server(), person.second)).toBe(401)
      expect((await server().call('/auth/refresh', { method: 'POST', as: { token: person.second } })).status).toBe(401)
      expect((await person.signIn()).status).toBe(200)
    })
  })
})

const TOKEN_SECRET = 'sessions-test-token-secret-0123456789abcdef'

for (const kind of ['pglite', 'postgres'] as StorageKind[]) {
  describe(`the absolute lifetime of a session on ${kind}`, async () => {
    const isAvailable = kind === 'pglite' || (await isPostgresAvailable())

    it.skipIf(!isAvailable)(
      'renews tokens within the session only: same session and sign-in time, never past SESSION_MAX_SECONDS, refused after',
      { timeout: 180_000 },
      async () => {
        // Tokens would live an hour, but the session only two minutes.
        const server = await startTestBackend(kind, { TOKEN_SECRET, TOKEN_TTL_SECONDS: '3600', SESSION_MAX_SECONDS: '120' })
        try {
          const user = await server.createUser('user')
          const claims = decodeJwt(user.token)
          expect(claims.exp! - claims.iat!).toBeLessThanOrEqual(120)
          expect(claims).toMatchObject({ sid: expect.any(String), auth_time: expect.any(Number) })

          const refreshed = await server.call('/auth/refresh', { method: 'POST', as: { token: user.token } })
          expect(refreshed.status).toBe(200)
          expect(refreshed.body.expires_in).toBeLessThanOrEqual(120)
          const renewed = decodeJwt(refreshed.body.access_token)
          expect(renewed).toMatchObject({ sid: claims.sid, auth_time: claims.auth_time })
          expect(renewed.exp).toBeLessThanOrEqual((claims.auth_time as number) + 120)

          // A token of this session that claims an older sign-in (as if renewed for longer) is refused by its claim.
          const key = new TextEncoder().encode(TOKEN_SECRET)
          const stale = await new SignJWT({ org: claims.org, sid: claims.sid, auth_time: (claims.auth_time as number) - 121 })
            .setProtectedHeader({ alg: 'HS256' })
            .setSubject(claims.sub!)
            .setIssuer(claims.iss!)
            .setAudience(claims.aud!)
            .setIssuedAt()
            .setExpirationTime('1h')
            .sign(key)
          expect((await server.call('/auth/refresh', { method: 'POST', as: { token: stale } })).status).toBe(401)
          expect((await server.call('/auth/me', { as: { token: stale } })).status).toBe(401)
          expect((await server.call('/auth/me', { as: { token: refreshed.body.access_token } })).status).toBe(200)

          // The session reaches its end: neither its tokens nor renewal work any more (the end is moved here in the
          // database, as another process would; a session read within SESSION_KEPT_MS is trusted until then).
          await server.backend.db.query(`UPDATE sessions SET expires_at = now() - interval '1 second' WHERE id = $1`, [claims.sid])
          await new Promise((resolve) => setTimeout(resolve, SESSION_KEPT_MS + 50))
          const late = await server.call('/auth/refresh', { method: 'POST', as: { token: refreshed.body.access_token } })
          expect(late.status).toBe(401)
          expect(late.body.message).toBe('The session of this bearer token has ended; sign in again')
          expect((await server.call('/auth/me', { as: { token: user.token } })).status).toBe(401)
        } finally {
          await server.stop()
        }
      },
    )
  })
}
