import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { isPostgresAvailable, startTestBackend, type Caller, type StorageKind, type TestBackend } from '../../testing/test-backend'

const PASSWORD = 'correct-horse-9'

// Values of the wrong kind for each field of a registration or an edit; every one of them makes the body invalid.
const notText = fc.oneof(fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.string(), { maxLength: 2 }), fc.object({ maxDepth: 1 }), fc.constant('NUL \u0000 inside'))
const notId = fc.oneof(fc.constant(null), fc.object({ maxDepth: 1 }), fc.constantFrom('abc', '-1', '0', '1.5', '99999999999', '1e999', ''))
const WRONG_VALUES: Record<string, fc.Arbitrary<unknown>> = {
  username: fc.oneof(notText, fc.constantFrom('', 'ab', 'has space', 'x'.repeat(61))),
  email: fc.oneof(notText, fc.constantFrom('', 'no-at-sign', 'a@', '@b.org')),
  firstName: notText,
  lastName: notText,
  cellphone: fc.oneof(notText, fc.constantFrom('call me', '++1', 'x'.repeat(41))),
  password: fc.oneof(fc.integer(), fc.boolean(), fc.object({ maxDepth: 1 }), fc.constantFrom('short1', 'lettersonly', '123456789', '         ')),
  enabled: fc.oneof(fc.constantFrom('maybe', 'TRUE', 1, 0, null, ''), fc.object({ maxDepth: 1 })),
  organizations: fc.oneof(notId, fc.constantFrom([], [1, 1], ['abc'], [99999999999], [null])),
  group_id: notId,
  organization_id: notId,
  id: notId,
}
const REGISTRATION_FIELDS = ['username', 'email', 'firstName', 'lastName', 'cellphone', 'password', 'enabled', 'organizations']
const EDIT_FIELDS = ['id', 'username', 'email', 'firstName', 'lastName', 'cellphone', 'password', 'group_id', 'organization_id', 'enabled']
// Fields a body may leave out: the rest are required.
const OPTIONAL_FIELDS = { register: ['cellphone', 'enabled', 'organizations'], edit: ['cellphone', 'password'] }

for (const kind of ['pglite', 'postgres'] as StorageKind[]) {
  describe(`users, organisations and groups on ${kind}`, async () => {
    const isAvailable = kind === 'pglite' || (await isPostgresAvailable())
    let server: TestBackend
    let defaultOrganizationId: number
    let callers: Record<'anonymous' | 'user' | 'editor' | 'admin', Caller>
    let adminId: number
    let personCount = 0

    /** A registration body for a person nobody else in these tests is. */
    const newPerson = (overrides: Record<string, unknown> = {}) => {
      const n = ++personCount
      return {
        username: `person.${n}`,
        email: `person.${n}@example.test`,
        firstName: `First${n}`,
        lastName: `Last${n}`,
        cellphone: '+1 555 0100',
        password: PASSWORD,
        enabled: true,
        organizations: [defaultOrganizationId],
        ...overrides,
      }
    }

    const register = async (overrides: Record<string, unknown> = {}) => {
      const person = newPerson(overrides)
      const response = await server.call('/users', { method: 'POST', body: person, as: 'anonymous' })
      expect(response.status).toBe(200)
      return { ...person, id: response.body.id as number }
    }

    /** An organisation made the way an operator would, with or without the usual three groups. */
    const createOrganization = async (name: string, options: { withGroups?: boolean } = {}) => {
      const [organization] = await server.backend.db.query<{ id: number }>(`INSERT INTO organizations (name) VALUES ($1) RETURNING id`, [name])
      if (options.withGroups !== false) {
        await server.backend.db.query(
          `INSERT INTO groups (organization_id, name, role) VALUES ($1, 'Administrators', 'admin'), ($1, 'Editors', 'editor'), ($1, 'Users', 'user')`,
          [organization.id],
        )
      }
      return organization.id
    }

    const groupOf = async (organizationId: number, role: string) =>
      (await server.call(`/admin/groups/${organizationId}`)).body.find((group: { role: string }) => group.role === role).id as number

    const countUsers = async () => (await server.backend.db.query<{ total: number }>(`SELECT COUNT(*)::int AS total FROM users`))[0].total

    const signIn = (username: string, password: string) => server.call('/auth/login', { method: 'POST', body: { username, password }, as: 'anonymous' })

    /** The body an administrator's form sends for an existing user, with changes. */
    const editOf = async (id: number, changes: Record<string, unknown> = {}) => {
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

    beforeAll(async () => {
      if (!isAvailable) return
      server = await startTestBackend(kind)
      defaultOrganizationId = (await server.call('/organizations', { as: 'anonymous' })).body[0].id
      const [user, editor] = [await server.createUser('user'), await server.createUser('editor')]
      callers = { anonymous: 'anonymous', user: { token: user.token }, editor: { token: editor.token }, admin: 'admin' }
      adminId = (await server.call('/auth/me')).body.id
    })
    afterAll(async () => {
      await server?.stop()
    })

    describe.skipIf(!isAvailable)('GET /organizations', () => {
      it('lists the organisations by name, to anyone with the apikey', async () => {
        await createOrganization('Zebra Council')
        await createOrganization('Acme Agency')
        const response = await server.call('/organizations', { as: 'anonymous' })
        expect(response.status).toBe(200)
        const names = response.body.map((organization: { name: string }) => organization.name)
        expect(names.indexOf('Acme Agency')).toBeLessThan(names.indexOf('Zebra Council'))
        expect(response.body).toContainEqual({ id: defaultOrganizationId, name: 'Default organisation' })
        expect(Object.keys(response.body[0]).sort()).toEqual(['id', 'name'])
      })

      it('still needs the apikey', async () => {
        const response = await server.call('/organizations', { as: 'anonymous', headers: { apikey: '' } })
        expect(response.status).toBe(401)
      })
    })

    describe.skipIf(!isAvailable)('POST /users (registration)', () => {
      it("registers an enabled account in the organisation's group for users, which can sign in", async () => {
        const person = newPerson({ enabled: false })
        const response = await server.call('/users', { method: 'POST', body: person, as: 'anonymous' })
        expect(response.status).toBe(200)
        expect(response.body).toEqual({ success: true, message: 'User registered', id: expect.any(Number) })

        const user = (await server.call(`/admin/users/${response.body.id}`)).body
        expect(user).toMatchObject({
          username: person.username,
          email: person.email,
          firstName: person.firstName,
          lastName: person.lastName,
          cellphone: person.cellphone,
          enabled: true,
          role: 'user',
          group_id: await groupOf(defaultOrganizationId, 'user'),
          organization_id: defaultOrganizationId,
          organizations: [defaultOrganizationId],
        })
        const session = await signIn(person.username, PASSWORD)
        expect(session.status).toBe(200)
        expect(session.body.user).toMatchObject({ role: 'user', organization_id: defaultOrganizationId })
      })

      it('registers an outsider into the registration organisation, whichever the body names; an administrator into the one chosen', async () => {
        const organizationId = await createOrganization('Registration Org')
        const outsider = await register({ organizations: [organizationId] })
        expect((await server.call(`/admin/users/${outsider.id}`)).body).toMatchObject({ organization_id: defaultOrganizationId, role: 'user' })
        const chosen = await server.call('/users', { method: 'POST', body: newPerson({ organizations: [organizationId] }), as: 'admin' })
        expect(chosen.status).toBe(200)
        const user = (await server.call(`/admin/users/${chosen.body.id}`)).body
        expect(user).toMatchObject({ organization_id: organizationId, organization_name: 'Registration Org', group_id: await groupOf(organizationId, 'user') })
      })

      it('refuses an administrator an organisation that does not exist, naming organizations', async () => {
        const before = await countUsers()
        const response = await server.call('/users', { method: 'POST', body: newPerson({ organizations: [999999] }), as: 'admin' })
        expect(response.status).toBe(400)
        expect(response.body.details).toEqual([{ field: 'organizations', message: 'No organisation with id 999999' }])
        expect(await countUsers()).toBe(before)
      })

      it('refuses no organisation, or more than one', async () => {
        for (const organizations of [[], [defaultOrganizationId, defaultOrganizationId], 'x']) {
          const response = await server.call('/users', { method: 'POST', body: newPerson({ organizations }), as: 'anonymous' })
          expect(response.status).toBe(400)
          expect(response.body.details[0].field).toBe('organizations')
        }
      })

      it('refuses an administrator an organisation without a group for users', async () => {
        const organizationId = await createOrganization('No Users Group', { withGroups: false })
        const response = await server.call('/users', { method: 'POST', body: newPerson({ organizations: [organizationId] }), as: 'admin' })
        expect(response.status).toBe(400)
        expect(response.body.details[0].field).toBe('organizations')
      })

      it('refuses a username already taken, whatever its case, naming the field', async () => {
        const existing = await register()
        const before = await countUsers()
        const response = await server.call('/users', { method: 'POST', body: newPerson({ username: existing.username.toUpperCase() }), as: 'anonymous' })
        expect(response.status).toBe(409)
        expect(response.body).toMatchObject({ success: false, error: 'Conflict' })
        expect(response.body.details).toEqual([{ field: 'username', message: expect.stringContaining(existing.username.toUpperCase()) }])
        expect(await countUsers()).toBe(before)
      })

      it('refuses an email already registered, naming the field', async () => {
        const existing = await register()
        const response = await server.call('/users', { method: 'POST', body: newPerson({ email: existing.email.toUpperCase() }), as: 'anonymous' })
        expect(response.status).toBe(409)
        expect(response.body.details[0].field).toBe('email')
      })

      it.each([
        ['shorter than 8 characters', 'abc123'],
        ['only letters', 'onlyletters'],
        ['only digits', '1234567890'],
        ['only spaces', '          '],
      ])('refuses a password %s', async (_, password) => {
        const response = await server.call('/users', { method: 'POST', body: newPerson({ password }), as: 'anonymous' })
        expect(response.status).toBe(400)
        expect(response.body.details.map((detail: { field: string }) => detail.field)).toEqual(['password'])
      })

      it('refuses an invalid email, a blank name and a missing field, naming each', async () => {
        const email = await server.call('/users', { method: 'POST', body: newPerson({ email: 'not-an-address' }), as: 'anonymous' })
        expect(email.status).toBe(400)
        expect(email.body.details).toEqual([{ field: 'email', message: 'email is not a valid address' }])

        const name = await server.call('/users', { method: 'POST', body: newPerson({ firstName: '  ' }), as: 'anonymous' })
        expect(name.body.details).toEqual([{ field: 'firstName', message: 'firstName is required' }])

        const { username: _, ...withoutUsername } = newPerson()
        const missing = await server.call('/users', { method: 'POST', body: withoutUsername, as: 'anonymous' })
        expect(missing.status).toBe(400)
        expect(missing.body.details[0].field).toBe('username')
      })
    })

    describe.skipIf(!isAvailable)('GET /admin/users', () => {
      it('pages through users, 30 by default, with the count of all that match', async () => {
        for (let index = 0; index < 3; index++) await register()
        const total = await countUsers()
        const all = await server.call('/admin/users')
        expect(all.status).toBe(200)
        expect(all.body).toMatchObject({ success: true, count: total })
        expect(all.body.users).toHaveLength(Math.min(total, 30))

        const first = await server.call('/admin/users?limit=2&offset=0')
        const second = await server.call('/admin/users?limit=2&offset=2')
        expect(first.body.users).toHaveLength(2)
        expect(first.body.count).toBe(total)
        expect(second.body.users[0].id).toBeGreaterThan(first.body.users[1].id)
      })

      it('filters on username, email, first and last name, ignoring case and accents', async () => {
        const person = await register({ firstName: 'José', lastName: 'Ñúñez', username: 'jnunez', email: 'jose.n@example.test' })
        for (const filter of ['JNUNEZ', 'jose.n@EXAMPLE', 'jose', 'NUNEZ', 'josé ñúñez']) {
          const response = await server.call(`/admin/users?filter=${encodeURIComponent(filter)}`)
          expect(response.body.users.map((user: { id: number }) => user.id), filter).toEqual([person.id])
          expect(response.body.count).toBe(1)
        }
      })

      it('matches % and _ in the filter literally', async () => {
        const response = await server.call(`/admin/users?filter=${encodeURIComponent('%')}`)
        expect(response.body).toMatchObject({ users: [], count: 0 })
        const underscore = await server.call(`/admin/users?filter=${encodeURIComponent('_')}`)
        expect(underscore.body.count).toBe(0)
      })

      it('never shows a password or its hash', async () => {
        const response = await server.call('/admin/users')
        for (const user of response.body.users) expect(Object.keys(user).filter((key) => /password/i.test(key))).toEqual([])
      })

      it('refuses paging values out of range', async () => {
        for (const query of ['limit=0', 'limit=abc', 'limit=501', 'offset=-1']) {
          const response = await server.call(`/admin/users?${query}`)
          expect(response.status, query).toBe(400)
          expect(response.body.details[0].field).toBe(query.split('=')[0])
        }
      })
    })

    describe.skipIf(!isAvailable)('GET /admin/users/{id}', () => {
      it('answers the user with SEED.md field names and no password', async () => {
        const person = await register()
        const response = await server.call(`/admin/users/${person.id}`)
        expect(response.status).toBe(200)
        expect(Object.keys(response.body).sort()).toEqual(
          [
            'cellphone',
            'created_at',
            'email',
            'enabled',
            'firstName',
            'group_id',
            'group_name',
            'id',
            'lastName',
            'organization_id',
            'organization_name',
            'organizations',
            'role',
            'updated_at',
            'username',
          ].sort(),
        )
      })

      it('answers 404 for a user that does not exist, and 400 for an id that is not one', async () => {
        expect((await server.call('/admin/users/999999')).status).toBe(404)
        const malformed = await server.call('/admin/users/abc')
        expect(malformed.status).toBe(400)
        expect(malformed.body.details[0].field).toBe('id')
      })
    })

    describe.skipIf(!isAvailable)('PUT /admin/users/{id}', () => {
      it('updates a user and keeps the password when the field is blank', async () => {
        const person = await register()
        const editorGroup = await groupOf(defaultOrganizationId, 'editor')
        const body = await editOf(person.id, { firstName: 'Renamed', cellphone: '', group_id: editorGroup, enabled: 'true' })
        const response = await server.call(`/admin/users/${person.id}`, { method: 'PUT', body })
        expect(response.status).toBe(200)
        expect(response.body).toEqual({ success: true, message: 'User updated', id: person.id })
        expect((await server.call(`/admin/users/${person.id}`)).body).toMatchObject({ firstName: 'Renamed', cellphone: '', role: 'editor', group_id: editorGroup })
        expect((await signIn(person.username, PASSWORD)).status).toBe(200)
      })

      it('sets a new password, which replaces the old one', async () => {
        const person = await register()
        const response = await server.call(`/admin/users/${person.id}`, { method: 'PUT', body: await editOf(person.id, { password: 'brand-new-pass-2' }) })
        expect(response.status).toBe(200)
        expect((await signIn(person.username, PASSWORD)).status).toBe(401)
        expect((await signIn(person.username, 'brand-new-pass-2')).status).toBe(200)
      })

      it('moves a user to another organisation with one of its groups', async () => {
        const person = await register()
        const organizationId = await createOrganization('Destination Org')
        const body = await editOf(person.id, { organization_id: organizationId, group_id: await groupOf(organizationId, 'user') })
        expect((await server.call(`/admin/users/${person.id}`, { method: 'PUT', body })).status).toBe(200)
        expect((await server.call(`/admin/users/${person.id}`)).body).toMatchObject({ organization_id: organizationId, organizations: [organizationId] })
      })

      it('disables a user, whose token then stops working', async () => {
        const user = await server.createUser('user')
        expect((await server.call('/auth/me', { as: { token: user.token } })).status).toBe(200)
        const response = await server.call(`/admin/users/${user.id}`, { method: 'PUT', body: await editOf(user.id, { enabled: 'false' }) })
        expect(response.status).toBe(200)
        expect((await server.call(`/admin/users/${user.id}`)).body.enabled).toBe(false)
        expect((await server.call('/auth/me', { as: { token: user.token } })).status).toBe(401)
      })

      it('refuses a body whose id is not the id in the path', async () => {
        const [first, second] = [await register(), await register()]
        const response = await server.call(`/admin/users/${first.id}`, { method: 'PUT', body: await editOf(second.id, { firstName: 'Wrong' }) })
        expect(response.status).toBe(400)
        expect(response.body.details[0].field).toBe('id')
        expect((await server.call(`/admin/users/${second.id}`)).body.firstName).toBe(second.firstName)
      })

      it('answers 404 for a user that does not exist', async () => {
        const person = await register()
        const body = { ...(await editOf(person.id)), id: 999999 }
        expect((await server.call('/admin/users/999999', { method: 'PUT', body })).status).toBe(404)
      })

      it("refuses a group of another organisation, and an organisation that does not exist", async () => {
        const person = await register()
        const otherOrganization = await createOrganization('Other Org For Groups')
        const foreignGroup = await server.call(`/admin/users/${person.id}`, {
          method: 'PUT',
          body: await editOf(person.id, { group_id: await groupOf(otherOrganization, 'user') }),
        })
        expect(foreignGroup.status).toBe(400)
        expect(foreignGroup.body.details[0].field).toBe('group_id')

        const unknownOrganization = await server.call(`/admin/users/${person.id}`, { method: 'PUT', body: await editOf(person.id, { organization_id: 999999 }) })
        expect(unknownOrganization.status).toBe(400)
        expect(unknownOrganization.body.details[0].field).toBe('organization_id')
        expect((await server.call(`/admin/users/${person.id}`)).body.organization_id).toBe(defaultOrganizationId)
      })

      it("refuses another user's username or email, naming the field", async () => {
        const [first, second] = [await register(), await register()]
        const username = await server.call(`/admin/users/${second.id}`, { method: 'PUT', body: await editOf(second.id, { username: first.username }) })
        expect(username.status).toBe(409)
        expect(username.body.details[0].field).toBe('username')
        const email = await server.call(`/admin/users/${second.id}`, { method: 'PUT', body: await editOf(second.id, { email: first.email, firstName: 'Changed' }) })
        expect(email.status).toBe(409)
        expect(email.body.details[0].field).toBe('email')
        expect((await server.call(`/admin/users/${second.id}`)).body).toMatchObject({ username: second.username, firstName: second.firstName })
      })

      it('refuses a weak new password', async () => {
        const person = await register()
        const response = await server.call(`/admin/users/${person.id}`, { method: 'PUT', body: await editOf(person.id, { password: 'password' }) })
        expect(response.status).toBe(400)
        expect(response.body.details[0].field).toBe('password')
      })

      it('refuses to let administrators disable or demote themselves', async () => {
        const disable = await server.call(`/admin/users/${adminId}`, { method: 'PUT', body: await editOf(adminId, { enabled: false }) })
        expect(disable.status).toBe(400)
        expect(disable.body.details[0].field).toBe('enabled')
        const demote = await server.call(`/admin/users/${adminId}`, { method: 'PUT', body: await editOf(adminId, { group_id: await groupOf(defaultOrganizationId, 'user') }) })
        expect(demote.status).toBe(400)
        expect(demote.body.details[0].field).toBe('group_id')
        expect((await server.call('/auth/me')).body.role).toBe('admin')
      })

      it('refuses a body with wrong types', async () => {
        const person = await register()
        const response = await server.call(`/admin/users/${person.id}`, { method: 'PUT', body: await editOf(person.id, { enabled: 'maybe', group_id: 'x' }) })
        expect(response.status).toBe(400)
        expect(response.body.details.map((detail: { field: string }) => detail.field).sort()).toEqual(['enabled', 'group_id'])
      })
    })

    describe.skipIf(!isAvailable)('GET /admin/groups/{organization_id}', () => {
      it("lists the organisation's groups with their roles", async () => {
        const response = await server.call(`/admin/groups/${defaultOrganizationId}`)
        expect(response.status).toBe(200)
        expect(response.body.map((group: { role: string }) => group.role).sort()).toEqual(['admin', 'editor', 'user'])
        for (const group of response.body) expect(group).toEqual({ id: expect.any(Number), name: expect.any(String), role: group.role, organization_id: defaultOrganizationId })
      })

      it('answers 404 for an organisation that does not exist, and 400 for an id that is not one', async () => {
        const unknown = await server.call('/admin/groups/999999')
        expect(unknown.status).toBe(404)
        expect(unknown.body.message).toBe('No organisation with id 999999')
        expect((await server.call('/admin/groups/abc')).status).toBe(400)
      })
    })

    describe.skipIf(!isAvailable)('organisations', () => {
      it("lists only the organisation's own groups", async () => {
        const organizationId = await createOrganization('Isolated Org')
        const groups = (await server.call(`/admin/groups/${organizationId}`)).body
        expect(groups).toHaveLength(3)
        expect(groups.every((group: { organization_id: number }) => group.organization_id === organizationId)).toBe(true)
      })

      it("shows an administrator of any organisation every organisation's users", async () => {
        const organizationId = await createOrganization('Admin Elsewhere Org')
        const outsider = (await server.call('/users', { method: 'POST', body: newPerson({ organizations: [organizationId] }), as: 'admin' })).body
        const insider = await register()
        const foreignAdmin = await server.createUser('admin', { organizationId })
        const response = await server.call('/admin/users?limit=500', { as: { token: foreignAdmin.token } })
        expect(response.status).toBe(200)
        const ids = response.body.users.map((user: { id: number }) => user.id)
        expect(ids).toEqual(expect.arrayContaining([outsider.id, insider.id]))
        expect((await server.call(`/admin/users/${insider.id}`, { as: { token: foreignAdmin.token } })).status).toBe(200)
      })

      it("keeps a non-administrator of the same organisation out of its users", async () => {
        const organizationId = await createOrganization('Member Only Org')
        const member = await server.createUser('editor', { organizationId })
        expect((await server.call('/admin/users', { as: { token: member.token } })).status).toBe(403)
        expect((await server.call(`/admin/groups/${organizationId}`, { as: { token: member.token } })).status).toBe(403)
      })
    })

    describe.skipIf(!isAvailable)('malformed bodies', () => {
      const fingerprint = async () => {
        const [row] = await server.backend.db.query<{ digest: string }>(
          `SELECT md5(COALESCE(string_agg(u::text, '|' ORDER BY u.id), '')) || (SELECT COUNT(*) FROM groups) || (SELECT COUNT(*) FROM organizations) AS digest FROM users u`,
        )
        return row.digest
      }

      it('refuses a registration or an edit with any field of the wrong kind, or a required one missing, and writes nothing', async () => {
        const person = await register()
        const edit = await editOf(person.id)
        const before = await fingerprint()
        await fc.assert(
          fc.asyncProperty(
            fc.constantFrom('register', 'edit').chain((call) =>
              fc.tuple(
                fc.constant(call),
                fc.constantFrom(...(call === 'register' ? REGISTRATION_FIELDS : EDIT_FIELDS)).chain((field) =>
                  fc.tuple(fc.constant(field), fc.option(WRONG_VALUES[field], { nil: undefined })),
                ),
              ),
            ),
            async ([call, [field, value]]) => {
              if (value === undefined && OPTIONAL_FIELDS[call as 'register' | 'edit'].includes(field)) return
              const body: Record<string, unknown> = call === 'register' ? newPerson() : { ...edit }
              body[field] = value
              const response =
                call === 'register'
                  ? await server.call('/users', { method: 'POST', body, as: 'anonymous' })
                  : await server.call(`/admin/users/${person.id}`, { method: 'PUT', body })
              expect(response.status, JSON.stringify(body)).toBe(400)
              expect(response.body.success).toBe(false)
              expect(response.body.details.map((detail: { field: string }) => detail.field.split('.')[0])).toEqual(response.body.details.map(() => field))
            },
          ),
          { numRuns: 200, seed: 5 },
        )
        expect(await fingerprint()).toBe(before)
      })

      it('refuses ids, filters and paging values of the wrong kind in paths and queries', async () => {
        await fc.assert(
          fc.asyncProperty(
            fc.constantFrom('abc', '-1', '0', '1.5', '99999999999', '1e999', '%20'),
            fc.constantFrom('filter=%00', 'limit=x', 'offset=-2', 'limit=99999999999', 'filter=' + 'a'.repeat(201)),
            async (id, query) => {
              for (const path of [`/admin/users/${id}`, `/admin/groups/${id}`, `/admin/users?${query}`]) {
                const response = await server.call(path)
                expect(response.status, path).toBe(400)
              }
            },
          ),
          { numRuns: 40, seed: 7 },
        )
      })
    })

    describe.skipIf(!isAvailable)('access', () => {
      const cases: { call: string; anonymous: number; user: number; editor: number; admin: number }[] = [
        { call: 'GET /organizations', anonymous: 200, user: 200, editor: 200, admin: 200 },
        { call: 'POST /users', anonymous: 200, user: 200, editor: 200, admin: 200 },
        { call: 'GET /admin/users', anonymous: 401, user: 403, editor: 403, admin: 200 },
        { call: 'GET /admin/users/{id}', anonymous: 401, user: 403, editor: 403, admin: 200 },
        { call: 'PUT /admin/users/{id}', anonymous: 401, user: 403, editor: 403, admin: 200 },
        { call: 'GET /admin/groups/{organization_id}', anonymous: 401, user: 403, editor: 403, admin: 200 },
      ]
      for (const expected of cases) {
        for (const role of ['anonymous', 'user', 'editor', 'admin'] as const) {
          it(`${expected.call} answers ${expected[role]} to ${role}`, async () => {
            const person = await register()
            const before = (await server.call(`/admin/users/${person.id}`)).body
            const requests: Record<string, () => Promise<{ status: number }>> = {
              'GET /organizations': () => server.call('/organizations', { as: callers[role] }),
              'POST /users': () => server.call('/users', { method: 'POST', body: newPerson(), as: callers[role] }),
              'GET /admin/users': () => server.call('/admin/users', { as: callers[role] }),
              'GET /admin/users/{id}': () => server.call(`/admin/users/${person.id}`, { as: callers[role] }),
              'PUT /admin/users/{id}': async () =>
                server.call(`/admin/users/${person.id}`, { method: 'PUT', body: await editOf(person.id, { firstName: `By ${role}` }), as: callers[role] }),
              'GET /admin/groups/{organization_id}': () => server.call(`/admin/groups/${defaultOrganizationId}`, { as: callers[role] }),
            }
            const response = await requests[expected.call]()
            expect(response.status).toBe(expected[role])
            if (expected[role] !== 200) expect((await server.call(`/admin/users/${person.id}`)).body).toEqual(before)
          })
        }
      }
    })
  })
}
