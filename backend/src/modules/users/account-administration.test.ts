import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { isPostgresAvailable, startTestBackend, type Caller, type StorageKind, type TestBackend } from '../../testing/test-backend'

const PASSWORD = 'correct-horse-9'

// Registration is closed: administrators still create, invite, disable and reset accounts.
for (const kind of ['pglite', 'postgres'] as StorageKind[]) {
  describe(`account administration with registration off on ${kind}`, async () => {
    const isAvailable = kind === 'pglite' || (await isPostgresAvailable())
    let server: TestBackend
    let organizationId: number
    let count = 0

    const person = (overrides: Record<string, unknown> = {}) => {
      const n = ++count
      return { username: `managed.${n}`, email: `managed.${n}@example.test`, firstName: `First${n}`, lastName: `Last${n}`, role: 'editor', organization_id: organizationId, ...overrides }
    }
    const signIn = (username: string, password: string) => server.call('/auth/login', { method: 'POST', body: { username, password }, as: 'anonymous' })
    const tokenOf = async (username: string, password: string) => ({ token: (await signIn(username, password)).body.access_token as string }) satisfies Caller
    const createWithPassword = async (overrides: Record<string, unknown> = {}) => {
      const body = person({ password: PASSWORD, ...overrides })
      const created = await server.call('/admin/users', { method: 'POST', body })
      expect(created.status).toBe(200)
      return { ...body, id: created.body.id as number }
    }

    beforeAll(async () => {
      if (!isAvailable) return
      server = await startTestBackend(kind, { REGISTRATION_POLICY: 'off' })
      organizationId = (await server.call('/admin/organizations', { method: 'POST', body: { name: 'Managed Accounts Office' } })).body.organization.id
    })
    afterAll(async () => {
      await server?.stop()
    })

    describe.skipIf(!isAvailable)(kind, () => {
      it('refuses self-registration, yet an administrator creates an account with a role and a password that signs in at once', async () => {
        const registration = { username: 'outsider', email: 'outsider@example.test', firstName: 'Out', lastName: 'Sider', password: PASSWORD }
        expect((await server.call('/users', { method: 'POST', body: registration, as: 'anonymous' })).status).toBe(403)

        const body = person({ password: PASSWORD })
        const created = await server.call('/admin/users', { method: 'POST', body })
        expect(created.status).toBe(200)
        expect(created.body).toEqual({ success: true, message: 'User created', id: expect.any(Number), invitation: null })
        const user = (await server.call(`/admin/users/${created.body.id}`)).body
        expect(user).toMatchObject({ username: body.username, role: 'editor', group_name: 'Editors', organization_id: organizationId, enabled: true })
        const signedIn = await signIn(body.username, PASSWORD)
        expect(signedIn.status).toBe(200)
        expect(signedIn.body.user).toMatchObject({ role: 'editor', organization_id: organizationId })
      })

      it('invites: the account cannot sign in until its person sets a password with the one-time code', async () => {
        const body = person({ role: 'user', password: '' })
        const created = await server.call('/admin/users', { method: 'POST', body })
        expect(created.status).toBe(200)
        expect(created.body).toMatchObject({ message: 'User invited', invitation: { code: expect.any(String), expires_at: expect.any(String) } })
        const { code } = created.body.invitation
        expect(code.length).toBeGreaterThanOrEqual(32)
        // The code is kept only as a hash and is not a registration invitation.
        const stored = await server.backend.db.query<{ code_hash: string }>(`SELECT code_hash FROM invitations WHERE user_id = $1`, [created.body.id])
        expect(stored.map((row) => row.code_hash)).not.toContain(code)
        expect((await server.call('/admin/invitations')).body).toEqual([])
        expect((await signIn(body.username, PASSWORD)).status).toBe(401)

        const weak = await server.call('/auth/password_link', { method: 'POST', body: { code, password: 'short' }, as: 'anonymous' })
        expect(weak.status).toBe(400)
        const used = await server.call('/auth/password_link', { method: 'POST', body: { code, password: PASSWORD }, as: 'anonymous' })
        expect(used.status).toBe(200)
        expect(used.body).toEqual({ success: true, message: 'Password set: sign in with it', username: body.username })
        expect((await signIn(body.username, PASSWORD)).status).toBe(200)

        const again = await server.call('/auth/password_link', { method: 'POST', body: { code, password: 'another-pass-1' }, as: 'anonymous' })
        expect(again.status).toBe(400)
        expect(again.body).toMatchObject({ success: false, details: [{ field: 'code' }] })
      })

      it('refuses bad input with 400 or 409, never 500', async () => {
        const existing = await createWithPassword()
        const cases: [Record<string, unknown>, number][] = [
          [{}, 400],
          [person({ role: 'owner' }), 400],
          [person({ organization_id: 'abc' }), 400],
          [person({ organization_id: 99999 }), 400],
          [person({ username: 'a b' }), 400],
          [person({ email: 'nope' }), 400],
          [person({ password: 'lettersonly' }), 400],
          [person({ firstName: 'NUL \u0000' }), 400],
          [person({ username: existing.username }), 409],
          [person({ email: existing.email.toUpperCase() }), 409],
        ]
        for (const [body, status] of cases) {
          const response = await server.call('/admin/users', { method: 'POST', body })
          expect(response.status, JSON.stringify(body)).toBe(status)
          expect(response.body).toMatchObject({ success: false, message: expect.any(String) })
        }
        for (const path of ['/admin/users/abc/disable', '/admin/users/0/enable', '/admin/users/99999/disable']) {
          expect((await server.call(path, { method: 'POST', body: {} })).status, path).toBeLessThan(500)
        }
        // The schema library's own words are put plainly: a field not sent is required, a wrong one says its kind.
        const { organization_id: _left, ...withoutOrganisation } = person()
        expect((await server.call('/admin/users', { method: 'POST', body: withoutOrganisation })).body).toMatchObject({ message: 'organization_id is required' })
        expect((await server.call('/admin/users', { method: 'POST', body: person({ organization_id: 'abc' }) })).body).toMatchObject({ message: 'organization_id must be a number' })
        expect((await server.call('/admin/users/99999/disable', { method: 'POST', body: {} })).status).toBe(404)
        expect((await server.call('/admin/users/99999/password', { method: 'POST', body: { password: PASSWORD } })).status).toBe(404)
        expect((await server.call(`/admin/users/${existing.id}/password`, { method: 'POST', body: { password: 12345678 } })).status).toBe(400)
        expect((await server.call('/auth/password_link', { method: 'POST', body: { code: 'made-up', password: PASSWORD }, as: 'anonymous' })).status).toBe(400)
      })

      it('disables an account: it cannot sign in and its tokens stop working at once; enabling lets it sign in again', async () => {
        const account = await createWithPassword()
        const session = await tokenOf(account.username, PASSWORD)
        expect((await server.call('/auth/me', { as: session })).status).toBe(200)

        const disabled = await server.call(`/admin/users/${account.id}/disable`, { method: 'POST', body: {} })
        expect(disabled.body).toEqual({ success: true, message: 'User disabled', id: account.id })
        expect((await server.call(`/admin/users/${account.id}`)).body.enabled).toBe(false)
        expect((await server.call('/auth/me', { as: session })).status).toBe(401)
        expect((await signIn(account.username, PASSWORD)).status).toBe(401)

        const enabled = await server.call(`/admin/users/${account.id}/enable`, { method: 'POST', body: {} })
        expect(enabled.body).toEqual({ success: true, message: 'User enabled', id: account.id })
        expect((await signIn(account.username, PASSWORD)).status).toBe(200)
        // The session ended by disabling stays ended.
        expect((await server.call('/auth/me', { as: session })).status).toBe(401)
      })

      it('refuses to disable your own account, and lets only administrators disable anyone', async () => {
        const me = (await server.call('/auth/me')).body.id
        const own = await server.call(`/admin/users/${me}/disable`, { method: 'POST', body: {} })
        expect(own.status).toBe(400)
        expect(own.body).toMatchObject({ message: 'You cannot disable your own account', details: [{ field: 'enabled' }] })

        const editor = await createWithPassword()
        const target = await createWithPassword()
        const asEditor = await tokenOf(editor.username, PASSWORD)
        expect((await server.call(`/admin/users/${target.id}/disable`, { method: 'POST', body: {}, as: asEditor })).status).toBe(403)
        expect((await server.call(`/admin/users/${target.id}/disable`, { method: 'POST', body: {}, as: 'anonymous' })).status).toBe(401)
        expect((await server.call(`/admin/users/${target.id}`)).body.enabled).toBe(true)
      })

      it('resets a password: the administrator sets one, and every session of the account ends', async () => {
        const account = await createWithPassword()
        const session = await tokenOf(account.username, PASSWORD)
        const changed = await server.call(`/admin/users/${account.id}/password`, { method: 'POST', body: { password: 'new-secret-42' } })
        expect(changed.body).toEqual({ success: true, message: 'Password changed', id: account.id })
        expect((await server.call('/auth/me', { as: session })).status).toBe(401)
        expect((await signIn(account.username, PASSWORD)).status).toBe(401)
        expect((await signIn(account.username, 'new-secret-42')).status).toBe(200)
      })

      it('resets a password by link: only the newest code works, once, and the old password works until it is used', async () => {
        const account = await createWithPassword()
        const first = await server.call(`/admin/users/${account.id}/password_link`, { method: 'POST', body: {} })
        expect(first.status).toBe(200)
        expect(first.body).toMatchObject({ success: true, id: account.id, code: expect.any(String), expires_at: expect.any(String) })
        const second = await server.call(`/admin/users/${account.id}/password_link`, { method: 'POST', body: { expires_in_days: 2 } })
        expect(new Date(second.body.expires_at).getTime() - Date.now()).toBeLessThan(2 * 86_400_000 + 60_000)
        expect((await signIn(account.username, PASSWORD)).status).toBe(200)
        const session = await tokenOf(account.username, PASSWORD)

        const stale = await server.call('/auth/password_link', { method: 'POST', body: { code: first.body.code, password: 'reset-pass-77' }, as: 'anonymous' })
        expect(stale.status).toBe(400)
        const used = await server.call('/auth/password_link', { method: 'POST', body: { code: second.body.code, password: 'reset-pass-77' }, as: 'anonymous' })
        expect(used.body.username).toBe(account.username)
        expect((await signIn(account.username, 'reset-pass-77')).status).toBe(200)
        expect((await server.call('/auth/me', { as: session })).status).toBe(401)
        expect((await server.call(`/admin/users/${account.id}/password_link`, { method: 'POST', body: { expires_in_days: 0 } })).status).toBe(400)
      })

      it('leaves registration invitations alone: a password code never registers, and a registration code never sets a password', async () => {
        const account = await createWithPassword()
        const link = (await server.call(`/admin/users/${account.id}/password_link`, { method: 'POST', body: {} })).body
        const invitation = (await server.call('/admin/invitations', { method: 'POST', body: { organization_id: organizationId } })).body
        const asRegistration = await server.call('/auth/password_link', { method: 'POST', body: { code: invitation.code, password: PASSWORD }, as: 'anonymous' })
        expect(asRegistration.status).toBe(400)
        expect((await server.call(`/admin/invitations/${invitation.id}`, { method: 'DELETE' })).status).toBe(200)
        expect((await server.call('/admin/invitations')).body.map((listed: { id: number }) => listed.id)).not.toContain(link.id)
      })

      it('filters the users table by column (case and accents ignored, empty matches all) and sorts it', async () => {
        await createWithPassword({ username: 'zoe.filter', email: 'zoe.filter@example.test', firstName: 'Zoë', lastName: 'Älvsjö', role: 'user' })
        await createWithPassword({ username: 'adam.filter', email: 'adam.filter@example.test', firstName: 'Adam', lastName: 'Alvsjo', role: 'admin' })
        const list = async (query: Record<string, string>) => {
          const response = await server.call(`/admin/users?${new URLSearchParams(query)}`)
          expect(response.status, JSON.stringify(query)).toBe(200)
          return (response.body.users as { username: string }[]).map((user) => user.username)
        }
        const filters = (value: object) => JSON.stringify(value)
        expect(await list({ filters: filters({ lastName: { matchMode: 'equals', value: 'ALVSJO' } }) })).toEqual(['zoe.filter', 'adam.filter'])
        expect(await list({ filters: filters({ firstName: { matchMode: 'startsWith', value: 'zoe' } }) })).toEqual(['zoe.filter'])
        expect(await list({ filters: filters({ lastName: { matchMode: 'equals', value: 'alvsjo' }, group_name: { matchMode: 'notContains', value: 'admin' } }) })).toEqual(['zoe.filter'])
        expect(await list({ filters: filters({ lastName: { matchMode: 'endsWith', value: 'sjö' } }), sortField: 'username', sortOrder: '1' })).toEqual(['adam.filter', 'zoe.filter'])
        // An accented letter sorts with its letter, as the filters read it: Émile between Adam and Zoë.
        await createWithPassword({ username: 'emile.filter', email: 'emile.filter@example.test', firstName: 'Émile', lastName: 'Alvsjö', role: 'user' })
        const alvsjos = filters({ lastName: { matchMode: 'equals', value: 'alvsjo' } })
        expect(await list({ filters: alvsjos, sortField: 'firstName', sortOrder: '1' })).toEqual(['adam.filter', 'emile.filter', 'zoe.filter'])
        expect(await list({ filters: alvsjos, sortField: 'firstName', sortOrder: '-1' })).toEqual(['zoe.filter', 'emile.filter', 'adam.filter'])
        const all = await list({ limit: '500' })
        expect(await list({ filters: filters({ username: { matchMode: 'contains', value: '' } }), limit: '500' })).toEqual(all)
        const byNameDown = await list({ sortField: 'username', sortOrder: '-1', limit: '500' })
        expect(byNameDown).toEqual([...all].sort((a, b) => b.toLowerCase().localeCompare(a.toLowerCase())))
        const today = new Date().toISOString().slice(0, 10)
        expect(await list({ filters: filters({ created_at: { matchMode: 'dateBefore', value: today }, lastName: { matchMode: 'equals', value: 'alvsjo' } }) })).toEqual([])
        expect(await list({ filters: filters({ id: { matchMode: 'gt', value: 0 }, lastName: { matchMode: 'equals', value: 'alvsjo' } }) })).toHaveLength(3)

        const badQueries: Record<string, string>[] = [
          { filters: 'not json' },
          { filters: filters({ password: { matchMode: 'contains', value: 'x' } }) },
          { filters: filters({ id: { matchMode: 'contains', value: '1' } }) },
          { filters: filters({ created_at: { matchMode: 'dateIs', value: 'yesterday' } }) },
          { sortField: 'password_hash' },
          { sortOrder: '2' },
        ]
        for (const query of badQueries) {
          const response = await server.call(`/admin/users?${new URLSearchParams(query)}`)
          expect(response.status, JSON.stringify(query)).toBe(400)
        }
      })

      it("keeps integration keys' service accounts out of reach", async () => {
        const key = (await server.call('/admin/api_keys', { method: 'POST', body: { name: 'Reset probe', role: 'user', organization_id: organizationId } })).body
        const [service] = await server.backend.db.query<{ user_id: number }>(`SELECT user_id FROM api_keys WHERE id = $1`, [key.id])
        expect((await server.call(`/admin/users/${service.user_id}/password`, { method: 'POST', body: { password: PASSWORD } })).status).toBe(404)
        expect((await server.call(`/admin/users/${service.user_id}/enable`, { method: 'POST', body: {} })).status).toBe(404)
      })
    })
  })
}
