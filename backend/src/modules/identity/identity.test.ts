import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { isPostgresAvailable, startTestBackend, type StorageKind, type TestBackend } from '../../testing/test-backend'

const AUDIENCE = 'knowledge-assistant-web'

/** A stand-in for the provider's published side: discovery and the key set, on 127.0.0.1. */
async function startKeyServer() {
  const signing = await generateKeyPair('RS256', { extractable: true })
  const published: JWK[] = [{ ...(await exportJWK(signing.publicKey)), kid: 'key-1', alg: 'RS256', use: 'sig' }]
  const server: Server = createServer((request, response) => {
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    response.setHeader('content-type', 'application/json')
    if (request.url === '/.well-known/openid-configuration') {
      response.end(JSON.stringify({ issuer: base, jwks_uri: `${base}/jwks`, authorization_endpoint: `${base}/auth`, token_endpoint: `${base}/token` }))
    } else if (request.url === '/jwks') {
      response.end(JSON.stringify({ keys: published }))
    } else {
      response.statusCode = 404
      response.end('{}')
    }
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    issuer,
    /** An ID token as the provider would issue it; every part can be changed. */
    idToken(
      claims: Record<string, unknown> = {},
      options: { key?: CryptoKey; kid?: string; audience?: string | string[]; issuer?: string; expiresIn?: string | number; issuedAt?: number } = {},
    ) {
      return new SignJWT({ preferred_username: 'sso-person', email: 'sso-person@example.test', ...claims })
        .setProtectedHeader({ alg: 'RS256', kid: options.kid ?? 'key-1' })
        .setIssuer(options.issuer ?? issuer)
        .setAudience(options.audience ?? AUDIENCE)
        .setSubject(String(claims.sub ?? 'subject-1'))
        .setIssuedAt(options.issuedAt)
        .setExpirationTime(options.expiresIn ?? '5m')
        .sign(options.key ?? signing.privateKey)
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

for (const kind of ['pglite', 'postgres'] as StorageKind[]) {
  describe(`identity on ${kind}`, async () => {
    const isAvailable = kind === 'pglite' || (await isPostgresAvailable())
    let keys: Awaited<ReturnType<typeof startKeyServer>>
    let server: TestBackend

    beforeAll(async () => {
      if (!isAvailable) return
      keys = await startKeyServer()
      server = await startTestBackend(kind, { OIDC_ISSUER: keys.issuer, OIDC_AUDIENCE: AUDIENCE, TOKEN_TTL_SECONDS: '60' })
      const [organization] = await server.backend.db.query<{ id: number }>(`INSERT INTO organizations (name) VALUES ('Ministry of Examples') RETURNING id`)
      await server.backend.db.query(
        `INSERT INTO groups (organization_id, name, role) VALUES ($1, 'Administrators', 'admin'), ($1, 'Editors', 'editor'), ($1, 'Users', 'user')`,
        [organization.id],
      )
    })
    afterAll(async () => {
      await server?.stop()
      await keys?.close()
    })

    const me = (token: string) => server.call('/auth/me', { as: { token } })
    const userRow = async (id: number) =>
      (
        await server.backend.db.query<{ username: string; email: string; external_subject: string; organization: string; role: string }>(
          `SELECT u.username, u.email, u.external_subject, o.name AS organization, g.role
             FROM users u JOIN groups g ON g.id = u.group_id JOIN organizations o ON o.id = u.organization_id WHERE u.id = $1`,
          [id],
        )
      )[0]

    describe.skipIf(!isAvailable)('single sign-on tokens', () => {
      it("accepts the provider's ID token and creates the user with the organisation and role its claims name", async () => {
        const token = await keys.idToken({ sub: 'editor-1', preferred_username: 'erin', email: 'erin@example.test', role: 'editor', organization: 'Ministry of Examples' })
        const answer = await me(token)
        expect(answer.status).toBe(200)
        expect(answer.body).toMatchObject({ username: 'erin', role: 'editor' })
        expect(await userRow(answer.body.id)).toMatchObject({
          username: 'erin',
          email: 'erin@example.test',
          external_subject: `${keys.issuer}|editor-1`,
          organization: 'Ministry of Examples',
          role: 'editor',
        })
        // The same subject is the same user next time.
        expect((await me(await keys.idToken({ sub: 'editor-1', preferred_username: 'erin', role: 'editor', organization: 'Ministry of Examples' }))).body.id).toBe(answer.body.id)
      })

      it('puts a user whose token names no role or a foreign organisation in the default organisation with the default role', async () => {
        const answer = await me(await keys.idToken({ sub: 'plain-1', preferred_username: 'pat', organization: 'Nobody Knows This Org' }))
        expect(answer.status).toBe(200)
        expect(await userRow(answer.body.id)).toMatchObject({ organization: 'Default organisation', role: 'user' })
      })

      it('takes a role from a list of roles, the highest one', async () => {
        const answer = await me(await keys.idToken({ sub: 'list-1', preferred_username: 'lee', role: ['user', 'admin', 'other'] }))
        expect(answer.body.role).toBe('admin')
      })

      it("follows the provider when a user's role claim changes", async () => {
        const first = await me(await keys.idToken({ sub: 'mover-1', preferred_username: 'mo', role: 'user' }))
        expect(first.body.role).toBe('user')
        const promoted = await me(await keys.idToken({ sub: 'mover-1', preferred_username: 'mo', role: 'editor' }))
        expect(promoted.body).toMatchObject({ id: first.body.id, role: 'editor' })
        expect((await server.call('/admin/get_articles', { as: { token: await keys.idToken({ sub: 'mover-1', role: 'editor' }) } })).status).toBe(200)
      })

      it('makes the username unique and never joins a local account by its email', async () => {
        const local = await server.createUser('admin')
        const answer = await me(await keys.idToken({ sub: 'twin-1', preferred_username: local.username, email: `${local.username}@example.test`, role: 'user' }))
        expect(answer.status).toBe(200)
        expect(answer.body.id).not.toBe(local.id)
        expect(answer.body.role).toBe('user')
        const row = await userRow(answer.body.id)
        expect(row.username).toBe(`${local.username}-2`)
        expect(row.email).not.toBe(`${local.username}@example.test`)
      })

      it('refuses a tampered ID token', async () => {
        const token = await keys.idToken({ sub: 'tamper-1', role: 'user' })
        const [header, payload, signature] = token.split('.')
        const claims = JSON.parse(Buffer.from(payload, 'base64url').toString())
        const forged = `${header}.${Buffer.from(JSON.stringify({ ...claims, role: 'admin' })).toString('base64url')}.${signature}`
        expect((await me(forged)).status).toBe(401)
        expect((await server.call('/admin/users', { as: { token: forged } })).status).toBe(401)
        const flipped = `${header}.${payload}.${signature.slice(0, -4)}${signature.endsWith('AAAA') ? 'BBBB' : 'AAAA'}`
        expect((await me(flipped)).status).toBe(401)
      })

      it('refuses an ID token issued to another audience', async () => {
        const answer = await me(await keys.idToken({ sub: 'other-app-1' }, { audience: 'some-other-client' }))
        expect(answer.status).toBe(401)
        expect(answer.body).toMatchObject({ success: false, message: 'The bearer token is not valid or has expired' })
      })

      it('refuses a token for several audiences that does not name this client as its authorised party', async () => {
        const token = await keys.idToken({ sub: 'multi-1', azp: 'some-other-client' }, { audience: [AUDIENCE, 'some-other-client'] })
        expect((await me(await keys.idToken({ sub: 'multi-1', azp: AUDIENCE }, { audience: [AUDIENCE, 'some-other-client'] }))).status).toBe(200)
        expect((await me(token)).status).toBe(401)
      })

      it('refuses an expired ID token', async () => {
        const expired = await keys.idToken({ sub: 'late-1' }, { expiresIn: Math.floor(Date.now() / 1000) - 3600 })
        expect((await me(expired)).status).toBe(401)
      })

      it('refuses a token signed with a key the provider does not publish, or with a shared secret under its name', async () => {
        const stranger = await generateKeyPair('RS256')
        expect((await me(await keys.idToken({ sub: 'stranger-1' }, { key: stranger.privateKey }))).status).toBe(401)
        // Algorithm confusion: an HS256 token that claims the provider as its issuer.
        const symmetric = await new SignJWT({ role: 'admin' })
          .setProtectedHeader({ alg: 'HS256' })
          .setIssuer(keys.issuer)
          .setAudience(AUDIENCE)
          .setSubject('confused-1')
          .setIssuedAt()
          .setExpirationTime('5m')
          .sign(new TextEncoder().encode('a-secret-anyone-could-choose-0123456789'))
        expect((await me(symmetric)).status).toBe(401)
      })

      it('refuses a token from an issuer it was not configured for', async () => {
        expect((await me(await keys.idToken({ sub: 'elsewhere-1' }, { issuer: 'https://elsewhere.example' }))).status).toBe(401)
      })

      it("signs out a provider's user: the ID tokens issued until then stop working, a later sign-in works", async () => {
        const token = await keys.idToken({ sub: 'leaving-1', preferred_username: 'lea' })
        expect((await me(token)).status).toBe(200)
        const answer = await server.call('/auth/logout', { method: 'POST', as: { token } })
        expect(answer.status).toBe(200)
        expect((await me(token)).status).toBe(401)
        // A token from a sign-in after this one (iat in whole seconds, so a later second).
        const later = await keys.idToken({ sub: 'leaving-1', preferred_username: 'lea' }, { issuedAt: Math.floor(Date.now() / 1000) + 2 })
        expect((await me(later)).status).toBe(200)
      })

      it('signs out a provider user without refusing a sign-in made in the same second, in another browser or this one', async () => {
        const now = () => Math.floor(Date.now() / 1000)
        // The second of the sign-out must be known: start early in a second and try again if it turned meanwhile.
        for (let attempt = 1; ; attempt++) {
          const sub = `same-second-${attempt}`
          const older = await keys.idToken({ sub, preferred_username: 'sam' }, { issuedAt: now() - 10 })
          const elsewhere = await keys.idToken({ sub, preferred_username: 'sam' }, { issuedAt: now() - 5 })
          expect((await me(older)).status).toBe(200)
          while (Date.now() % 1000 > 300) await new Promise((resolve) => setTimeout(resolve, 10))
          const second = now()
          expect((await server.call('/auth/logout', { method: 'POST', as: { token: older } })).status).toBe(200)
          // A sign-in at the provider just after: its token carries the second of the sign-out.
          const signedInAgain = await keys.idToken({ sub, preferred_username: 'sam' }, { issuedAt: second })
          if (now() !== second && attempt < 5) continue
          expect(now()).toBe(second)
          expect((await me(signedInAgain)).status).toBe(200)
          expect((await me(older)).status).toBe(401)
          expect((await me(elsewhere)).status).toBe(401)
          break
        }
      })

      it("refuses the signing-out ID token whatever second it carries, with the provider's clock ahead too", async () => {
        const now = () => Math.floor(Date.now() / 1000)
        for (const [sub, issuedAt] of [
          ['fresh-out-1', now()],
          ['ahead-out-1', now() + 3],
        ] as const) {
          const token = await keys.idToken({ sub, preferred_username: 'fay' }, { issuedAt })
          expect((await me(token)).status).toBe(200)
          expect((await server.call('/auth/logout', { method: 'POST', as: { token } })).status).toBe(200)
          expect((await me(token)).status).toBe(401)
          // Another of the same second is refused as well (it may be from before the sign-out); a later one works.
          expect((await me(await keys.idToken({ sub, preferred_username: 'fay' }, { issuedAt }))).status).toBe(401)
          expect((await me(await keys.idToken({ sub, preferred_username: 'fay' }, { issuedAt: issuedAt + 1 }))).status).toBe(200)
        }
      })

      it('refuses a disabled user even with a valid ID token', async () => {
        const token = await keys.idToken({ sub: 'disabled-1', preferred_username: 'dee' })
        const { body } = await me(token)
        await server.backend.db.query(`UPDATE users SET enabled = false WHERE id = $1`, [body.id])
        expect((await me(token)).status).toBe(401)
      })
    })

    describe.skipIf(!isAvailable)('local sign-in', () => {
      it('waits longer after each failed sign-in, for unknown usernames as for known ones', async () => {
        const attempt = async (username: string) => {
          const started = Date.now()
          const answer = await server.call('/auth/login', { method: 'POST', body: { username, password: 'wrong-password' }, as: 'anonymous' })
          expect(answer.status).toBe(401)
          return Date.now() - started
        }
        const known = await server.createUser('user')
        for (const username of [known.username, `nobody-${Date.now()}`]) {
          await attempt(username)
          await attempt(username)
          expect(await attempt(username)).toBeGreaterThanOrEqual(500)
        }
      })
    })

    describe.skipIf(!isAvailable)('local token refresh', () => {
      it('issues a new token for a still-valid local token, which then works on its own', async () => {
        const user = await server.createUser('editor')
        const refreshed = await server.call('/auth/refresh', { method: 'POST', as: { token: user.token } })
        expect(refreshed.status).toBe(200)
        expect(refreshed.body).toMatchObject({ success: true, token_type: 'Bearer', expires_in: 60, user: { id: user.id, role: 'editor' } })
        expect((await me(refreshed.body.access_token)).body.id).toBe(user.id)
      })

      it('refuses to refresh without a token, with an invalid one, or for a disabled user', async () => {
        expect((await server.call('/auth/refresh', { method: 'POST', as: 'anonymous' })).status).toBe(401)
        expect((await server.call('/auth/refresh', { method: 'POST', as: { token: 'not.a.token' } })).status).toBe(401)
        const user = await server.createUser('user')
        await server.backend.db.query(`UPDATE users SET enabled = false WHERE id = $1`, [user.id])
        expect((await server.call('/auth/refresh', { method: 'POST', as: { token: user.token } })).status).toBe(401)
      })

      it("leaves the provider's tokens to the provider", async () => {
        const answer = await server.call('/auth/refresh', { method: 'POST', as: { token: await keys.idToken({ sub: 'refresher-1' }) } })
        expect(answer.status).toBe(400)
      })
    })
  })
}
