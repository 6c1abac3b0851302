import { createHash } from 'node:crypto'
import { beforeAll, expect, it } from 'vitest'
import { forEachStorage, TEST_API_KEY } from '../../testing/test-backend'
import { ApiKeysService } from './api-keys.service'

forEachStorage('API keys for integrations', ({ server }) => {
  let organizationId: number
  const createKey = async (role: 'admin' | 'editor' | 'user', name = `${role} integration`) => {
    const created = await server().call('/admin/api_keys', { method: 'POST', body: { name, role, organization_id: organizationId } })
    expect(created.status).toBe(200)
    return created.body as { id: number; key: string; prefix: string; name: string }
  }
  /** A call that carries only the integration key: no bearer token, no web server key. */
  const withKey = (key: string, path: string, init: { method?: string; body?: unknown } = {}) =>
    server().call(path, { ...init, as: 'anonymous', headers: { apikey: key } })

  beforeAll(async () => {
    organizationId = (await server().call('/admin/organizations', { method: 'POST', body: { name: 'Integrations Agency' } })).body.organization.id
  })

  it('shows a new key once, stores only its SHA-256, and lists it without the key', async () => {
    const created = await createKey('user', 'Newsletter feed')
    expect(created.key).toMatch(/^kbk_[A-Za-z0-9_-]{43}$/)
    expect(created).toMatchObject({ success: true, name: 'Newsletter feed', role: 'user', organization_id: organizationId, organization_name: 'Integrations Agency', last_used_at: null })
    expect(created.key.startsWith(created.prefix)).toBe(true)
    expect(created.prefix).toHaveLength(12)

    const [stored] = await server().backend.db.query<Record<string, unknown>>(`SELECT * FROM api_keys WHERE id = $1`, [created.id])
    expect(stored.key_hash).toBe(createHash('sha256').update(created.key).digest('hex'))
    expect(Object.values(stored).map(String)).not.toContain(created.key)

    const listed = await server().call('/admin/api_keys')
    const entry = listed.body.find((key: { id: number }) => key.id === created.id)
    expect(Object.keys(entry).sort()).toEqual(['created_at', 'id', 'last_used_at', 'name', 'organization_id', 'organization_name', 'prefix', 'role'])
    expect(JSON.stringify(listed.body)).not.toContain(created.key)
  })

  it('refuses a key for a missing organisation, an unknown role or a blank name', async () => {
    const post = (body: unknown) => server().call('/admin/api_keys', { method: 'POST', body })
    const missing = await post({ name: 'Ghost', role: 'user', organization_id: 987654 })
    expect(missing.status).toBe(400)
    expect(missing.body.message).toBe('No organisation with id 987654')
    expect((await post({ name: 'Bad role', role: 'owner', organization_id: organizationId })).status).toBe(400)
    expect((await post({ name: '  ', role: 'user', organization_id: organizationId })).status).toBe(400)
    expect((await post({ role: 'user', organization_id: organizationId })).status).toBe(400)
  })

  it('lets a user-role key ask, in the header or the query string, and refuses it the admin and editor calls', async () => {
    const { key } = await createKey('user')
    const me = await withKey(key, '/auth/me')
    expect(me.status).toBe(200)
    expect(me.body).toMatchObject({ role: 'user', organization_id: organizationId })

    const asked = await withKey(key, '/ask_qa', { method: 'POST', body: { command: 'When does the harbour open?' } })
    expect(asked.status).toBe(200)
    const logId = asked.body.log_id
    expect(typeof logId).toBe('number')
    const byQuery = await server().call(`/ask_qa?apikey=${encodeURIComponent(key)}`, { method: 'POST', body: { command: 'And when does it close?' }, as: 'anonymous', headers: { apikey: '' } })
    expect(byQuery.status).toBe(200)

    // What the key does is recorded against its own account, in its organisation.
    const [log] = await server().backend.db.query<{ user_id: number; organization_id: number }>(`SELECT user_id, organization_id FROM query_logs WHERE id = $1`, [logId])
    expect(log).toEqual({ user_id: me.body.id, organization_id: organizationId })
    const favourite = await withKey(key, '/query_logs/add_query_favorite', { method: 'POST', body: { log_id: logId, comment: 'keep' } })
    expect(favourite.status).toBe(200)
    expect((await withKey(key, '/query_logs/query_favorites')).body.result).toHaveLength(1)

    expect((await withKey(key, '/admin/api_keys')).status).toBe(403)
    expect((await withKey(key, '/admin/users')).status).toBe(403)
    expect((await withKey(key, '/admin/inject_article', { method: 'POST', body: { title: 'Not mine', content: 'No' } })).status).toBe(403)
  })

  it('lets an editor-role key create a draft but not manage users', async () => {
    const { key } = await createKey('editor')
    const draft = await withKey(key, '/admin/inject_article', { method: 'POST', body: { title: 'Integration draft', content: 'Written by a feed.' } })
    expect(draft.status).toBe(200)
    expect((await server().call('/admin/get_temp_articles')).body.rows.map((article: { title: string }) => article.title)).toContain('Integration draft')
    expect((await withKey(key, '/admin/users')).status).toBe(403)
  })

  it('lets an admin-role key administer', async () => {
    const { key } = await createKey('admin')
    expect((await withKey(key, '/admin/users')).status).toBe(200)
    expect((await withKey(key, '/admin/api_keys')).status).toBe(200)
  })

  it('refuses a revoked key at once, and an unknown one', async () => {
    const { key, id } = await createKey('user')
    expect((await withKey(key, '/auth/me')).status).toBe(200)
    const revoked = await server().call(`/admin/api_keys/${id}`, { method: 'DELETE' })
    expect(revoked.status).toBe(200)
    expect(revoked.body).toMatchObject({ success: true, id })
    const refused = await withKey(key, '/auth/me')
    expect(refused.status).toBe(401)
    expect(refused.body).toMatchObject({ success: false, message: 'The apikey is not valid' })
    expect((await withKey(key, '/organizations')).status).toBe(401)
    expect((await server().call('/admin/api_keys')).body.map((entry: { id: number }) => entry.id)).not.toContain(id)
    expect((await server().call(`/admin/api_keys/${id}`, { method: 'DELETE' })).status).toBe(404)
    expect((await withKey(`kbk_${'A'.repeat(43)}`, '/auth/me')).status).toBe(401)
  })

  it('never lets the account behind a key sign in with a password', async () => {
    const { key } = await createKey('user')
    const { username } = (await withKey(key, '/auth/me')).body
    const login = await server().call('/auth/login', { method: 'POST', body: { username, password: 'anything-1' }, as: 'anonymous' })
    expect(login.status).toBe(401)
  })

  it("leaves the web server's own key as it was: a bearer token is still needed, and a bearer token says who calls", async () => {
    expect((await server().call('/auth/me', { as: 'anonymous', headers: { apikey: TEST_API_KEY } })).status).toBe(401)
    expect((await server().call('/organizations', { as: 'anonymous' })).status).toBe(200)
    const person = await server().createUser('user')
    const { key } = await createKey('admin')
    const me = await server().call('/auth/me', { as: person, headers: { apikey: key } })
    expect(me.body).toMatchObject({ id: person.id, role: 'user' })
  })

  it('records when a key was last used, writing at most once a minute', async () => {
    const { key, id } = await createKey('user')
    await withKey(key, '/auth/me')
    const listed = (await server().call('/admin/api_keys')).body.find((entry: { id: number }) => entry.id === id)
    expect(listed.last_used_at).not.toBeNull()

    let now = 1_000_000
    const keys = new ApiKeysService(server().backend.db, () => now)
    const lastUsed = async () => (await server().backend.db.query<{ last_used_at: Date }>(`SELECT last_used_at FROM api_keys WHERE id = $1`, [id]))[0].last_used_at
    const setOld = () => server().backend.db.query(`UPDATE api_keys SET last_used_at = '2001-01-01T00:00:00Z' WHERE id = $1`, [id])
    await setOld()
    expect(await keys.authenticate(key)).toMatchObject({ role: 'user', organizationId: organizationId })
    expect(new Date(await lastUsed()).getUTCFullYear()).toBeGreaterThan(2001)
    await setOld()
    now += 30_000
    await keys.authenticate(key)
    expect(new Date(await lastUsed()).toISOString()).toBe('2001-01-01T00:00:00.000Z')
    now += 31_000
    await keys.authenticate(key)
    expect(new Date(await lastUsed()).getUTCFullYear()).toBeGreaterThan(2001)
  })
})
