import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { GARDEN_GUIDE, runAgent } from '../modules/agents/agents.test-support'
import { isPostgresAvailable, publishArticles, startTestBackend, type StorageKind, type TestBackend } from '../testing/test-backend'
import { STARTER_TEMPLATE } from './starter-template'

for (const kind of ['pglite', 'postgres'] as StorageKind[]) {
  describe(`a fresh installation's starter template on ${kind}`, async () => {
    const isAvailable = kind === 'pglite' || (await isPostgresAvailable())
    let server: TestBackend
    beforeAll(async () => {
      if (isAvailable) server = await startTestBackend(kind)
    })
    afterAll(async () => {
      await server?.stop()
    })

    describe.skipIf(!isAvailable)(kind, () => {
      it('ships one template, with which the government agent runs at once', async () => {
        const listed = await server.call('/admin/get_templates')
        expect(listed.body.rows).toEqual([expect.objectContaining({ name: STARTER_TEMPLATE.name, sections: STARTER_TEMPLATE.sections })])
        await publishArticles(server, GARDEN_GUIDE)
        const answer = await runAgent(server, { command: 'How do I protect plants from frost?', variant: 'government', template_id: listed.body.rows[0].id })
        expect(answer.status).toBe('finished')
        expect(answer.answer.split('\n').filter((line: string) => line.startsWith('## '))).toEqual(STARTER_TEMPLATE.sections.map((section) => `## ${section.title}`))
        expect(answer.source_list.length).toBeGreaterThan(0)
      })

      it('does not bring the template back after an administrator deleted it', async () => {
        const [template] = (await server.call('/admin/get_templates')).body.rows
        expect((await server.call(`/admin/delete_template?id=${template.id}`, { method: 'DELETE' })).status).toBe(200)
        server = await server.restart()
        expect((await server.call('/admin/get_templates')).body.rows).toEqual([])
      })
    })
  })
}
