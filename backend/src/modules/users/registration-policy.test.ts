import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { isPostgresAvailable, startTestBackend, type StorageKind, type TestBackend } from '../../testing/test-backend'

const PASSWORD = 'policy-pass-1'

for (const kind of ['pglite', 'postgres'] as StorageKind[]) {
  describe(`the registration policy on ${kind}`, async () => {
    const isAvailable = kind === 'pglite' || (await isPostgresAvailable())
    let server: TestBackend
    let defaultOrganization: { id: number; name: string }
    let otherOrganization: { id: number; name: string }
    let count = 0

    const person = (overrides: Record<string, unknown> = {}) => {
      const username = `policy.${++count}.${Math.random().toString(36).slice(2, 6)}`
      return { username, email: `${username}@example.test`, firstName: 'Policy', lastName: 'Person', password: PASSWORD, enabled: true, ...overrides }
    }
    const register = (body: Record<string, unknown>, as: 'anonymous' | 'admin' | { token: string } = 'anonymous') =>
      server.call('/users', { method: 'POST', body, as })
    const placeOf = async (id: number) =>
      (
        await server.backend.db.query<{ organization_id: number; role: string }>(
          `SELECT u.organization_id, g.role FROM users u JOIN groups g ON g.id = u.group_id WHERE u.id = $1`,
          [id],
        )
      )[0]
    const countUsers = async () => (await server.backend.db.query<{ total: number }>(`SELECT COUNT(*)::int AS total FROM users`))[0].total

    beforeAll(async () => {
      if (!isAvailable) return
      server = await startTestBackend(kind)
      defaultOrganization = (await server.call('/organizations', { as: 'anonymous' })).body.find((organization: { name: string }) => organization.name === 'Default organisation')
      const [row] = await server.backend.db.query<{ id: number }>(`INSERT INTO organizations (name) VALUES ('Policy Agency') RETURNING id`)
      await server.backend.db.query(`INSERT INTO groups (organization_id, name, role) VALUES ($1, 'Administrators', 'admin'), ($1, 'Users', 'user')`, [row.id])
      otherOrganization = { id: row.id, name: 'Policy Agency' }
    }, 180_000)
    afterAll(async () => {
      await server?.stop()
    })

    describe.skipIf(!isAvailable)('open (the default without single sign-on)', () => {
      it('says so, naming the organisation registration goes into', async () => {
        const info = await server.call('/auth/registration', { as: 'anonymous' })
        expect(info.status).toBe(200)
        expect(info.body).toEqual({ policy: 'open', organization: defaultOrganization })
      })

      it('puts an outsider in that organisation with the user role, whatever organisation or role the body names', async () => {
        const answer = await register(person({ organizations: [otherOrganization.id], role: 'admin', group_id: 1, organization_id: otherOrganization.id }))
        expect(answer.status).toBe(200)
        expect(await placeOf(answer.body.id)).toEqual({ organization_id: defaultOrganization.id, role: 'user' })
        // An organisation that does not exist changes nothing either: the body's organisation is not the outsider's to pick.
        const unknown = await register(person({ organizations: [999999] }))
        expect(unknown.status).toBe(200)
        expect(await placeOf(unknown.body.id)).toEqual({ organization_id: defaultOrganization.id, role: 'user' })
        const without = await register(person())
        expect(await placeOf(without.body.id)).toEqual({ organization_id: defaultOrganization.id, role: 'user' })
      })

      it('lets an administrator register someone into the organisation chosen, still as a user', async () => {
        const answer = await register(person({ organizations: [otherOrganization.id] }), 'admin')
        expect(answer.status).toBe(200)
        expect(await placeOf(answer.body.id)).toEqual({ organization_id: otherOrganization.id, role: 'user' })
        const unknown = await register(person({ organizations: [999999] }), 'admin')
        expect(unknown.status).toBe(400)
        expect(unknown.body.details).toEqual([{ field: 'organizations', message: 'No organisation with id 999999' }])
      })

      it('goes into the organisation REGISTRATION_ORGANIZATION names, and says so when there is none by that name', { timeout: 180_000 }, async () => {
        server = await server.restart({ REGISTRATION_ORGANIZATION: 'policy agency' })
        expect((await server.call('/auth/registration', { as: 'anonymous' })).body).toEqual({ policy: 'open', organization: otherOrganization })
        const answer = await register(person({ organizations: [defaultOrganization.id] }))
        expect(await placeOf(answer.body.id)).toEqual({ organization_id: otherOrganization.id, role: 'user' })

        await server.backend.db.query(`UPDATE organizations SET name = 'Renamed Agency' WHERE id = $1`, [otherOrganization.id])
        const before = await countUsers()
        const misconfigured = await register(person())
        expect(misconfigured.status).toBe(503)
        expect(misconfigured.body.message).toBe('Registration is not available: no organisation is named "policy agency" (REGISTRATION_ORGANIZATION)')
        expect(await countUsers()).toBe(before)
        await server.backend.db.query(`UPDATE organizations SET name = $2 WHERE id = $1`, [otherOrganization.id, otherOrganization.name])
      })
    })

    describe.skipIf(!isAvailable)('by invitation', () => {
      const invite = async (body: Record<string, unknown> = {}) => {
        const answer = await server.call('/admin/invitations', { method: 'POST', body })
        expect(answer.status).toBe(200)
        return answer.body as { id: number; code: string; organization_id: number; status: string; expires_at: string }
      }

      it('says so, and refuses a registration without a valid code, naming the field', { timeout: 180_000 }, async () => {
        server = await server.restart({ REGISTRATION_POLICY: 'invite', REGISTRATION_ORGANIZATION: '' })
        expect((await server.call('/auth/registration', { as: 'anonymous' })).body).toEqual({ policy: 'invite', organization: null })
        const before = await countUsers()
        const missing = await register(person())
        expect(missing.status).toBe(400)
        expect(missing.body.details).toEqual([{ field: 'invitation', message: 'Registration is by invitation: enter the invitation code you were given' }])
        const bogus = await register(person({ invitation: 'not-a-real-code' }))
        expect(bogus.status).toBe(400)
        expect(bogus.body.details).toEqual([{ field: 'invitation', message: 'The invitation code is not valid, has been used or has expired' }])
        expect(await countUsers()).toBe(before)
      })

      it("registers into the invitation's organisation as a user, once per code", async () => {
        const invitation = await invite({ organization_id: otherOrganization.id, note: 'For the new clerk', expires_in_days: 3 })
        const [administrator] = await server.backend.db.query<{ username: string }>(`SELECT username FROM users WHERE is_builtin_admin`)
        expect(invitation).toMatchObject({
          success: true,
          organization_id: otherOrganization.id,
          organization_name: otherOrganization.name,
          note: 'For the new clerk',
          status: 'pending',
          used_at: null,
          used_by_username: null,
          created_by_username: administrator.username,
        })
        expect(invitation.code).toMatch(/^[A-Za-z0-9_-]{32}$/)
        const days = (Date.parse(invitation.expires_at) - Date.now()) / 86_400_000
        expect(days).toBeGreaterThan(2.9)
        expect(days).toBeLessThanOrEqual(3)
        // Only a hash of the code is kept.
        const stored = await server.backend.db.query<{ code_hash: string }>(`SELECT code_hash FROM invitations WHERE id = $1`, [invitation.id])
        expect(stored[0].code_hash).not.toContain(invitation.code)

        const invitee = person({ invitation: invitation.code, organizations: [defaultOrganization.id] })
        const answer = await register(invitee)
        expect(answer.status).toBe(200)
        expect(await placeOf(answer.body.id)).toEqual({ organization_id: otherOrganization.id, role: 'user' })
        const again = await register(person({ invitation: invitation.code }))
        expect(again.status).toBe(400)
        expect(again.body.details[0].field).toBe('invitation')

        const listed = (await server.call('/admin/invitations')).body.find((entry: { id: number }) => entry.id === invitation.id)
        // Who came in with it and who made it, by name, for the administrators' list.
        expect(listed).toMatchObject({ status: 'used', used_by: answer.body.id, used_by_username: invitee.username, created_by_username: administrator.username, used_at: expect.any(String) })
        expect(listed).not.toHaveProperty('code')
      })

      it('keeps the code for another try when the registration fails, and defaults to the first organisation', async () => {
        const invitation = await invite()
        expect(invitation.organization_id).toBe(defaultOrganization.id)
        const taken = await register(person({ invitation: invitation.code, username: 'admin' }))
        expect(taken.status).toBe(409)
        expect((await register(person({ invitation: invitation.code }))).status).toBe(200)
      })

      it('refuses an expired or revoked code; a used invitation cannot be revoked', async () => {
        const expired = await invite()
        await server.backend.db.query(`UPDATE invitations SET expires_at = now() - interval '1 second' WHERE id = $1`, [expired.id])
        expect((await register(person({ invitation: expired.code }))).status).toBe(400)
        expect((await server.call('/admin/invitations')).body.find((entry: { id: number }) => entry.id === expired.id).status).toBe('expired')

        const revoked = await invite()
        const revoke = await server.call(`/admin/invitations/${revoked.id}`, { method: 'DELETE' })
        expect(revoke.status).toBe(200)
        expect(revoke.body).toEqual({ success: true, message: 'Invitation revoked', id: revoked.id })
        expect((await register(person({ invitation: revoked.code }))).status).toBe(400)
        expect((await server.call(`/admin/invitations/${revoked.id}`, { method: 'DELETE' })).status).toBe(404)

        const used = await invite()
        expect((await register(person({ invitation: used.code }))).status).toBe(200)
        expect((await server.call(`/admin/invitations/${used.id}`, { method: 'DELETE' })).status).toBe(409)
      })

      it('refuses an invitation for an organisation that does not exist or takes no users, or with an out-of-range lifetime', async () => {
        const [bare] = await server.backend.db.query<{ id: number }>(`INSERT INTO organizations (name) VALUES ('Groupless') RETURNING id`)
        for (const [body, field] of [
          [{ organization_id: 999999 }, 'organization_id'],
          [{ organization_id: bare.id }, 'organization_id'],
          [{ expires_in_days: 0 }, 'expires_in_days'],
          [{ expires_in_days: 91 }, 'expires_in_days'],
          [{ note: 'x'.repeat(201) }, 'note'],
        ] as const) {
          const answer = await server.call('/admin/invitations', { method: 'POST', body })
          expect(answer.status, JSON.stringify(body)).toBe(400)
          expect(answer.body.details[0].field).toBe(field)
        }
      })

      it('lets only administrators make or see invitations', async () => {
        const user = await server.createUser('editor')
        expect((await server.call('/admin/invitations', { method: 'POST', body: {}, as: { token: user.token } })).status).toBe(403)
        expect((await server.call('/admin/invitations', { as: { token: user.token } })).status).toBe(403)
        expect((await server.call('/admin/invitations', { as: 'anonymous' })).status).toBe(401)
      })
    })

    describe.skipIf(!isAvailable)('off', () => {
      it('refuses every registration but an administrator\'s, with a clear message', { timeout: 180_000 }, async () => {
        server = await server.restart({ REGISTRATION_POLICY: 'off' })
        expect((await server.call('/auth/registration', { as: 'anonymous' })).body).toEqual({ policy: 'off', organization: null })
        const before = await countUsers()
        const outsider = await register(person({ organizations: [defaultOrganization.id] }))
        expect(outsider.status).toBe(403)
        expect(outsider.body).toEqual({ success: false, error: 'Forbidden', message: 'Registration is closed: ask an administrator for an account' })
        const member = await server.createUser('editor')
        expect((await register(person(), { token: member.token })).status).toBe(403)
        expect(await countUsers()).toBe(before + 1)
        const byAdmin = await register(person({ organizations: [otherOrganization.id] }), 'admin')
        expect(byAdmin.status).toBe(200)
        expect(await placeOf(byAdmin.body.id)).toEqual({ organization_id: otherOrganization.id, role: 'user' })
      })

      it('is the default with single sign-on, unless REGISTRATION_POLICY says otherwise', { timeout: 180_000 }, async () => {
        server = await server.restart({ REGISTRATION_POLICY: '', OIDC_ISSUER: 'https://sign-in.example.test', OIDC_AUDIENCE: 'knowledge-assistant' })
        expect((await server.call('/auth/registration', { as: 'anonymous' })).body.policy).toBe('off')
        expect((await register(person())).status).toBe(403)
        server = await server.restart({ REGISTRATION_POLICY: 'open' })
        expect((await server.call('/auth/registration', { as: 'anonymous' })).body.policy).toBe('open')
        expect((await register(person())).status).toBe(200)
      })
    })
  })
}
