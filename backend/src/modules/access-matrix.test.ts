import { beforeAll, expect, it } from 'vitest'
import type { Access } from './identity/identity.types'
import { forEachStorage, type Caller } from '../testing/test-backend'

/** SEED.md §7 row by row, with who may call it (PRODUCT.md roles: admin everything; editor articles, drafts, logs; user ask, agents, own favourites, feedback). */
export const SEED_ACCESS: Record<string, Access> = {
  'GET /admin/get_articles': 'editor',
  'POST /admin/inject_article': 'editor',
  'PUT /admin/update_doc': 'editor',
  'DELETE /admin/delete_article': 'editor',
  'DELETE /admin/delete_article_by_title': 'editor',
  'GET /admin/get_content': 'user',
  'POST /ask_qa': 'user',
  'POST /ask_qa_answer': 'user',
  'PUT /ask_qa_feedback': 'user',
  'GET /answer': 'user',
  'GET /download': 'user',
  'POST /admin/convert_doc': 'user',
  'GET /query_logs': 'editor',
  'GET /query_logs/query_log': 'user',
  'GET /query_logs/query_log_csv': 'editor',
  'GET /admin/query_log_ds_csv': 'editor',
  'GET /query_logs/query_favorites': 'user',
  'POST /query_logs/add_query_favorite': 'user',
  'DELETE /query_logs/delete_query_favorite': 'user',
  'GET /admin/get_templates': 'user',
  'GET /admin/get_templates/:id': 'user',
  'POST /admin/create_template': 'admin',
  'PUT /admin/update_template': 'admin',
  'DELETE /admin/delete_template': 'admin',
  'GET /admin/bot_setting': 'admin',
  'PUT /admin/bot_setting': 'admin',
  'GET /who_am_i': 'user',
  'GET /admin/bot_info': 'editor',
  'POST /admin/upload_recovery': 'editor',
  'POST /admin/inject_youtube': 'editor',
  'POST /admin/do_embeddings': 'editor',
  'GET /admin/get_temp_articles': 'editor',
  'PUT /admin/update_temp_doc': 'editor',
  'DELETE /admin/delete_temp_article': 'editor',
  'GET /admin/get_temp_content': 'editor',
  'GET /admin/check_embeddings': 'editor',
  'POST /admin/upload_recovery_answer': 'editor',
  'DELETE /admin/delete_all_temp_articles': 'editor',
  'GET /organizations': 'public',
  'GET /admin/vis-network-agent-state-fields': 'admin',
  'POST /admin/vis-network': 'admin',
  'POST /users': 'public',
  'GET /admin/users': 'admin',
  'GET /admin/users/:id': 'admin',
  'PUT /admin/users/:id': 'admin',
  'GET /admin/groups/:organization_id': 'admin',
}

/** Calls beyond SEED.md: sign-in, sessions, registration policy and invitations. */
export const IDENTITY_ACCESS: Record<string, Access> = {
  'POST /auth/login': 'public',
  'POST /auth/refresh': 'user',
  'POST /auth/logout': 'user',
  'POST /auth/password': 'user',
  'GET /auth/me': 'user',
  'GET /auth/registration': 'public',
  'GET /admin/invitations': 'admin',
  'POST /admin/invitations': 'admin',
  'DELETE /admin/invitations/:id': 'admin',
}

/** Administration beyond SEED.md: organisations, groups, keys for integrations, and accounts administrators create, disable and reset. */
export const ADMINISTRATION_ACCESS: Record<string, Access> = {
  'POST /admin/organizations': 'admin',
  'PUT /admin/organizations/:id': 'admin',
  'DELETE /admin/organizations/:id': 'admin',
  'POST /admin/groups/:organization_id': 'admin',
  'PUT /admin/groups/:organization_id/:group_id': 'admin',
  'DELETE /admin/groups/:organization_id/:group_id': 'admin',
  'GET /admin/api_keys': 'admin',
  'POST /admin/api_keys': 'admin',
  'DELETE /admin/api_keys/:id': 'admin',
  'POST /admin/users': 'admin',
  'POST /admin/users/:id/disable': 'admin',
  'POST /admin/users/:id/enable': 'admin',
  'POST /admin/users/:id/password': 'admin',
  'POST /admin/users/:id/password_link': 'admin',
  'POST /auth/password_link': 'public',
}

/** Reading beyond SEED.md: a published article as every signed-in role reads it (the reader view). */
export const READING_ACCESS: Record<string, Access> = {
  'GET /read_article/:id': 'user',
}

/** Conversations beyond SEED.md: a user's own threads of questions (ADR 125). */
export const CONVERSATION_ACCESS: Record<string, Access> = {
  'GET /ask_thread': 'user',
  'GET /ask_threads': 'user',
}

const RANK: Record<Access, number> = { public: 0, user: 1, editor: 2, admin: 3 }

forEachStorage('access matrix', ({ server }) => {
  const callers: Record<string, Caller> = { anonymous: 'anonymous', admin: 'admin' }

  beforeAll(async () => {
    callers.user = await server().createUser('user')
    callers.editor = await server().createUser('editor')
  })

  it('serves every call of SEED.md §7 with the access it was designed for', () => {
    const registered = new Map(server().backend.routes.map((route) => [`${route.method} ${route.url}`, route.access]))
    for (const [call, access] of Object.entries({ ...SEED_ACCESS, ...IDENTITY_ACCESS, ...ADMINISTRATION_ACCESS, ...READING_ACCESS, ...CONVERSATION_ACCESS })) {
      expect(registered.has(call), `${call} is registered`).toBe(true)
      expect(registered.get(call), `${call} requires ${access}`).toBe(access)
    }
  })

  it('answers 401, 403 or the call itself for anonymous, user, editor and admin on every route', async () => {
    const failures: string[] = []
    for (const route of server().backend.routes) {
      const path = route.url.replace(/:[a-z_]+/g, '1')
      for (const [name, shared] of Object.entries(callers)) {
        const role = name === 'anonymous' ? 0 : RANK[name as Access]
        // Signing out ends the caller's session: sign out a session of its own, not the one the other calls use.
        const caller = route.url === '/auth/logout' && name !== 'anonymous' ? { token: (await server().createUser(name as 'user')).token } : shared
        const hasBody = route.method !== 'GET' && route.method !== 'DELETE'
        const response = await server().call(path, { method: route.method, as: caller, ...(hasBody ? { body: {} } : {}) })
        const expected = route.access === 'public' || role >= RANK[route.access] ? 'allowed' : role === 0 ? 401 : 403
        const isAsExpected =
          expected === 'allowed' ? response.status !== 401 && response.status !== 403 && response.status < 500 : response.status === expected
        if (!isAsExpected) failures.push(`${route.method} ${route.url} as ${name}: ${response.status} (expected ${expected})`)
        if (response.status >= 400) expect(response.body).toMatchObject({ success: false, message: expect.any(String) })
      }
    }
    expect(failures).toEqual([])
  })

  it('refuses a tampered or foreign bearer token', async () => {
    const token = (callers.user as { token: string }).token
    const tampered = `${token.slice(0, -4)}${token.slice(-4) === 'AAAA' ? 'BBBB' : 'AAAA'}`
    expect((await server().call('/who_am_i', { as: { token: tampered } })).status).toBe(401)
    expect((await server().call('/who_am_i', { as: { token: 'not.a.jwt' } })).status).toBe(401)
    expect((await server().call('/who_am_i', { headers: { authorization: 'Basic abc' }, as: 'anonymous' })).status).toBe(401)
  })

  it('signs in local accounts with one generic message for any mistake, and refuses an address after repeated failures, known name or not', async () => {
    const wrongPassword = await server().call('/auth/login', { method: 'POST', body: { username: 'admin', password: 'wrong' }, as: 'anonymous' })
    const unknownUser = await server().call('/auth/login', { method: 'POST', body: { username: 'nobody-here', password: 'wrong' }, as: 'anonymous' })
    expect(wrongPassword.status).toBe(401)
    expect(unknownUser.body.message).toBe(wrongPassword.body.message)

    const victim = await server().createUser('user')
    for (const username of [victim.username, 'nobody-at-all']) {
      for (let attempt = 0; attempt < 5; attempt++) {
        await server().call('/auth/login', { method: 'POST', body: { username, password: 'wrong' }, as: 'anonymous' })
      }
      const refused = await server().call('/auth/login', { method: 'POST', body: { username, password: 'wrong' }, as: 'anonymous' })
      expect(refused.status).toBe(429)
      expect(refused.body).toEqual({ success: false, error: 'Too Many Requests', message: 'Too many failed sign-in attempts; try again in 15 minutes' })
    }
  })
  it('gives a call made with only an integration key the rights of the key, and none once it is revoked', async () => {
    const organizationId = (await server().call('/organizations', { as: 'anonymous' })).body[0].id
    const keyOf = async (role: Access) =>
      (await server().call('/admin/api_keys', { method: 'POST', body: { name: `matrix ${role}`, role, organization_id: organizationId } })).body as { id: number; key: string }
    const withKey = (key: string, path: string, init: { method?: string; body?: unknown } = {}) =>
      server().call(path, { ...init, as: 'anonymous', headers: { apikey: key } })

    const user = await keyOf('user')
    expect((await withKey(user.key, '/ask_qa', { method: 'POST', body: { command: 'What is on the agenda?' } })).status).toBe(200)
    for (const call of ['GET /admin/api_keys', 'GET /admin/users', 'GET /admin/bot_setting', 'GET /query_logs']) {
      const [method, path] = call.split(' ')
      expect((await withKey(user.key, path, { method })).status, `${call} with a user-role key`).toBe(403)
    }

    const editor = await keyOf('editor')
    expect((await withKey(editor.key, '/admin/inject_article', { method: 'POST', body: { title: 'Matrix draft', content: 'From a key' } })).status).toBe(200)
    expect((await withKey(editor.key, '/admin/api_keys')).status).toBe(403)

    expect((await server().call(`/admin/api_keys/${user.id}`, { method: 'DELETE' })).status).toBe(200)
    expect((await withKey(user.key, '/ask_qa', { method: 'POST', body: { command: 'Still there?' } })).status).toBe(401)
  })
})
