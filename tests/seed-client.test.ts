import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { uploadFiles } from '../backend/src/modules/ingest/ingest.test-support'
import { TEST_API_KEY, isPostgresAvailable, publishArticles, startTestBackend, type StorageKind, type TestBackend } from '../backend/src/testing/test-backend'
import { FIXTURE_VIDEO_ID, startFixtureSite, type FixtureSite } from './fixtures/fixture-site'
import { SEED_CALLS, createIntegrationKey, playSeedClient, type SeedFixtures } from './seed-client'

for (const kind of ['pglite', 'postgres'] as StorageKind[]) {
  describe(`a SEED.md client with only an apikey, on ${kind}`, async () => {
    const isAvailable = kind === 'pglite' || (await isPostgresAvailable())
    let server: TestBackend
    let site: FixtureSite
    let fixtures: SeedFixtures
    let adminHeaders: Record<string, string>

    beforeAll(async () => {
      if (!isAvailable) return
      site = await startFixtureSite()
      // Registration open, as POST /users (a public call) needs; the transcript service is the local fixture site.
      server = await startTestBackend(kind, { REGISTRATION_POLICY: 'open', ALLOW_PRIVATE_FETCH: 'true', YOUTUBE_TRANSCRIPT_BASE_URL: site.baseUrl })
      const signIn = await server.call('/auth/login', { method: 'POST', body: { username: server.config.ADMIN_USERNAME, password: server.config.ADMIN_PASSWORD }, as: 'anonymous' })
      adminHeaders = { apikey: TEST_API_KEY, authorization: `Bearer ${signIn.body.access_token}` }
      const published = await publishArticles(server, [{ title: 'Watering tomatoes', content: 'Water tomato plants deeply twice a week, at the base.' }])
      const uploaded = await uploadFiles(server, [{ name: 'frost.md', bytes: '# Frost\n\nCover tender plants with fleece.', type: 'text/markdown' }])
      const [organization] = await server.backend.db.query<{ id: number }>(`SELECT id FROM organizations ORDER BY id LIMIT 1`)
      const member = await server.createUser('user')
      const [{ group_id: groupId }] = await server.backend.db.query<{ group_id: number }>(`SELECT group_id FROM users WHERE id = $1`, [member.id])
      const [template] = (await server.call('/admin/get_templates')).body.rows
      fixtures = {
        organizationId: organization.id,
        articleId: published.published[0].article_id,
        s3Key: uploaded.body.files[0].s3_key,
        templateId: template.id,
        userId: member.id,
        groupId,
        youtubeUrl: `https://www.youtube.com/watch?v=${FIXTURE_VIDEO_ID}`,
      }
    })
    afterAll(async () => {
      await server?.stop()
      await site?.close()
    })

    describe.skipIf(!isAvailable)(kind, () => {
      it('plays every call of SEED.md §7, each one a route of the backend', () => {
        const routes = new Set(server.backend.routes.map((route) => `${route.method} ${route.url}`))
        const calls = new Set(SEED_CALLS.map((spec) => spec.call.split(' ').slice(0, 2).join(' ').replace(/\{([a-z_]+)\}/g, ':$1')))
        expect(calls.size).toBe(46)
        for (const call of calls) expect(routes.has(call), call).toBe(true)
      })

      for (const role of ['user', 'editor'] as const) {
        it(`with a ${role}-role key: 2xx for every call the role allows, 403 for the rest`, async () => {
          const key = await createIntegrationKey(server.baseUrl, adminHeaders, { name: `SEED client (${role})`, role, organization_id: fixtures.organizationId })
          const outcomes = await playSeedClient(server.baseUrl, key, role, fixtures)
          expect(outcomes.filter((outcome) => !outcome.passed)).toEqual([])
          // The key went in the header and in the query string, and both kinds of answer were seen.
          expect(new Set(outcomes.map((outcome) => outcome.via))).toEqual(new Set(['header', 'query']))
          const refused = outcomes.filter((outcome) => outcome.expected === 403).length
          expect(refused).toBe(role === 'user' ? 31 : 11)
        })
      }

      it('refuses the same calls to a revoked key with 401', async () => {
        const created = await fetch(`${server.baseUrl}/admin/api_keys`, {
          method: 'POST',
          headers: { ...adminHeaders, 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'Revoked integration', role: 'editor', organization_id: fixtures.organizationId }),
        }).then((response) => response.json() as Promise<{ id: number; key: string }>)
        expect((await fetch(`${server.baseUrl}/who_am_i`, { headers: { apikey: created.key } })).status).toBe(200)
        await fetch(`${server.baseUrl}/admin/api_keys/${created.id}`, { method: 'DELETE', headers: adminHeaders })
        expect((await fetch(`${server.baseUrl}/who_am_i?apikey=${encodeURIComponent(created.key)}`)).status).toBe(401)
      })
    })
  })
}
