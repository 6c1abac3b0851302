import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import {
  freshPostgresUrl,
  isPostgresAvailable,
  startTestBackend,
  TEST_ADMIN_PASSWORD,
  type StorageKind,
  type TestBackend,
} from '../../testing/test-backend'

const TOKEN_SECRET = 'builtin-admin-token-secret-0123456789abcdef'
const DEMO_DIRECTORY = fileURLToPath(new URL('../../demo/articles/', import.meta.url))

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

const builtinRows = async (server: TestBackend) =>
  server.backend.db.query<{ id: number; username: string }>(`SELECT id, username FROM users WHERE is_builtin_admin ORDER BY id`)

for (const kind of ['pglite', 'postgres'] as StorageKind[]) {
  describe(`the built-in administrator on ${kind}`, async () => {
    const isAvailable = kind === 'pglite' || (await isPostgresAvailable())

    it.skipIf(!isAvailable)('stays bound to its own row: a stranger who registers its old name stays a plain user across a restart', async () => {
      let server = await startTestBackend(kind, { TOKEN_SECRET })
      try {
        const builtin = (await server.call('/auth/me')).body
        expect(builtin).toMatchObject({ username: 'admin', role: 'admin' })
        const renamed = await server.call(`/admin/users/${builtin.id}`, { method: 'PUT', body: await editOf(server, builtin.id, { username: 'chief-admin' }) })
        expect(renamed.status).toBe(200)

        const organizationId = (await server.call('/organizations', { as: 'anonymous' })).body[0].id
        const stranger = { username: 'admin', email: 'stranger@example.test', firstName: 'Stranger', lastName: 'Danger', password: 'stranger-pass-1', organizations: [organizationId] }
        const registered = await server.call('/users', { method: 'POST', body: stranger, as: 'anonymous' })
        expect(registered.status).toBe(200)
        const signIn = await server.call('/auth/login', { method: 'POST', body: { username: 'admin', password: stranger.password }, as: 'anonymous' })
        expect(signIn.body.user.role).toBe('user')
        const token = signIn.body.access_token as string

        server = await server.restart()

        // The stranger's token (still valid: same signing key, same session) is still a plain user's.
        const me = await server.call('/auth/me', { as: { token } })
        expect(me.status).toBe(200)
        expect(me.body).toMatchObject({ id: registered.body.id, username: 'admin', role: 'user' })
        expect((await server.call('/admin/users', { as: { token } })).status).toBe(403)
        // Nor did the restart give the stranger the administrator's password.
        const withAdminPassword = await server.call('/auth/login', { method: 'POST', body: { username: 'admin', password: TEST_ADMIN_PASSWORD }, as: 'anonymous' })
        expect(withAdminPassword.status).toBe(401)
        // The built-in administrator is the renamed row, still the only one, still an administrator.
        expect(await builtinRows(server)).toEqual([{ id: builtin.id, username: 'chief-admin' }])
        expect((await server.call('/auth/me')).body).toMatchObject({ id: builtin.id, username: 'chief-admin', role: 'admin' })
      } finally {
        await server.stop()
      }
    })

    it.skipIf(!isAvailable)("changes nobody's role on restart, the built-in administrator's included", async () => {
      let server = await startTestBackend(kind)
      try {
        const builtin = (await server.call('/auth/me')).body
        const other = await server.createUser('admin')
        const userGroup = (await server.call(`/admin/groups/${builtin.organization_id}`)).body.find((group: { role: string }) => group.role === 'user').id
        // Another administrator makes the built-in one a plain user; a restart does not undo it.
        const demoted = await server.call(`/admin/users/${builtin.id}`, {
          method: 'PUT',
          body: await editOf(server, builtin.id, { group_id: userGroup }),
          as: { token: other.token },
        })
        expect(demoted.status).toBe(200)
        server = await server.restart()
        const roles = await server.backend.db.query<{ id: number; role: string }>(`SELECT u.id, g.role FROM users u JOIN groups g ON g.id = u.group_id WHERE u.id = ANY($1::int[])`, [
          [builtin.id, other.id],
        ])
        expect(Object.fromEntries(roles.map((row) => [row.id, row.role]))).toEqual({ [builtin.id]: 'user', [other.id]: 'admin' })
      } finally {
        await server.stop()
      }
    })

    it.skipIf(!isAvailable)('refuses to start rather than make an existing account the built-in administrator', async () => {
      let server = await startTestBackend(kind)
      try {
        const plain = await server.createUser('user')
        // An installation whose built-in administrator is gone, with ADMIN_USERNAME naming someone else's account.
        await server.backend.db.query(`UPDATE users SET is_builtin_admin = false`)
        await expect(server.restart({ ADMIN_USERNAME: plain.username.toUpperCase() })).rejects.toThrow(
          `ADMIN_USERNAME "${plain.username.toUpperCase()}" belongs to an existing account, which is not made an administrator`,
        )
        server = await server.restart({ ADMIN_USERNAME: 'new-admin', ADMIN_EMAIL: 'new-admin@example.test' })
        const roles = await server.backend.db.query<{ username: string; role: string; is_builtin_admin: boolean }>(
          `SELECT u.username, g.role, u.is_builtin_admin FROM users u JOIN groups g ON g.id = u.group_id WHERE u.username IN ($1, 'new-admin') ORDER BY u.id`,
          [plain.username],
        )
        expect(roles).toEqual([
          { username: plain.username, role: 'user', is_builtin_admin: false },
          { username: 'new-admin', role: 'admin', is_builtin_admin: true },
        ])
      } finally {
        await server.stop()
      }
    })

    it.skipIf(!isAvailable)("ends the built-in administrator's sessions when ADMIN_PASSWORD changes, and only then", async () => {
      let server = await startTestBackend(kind, { TOKEN_SECRET })
      try {
        const signIn = async (password: string) =>
          server.call('/auth/login', { method: 'POST', body: { username: 'admin', password }, as: 'anonymous' })
        const token = (await signIn(TEST_ADMIN_PASSWORD)).body.access_token
        server = await server.restart()
        expect((await server.call('/auth/me', { as: { token } })).status).toBe(200)
        server = await server.restart({ ADMIN_PASSWORD: 'a-new-admin-password-2' })
        expect((await server.call('/auth/me', { as: { token } })).status).toBe(401)
        expect((await signIn('a-new-admin-password-2')).status).toBe(200)
      } finally {
        await server.stop()
      }
    })
  })
}

describe('two backends starting together on one empty PostgreSQL schema', async () => {
  const isAvailable = await isPostgresAvailable()

  it.skipIf(!isAvailable)('both come up, with one built-in administrator and the demo articles once', async () => {
    const schema = await freshPostgresUrl()
    const started = await Promise.allSettled(
      [0, 1].map(() => startTestBackend('postgres', { TOKEN_SECRET }, { sharedDatabaseUrl: schema.url, demoDirectory: DEMO_DIRECTORY })),
    )
    const servers = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []))
    try {
      expect(started.map((result) => (result.status === 'rejected' ? String(result.reason) : 'started'))).toEqual(['started', 'started'])
      const [first, second] = servers
      const users = await first.backend.db.query<{ username: string; is_builtin_admin: boolean }>(`SELECT username, is_builtin_admin FROM users`)
      expect(users).toEqual([{ username: 'admin', is_builtin_admin: true }])
      // Each signed in as that administrator, and each accepts the other's token (one database, one signing key).
      const tokenOfSecond = (await second.call('/auth/login', { method: 'POST', body: { username: 'admin', password: TEST_ADMIN_PASSWORD }, as: 'anonymous' })).body
        .access_token
      expect((await first.call('/auth/me', { as: { token: tokenOfSecond } })).body).toMatchObject({ username: 'admin', role: 'admin' })
      const demoFiles = (await import('node:fs')).readdirSync(DEMO_DIRECTORY).filter((file) => file.endsWith('.md'))
      const [{ count }] = await first.backend.db.query<{ count: number }>(`SELECT COUNT(*)::int AS count FROM articles`)
      expect(count).toBe(demoFiles.length)
    } finally {
      for (const server of servers) await server.backend.close().catch(() => undefined)
      await schema.drop()
      for (const server of servers) await server.stop()
    }
  })
})
