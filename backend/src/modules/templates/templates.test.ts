import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { isPostgresAvailable, startTestBackend, type Caller, type StorageKind, type TestBackend } from '../../testing/test-backend'

const BRIEFING = {
  name: 'Ministerial briefing',
  description: 'A one-page briefing for a minister',
  instructions: 'Write plainly; cite every fact.',
  sections: [
    { title: 'Summary', instructions: 'Three sentences at most.' },
    { title: 'Background', instructions: 'What led here.' },
    { title: 'Recommendation', instructions: '' },
  ],
}

// Values of the wrong kind for each field of a template body; every one of them makes the body invalid.
const notText = fc.oneof(fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.string(), { maxLength: 2 }), fc.object({ maxDepth: 1 }), fc.constant('NUL \u0000 inside'))
const WRONG_VALUES: Record<string, fc.Arbitrary<unknown>> = {
  id: fc.oneof(fc.constant(null), fc.object({ maxDepth: 1 }), fc.constantFrom('abc', '-1', '0', '1.5', '99999999999', '1e999', '')),
  name: fc.oneof(notText, fc.constantFrom('', '   ', 'x'.repeat(201))),
  description: notText,
  instructions: notText,
  sections: fc.oneof(
    fc.string(),
    fc.integer(),
    fc.constant(null),
    fc.constantFrom([], [{}], [{ title: 5 }], [{ title: 'a\u0000' }], [{ title: 'Same' }, { title: 'same' }], [null]),
  ),
}

for (const kind of ['pglite', 'postgres'] as StorageKind[]) {
  describe(`templates on ${kind}`, async () => {
    const isAvailable = kind === 'pglite' || (await isPostgresAvailable())
    let server: TestBackend
    let callers: Record<'anonymous' | 'user' | 'editor' | 'admin', Caller>
    let templateCount = 0

    /** Creates a template with a name no other test uses. */
    const createTemplate = async (overrides: Record<string, unknown> = {}) => {
      const response = await server.call('/admin/create_template', { method: 'POST', body: { ...BRIEFING, name: `Template ${++templateCount}`, ...overrides } })
      expect(response.status).toBe(200)
      return response.body.id as number
    }

    beforeAll(async () => {
      if (!isAvailable) return
      server = await startTestBackend(kind)
      const [user, editor] = [await server.createUser('user'), await server.createUser('editor')]
      callers = { anonymous: 'anonymous', user: { token: user.token }, editor: { token: editor.token }, admin: 'admin' }
    })
    afterAll(async () => {
      await server?.stop()
    })

    describe.skipIf(!isAvailable)('create_template', () => {
      it('adds a template and reads it back with its ordered sections and times', async () => {
        const created = await server.call('/admin/create_template', { method: 'POST', body: BRIEFING })
        expect(created.status).toBe(200)
        expect(created.body).toEqual({ success: true, message: 'Template added', id: expect.any(Number) })

        const read = await server.call(`/admin/get_templates/${created.body.id}`)
        expect(read.status).toBe(200)
        expect(read.body).toMatchObject({ success: true, id: created.body.id, ...BRIEFING })
        expect(read.body.sections.map((section: { title: string }) => section.title)).toEqual(['Summary', 'Background', 'Recommendation'])
        expect(new Date(read.body.created_at).getTime()).toBeGreaterThan(0)
        expect(read.body.updated_at).toBe(read.body.created_at)
      })

      it('fills in what a template may leave out', async () => {
        const created = await server.call('/admin/create_template', { method: 'POST', body: { name: '  Bare  ', sections: [{ title: 'Only' }] } })
        const read = await server.call(`/admin/get_templates/${created.body.id}`)
        expect(read.body).toMatchObject({ name: 'Bare', description: '', instructions: '', sections: [{ title: 'Only', instructions: '' }] })
      })

      it('refuses a name another template has, whatever its case, naming it', async () => {
        const id = await createTemplate({ name: 'Press release' })
        const response = await server.call('/admin/create_template', { method: 'POST', body: { ...BRIEFING, name: 'PRESS RELEASE' } })
        expect(response.status).toBe(409)
        expect(response.body).toMatchObject({ success: false, error: 'Conflict' })
        expect(response.body.message).toMatch(/PRESS RELEASE/)
        const list = await server.call('/admin/get_templates')
        expect(list.body.rows.filter((row: { name: string }) => row.name.toLowerCase() === 'press release').map((row: { id: number }) => row.id)).toEqual([id])
      })

      it('refuses a blank name, naming the field', async () => {
        const response = await server.call('/admin/create_template', { method: 'POST', body: { ...BRIEFING, name: '   ' } })
        expect(response.status).toBe(400)
        expect(response.body.details).toEqual([{ field: 'name', message: 'name is required' }])
      })

      it('refuses a section without a title, naming it', async () => {
        const response = await server.call('/admin/create_template', { method: 'POST', body: { name: 'Untitled section', sections: [{ title: 'One' }, { instructions: 'x' }] } })
        expect(response.status).toBe(400)
        expect(response.body.details.map((detail: { field: string }) => detail.field)).toEqual(['sections.1.title'])
      })

      it('refuses a template without sections, naming the field, and stores nothing', async () => {
        for (const body of [{ name: 'Empty', sections: [] }, { name: 'Empty' }]) {
          const response = await server.call('/admin/create_template', { method: 'POST', body })
          expect(response.status).toBe(400)
          expect(response.body.details).toEqual([{ field: 'sections', message: 'a template has at least one section' }])
        }
        const list = await server.call('/admin/get_templates')
        expect(list.body.rows.map((row: { name: string }) => row.name)).not.toContain('Empty')
      })

      it('refuses two sections with the same title', async () => {
        const response = await server.call('/admin/create_template', { method: 'POST', body: { name: 'Twice', sections: [{ title: 'Summary' }, { title: 'summary' }] } })
        expect(response.status).toBe(400)
        expect(response.body.details).toEqual([{ field: 'sections.1.title', message: 'section title "summary" appears twice' }])
      })

      it('refuses sections that are not a list, and more than 50 of them', async () => {
        const notList = await server.call('/admin/create_template', { method: 'POST', body: { name: 'Odd', sections: 'Summary' } })
        expect(notList.status).toBe(400)
        expect(notList.body.details[0].field).toBe('sections')
        const sections = Array.from({ length: 51 }, (_, index) => ({ title: `Part ${index}` }))
        const tooMany = await server.call('/admin/create_template', { method: 'POST', body: { name: 'Long', sections } })
        expect(tooMany.status).toBe(400)
        expect(tooMany.body.details[0]).toEqual({ field: 'sections', message: 'a template has at most 50 sections' })
      })

      it('refuses a body that is not JSON', async () => {
        const response = await server.call('/admin/create_template', { method: 'POST', rawBody: '{"name":', headers: { 'content-type': 'application/json' } })
        expect(response.status).toBe(400)
        expect(response.body.success).toBe(false)
      })
    })

    describe.skipIf(!isAvailable)('get_templates', () => {
      it('lists every template by name with the total count', async () => {
        await createTemplate({ name: 'zz last' })
        await createTemplate({ name: 'AA first' })
        const response = await server.call('/admin/get_templates')
        expect(response.status).toBe(200)
        expect(response.body.success).toBe(true)
        expect(response.body.total_count).toBe(response.body.rows.length)
        const names: string[] = response.body.rows.map((row: { name: string }) => row.name)
        expect(names[0]).toBe('AA first')
        expect(names.at(-1)).toBe('zz last')
        expect(response.body.rows[0]).toEqual({
          id: expect.any(Number),
          name: 'AA first',
          description: BRIEFING.description,
          instructions: BRIEFING.instructions,
          sections: BRIEFING.sections,
          created_at: expect.any(String),
          updated_at: expect.any(String),
        })
      })

      it('answers 404 for a template that does not exist', async () => {
        const response = await server.call('/admin/get_templates/999999')
        expect(response.status).toBe(404)
        expect(response.body).toMatchObject({ success: false, error: 'Not Found', message: 'No template with id 999999' })
      })

      it('refuses an id that is not a number', async () => {
        const response = await server.call('/admin/get_templates/abc')
        expect(response.status).toBe(400)
        expect(response.body.details[0].field).toBe('id')
      })
    })

    describe.skipIf(!isAvailable)('update_template', () => {
      it('changes the fields given and keeps the others', async () => {
        const id = await createTemplate()
        const before = await server.call(`/admin/get_templates/${id}`)
        const response = await server.call('/admin/update_template', {
          method: 'PUT',
          body: { id, description: 'Shorter', sections: [{ title: 'Recommendation', instructions: 'First.' }, { title: 'Summary' }] },
        })
        expect(response.status).toBe(200)
        expect(response.body).toEqual({ success: true, message: 'Template updated', id })
        const after = await server.call(`/admin/get_templates/${id}`)
        expect(after.body).toMatchObject({
          name: before.body.name,
          instructions: BRIEFING.instructions,
          description: 'Shorter',
          sections: [
            { title: 'Recommendation', instructions: 'First.' },
            { title: 'Summary', instructions: '' },
          ],
        })
        expect(after.body.created_at).toBe(before.body.created_at)
        expect(new Date(after.body.updated_at).getTime()).toBeGreaterThan(new Date(before.body.updated_at).getTime())
      })

      it('accepts a change of case in its own name', async () => {
        const id = await createTemplate({ name: 'Case study' })
        const response = await server.call('/admin/update_template', { method: 'PUT', body: { id, name: 'CASE STUDY' } })
        expect(response.status).toBe(200)
        expect((await server.call(`/admin/get_templates/${id}`)).body.name).toBe('CASE STUDY')
      })

      it("refuses another template's name and keeps its own", async () => {
        await createTemplate({ name: 'Taken name' })
        const id = await createTemplate({ name: 'Own name' })
        const response = await server.call('/admin/update_template', { method: 'PUT', body: { id, name: 'taken NAME', description: 'changed' } })
        expect(response.status).toBe(409)
        expect(response.body.message).toMatch(/taken NAME/)
        expect((await server.call(`/admin/get_templates/${id}`)).body).toMatchObject({ name: 'Own name', description: BRIEFING.description })
      })

      it('refuses to remove every section, naming the field, and keeps them', async () => {
        const id = await createTemplate()
        const response = await server.call('/admin/update_template', { method: 'PUT', body: { id, name: 'Renamed', sections: [] } })
        expect(response.status).toBe(400)
        expect(response.body.details).toEqual([{ field: 'sections', message: 'a template has at least one section' }])
        expect((await server.call(`/admin/get_templates/${id}`)).body).toMatchObject({ name: `Template ${templateCount}`, sections: BRIEFING.sections })
      })

      it('refuses to change a template left without sections from before until it is given one', async () => {
        const [{ id }] = await server.backend.db.query<{ id: number }>(`INSERT INTO templates (name, sections) VALUES ('Left empty', '[]'::jsonb) RETURNING id`)
        const renamed = await server.call('/admin/update_template', { method: 'PUT', body: { id, description: 'Still empty' } })
        expect(renamed.status).toBe(400)
        expect(renamed.body.details).toEqual([{ field: 'sections', message: 'a template has at least one section' }])
        const mended = await server.call('/admin/update_template', { method: 'PUT', body: { id, sections: [{ title: 'Summary' }] } })
        expect(mended.status).toBe(200)
        expect((await server.call(`/admin/get_templates/${id}`)).body).toMatchObject({ description: '', sections: [{ title: 'Summary', instructions: '' }] })
      })

      it('answers 404 for a template that does not exist', async () => {
        const response = await server.call('/admin/update_template', { method: 'PUT', body: { id: 999999, name: 'Ghost' } })
        expect(response.status).toBe(404)
      })

      it('refuses a body without an id, or with a blank name', async () => {
        const missingId = await server.call('/admin/update_template', { method: 'PUT', body: { name: 'No id' } })
        expect(missingId.status).toBe(400)
        expect(missingId.body.details[0].field).toBe('id')
        const id = await createTemplate()
        const blankName = await server.call('/admin/update_template', { method: 'PUT', body: { id, name: '' } })
        expect(blankName.status).toBe(400)
        expect(blankName.body.details).toEqual([{ field: 'name', message: 'name is required' }])
      })
    })

    describe.skipIf(!isAvailable)('delete_template', () => {
      it('deletes a template, which then is gone', async () => {
        const id = await createTemplate()
        const response = await server.call(`/admin/delete_template?id=${id}`, { method: 'DELETE' })
        expect(response.status).toBe(200)
        expect(response.body).toEqual({ success: true, message: 'Template deleted', id })
        expect((await server.call(`/admin/get_templates/${id}`)).status).toBe(404)
        expect((await server.call(`/admin/delete_template?id=${id}`, { method: 'DELETE' })).status).toBe(404)
      })

      it('refuses a missing or malformed id', async () => {
        const missing = await server.call('/admin/delete_template', { method: 'DELETE' })
        expect(missing.status).toBe(400)
        expect(missing.body.details[0].field).toBe('id')
        const malformed = await server.call('/admin/delete_template?id=-3', { method: 'DELETE' })
        expect(malformed.status).toBe(400)
      })
    })

    describe.skipIf(!isAvailable)('malformed bodies', () => {
      const fingerprint = async () =>
        (await server.backend.db.query<{ digest: string }>(`SELECT md5(COALESCE(string_agg(t::text, '|' ORDER BY t.id), '')) AS digest FROM templates t`))[0].digest

      it('refuses a template body with any field of the wrong kind, or a required one missing, and writes nothing', async () => {
        const id = await createTemplate()
        const before = await fingerprint()
        await fc.assert(
          fc.asyncProperty(
            fc.constantFrom('create', 'update'),
            fc.constantFrom(...Object.keys(WRONG_VALUES)).chain((field) => fc.tuple(fc.constant(field), fc.option(WRONG_VALUES[field], { nil: undefined }))),
            async (call, [field, value]) => {
              const body: Record<string, unknown> = call === 'create' ? { ...BRIEFING, name: 'Never stored' } : { id, name: 'Never stored' }
              // undefined leaves the field out: only the name and sections of a new template and the id of an update are required.
              if (value === undefined && !((call === 'create' && (field === 'name' || field === 'sections')) || (call === 'update' && field === 'id'))) return
              if (call === 'create' && field === 'id') return
              body[field] = value
              const response =
                call === 'create'
                  ? await server.call('/admin/create_template', { method: 'POST', body })
                  : await server.call('/admin/update_template', { method: 'PUT', body })
              expect(response.status, JSON.stringify(body)).toBe(400)
              expect(response.body.success).toBe(false)
              expect(response.body.details.map((detail: { field: string }) => detail.field.split('.')[0])).toEqual(response.body.details.map(() => field))
            },
          ),
          { numRuns: 150, seed: 3 },
        )
        expect(await fingerprint()).toBe(before)
      })
    })

    describe.skipIf(!isAvailable)('access', () => {
      const cases: { call: string; anonymous: number; user: number; editor: number; admin: number }[] = [
        { call: 'GET /admin/get_templates', anonymous: 401, user: 200, editor: 200, admin: 200 },
        { call: 'GET /admin/get_templates/{id}', anonymous: 401, user: 200, editor: 200, admin: 200 },
        { call: 'POST /admin/create_template', anonymous: 401, user: 403, editor: 403, admin: 200 },
        { call: 'PUT /admin/update_template', anonymous: 401, user: 403, editor: 403, admin: 200 },
        { call: 'DELETE /admin/delete_template', anonymous: 401, user: 403, editor: 403, admin: 200 },
      ]
      for (const expected of cases) {
        for (const role of ['anonymous', 'user', 'editor', 'admin'] as const) {
          it(`${expected.call} answers ${expected[role]} to ${role}`, async () => {
            const id = await createTemplate()
            const before = await server.call(`/admin/get_templates/${id}`)
            const requests: Record<string, () => Promise<{ status: number }>> = {
              'GET /admin/get_templates': () => server.call('/admin/get_templates', { as: callers[role] }),
              'GET /admin/get_templates/{id}': () => server.call(`/admin/get_templates/${id}`, { as: callers[role] }),
              'POST /admin/create_template': () =>
                server.call('/admin/create_template', { method: 'POST', body: { name: `By ${role} ${++templateCount}`, sections: BRIEFING.sections }, as: callers[role] }),
              'PUT /admin/update_template': () => server.call('/admin/update_template', { method: 'PUT', body: { id, description: `by ${role}` }, as: callers[role] }),
              'DELETE /admin/delete_template': () => server.call(`/admin/delete_template?id=${id}`, { method: 'DELETE', as: callers[role] }),
            }
            const response = await requests[expected.call]()
            expect(response.status).toBe(expected[role])
            if (expected[role] !== 200) {
              // A refused call changes nothing.
              expect((await server.call(`/admin/get_templates/${id}`)).body).toEqual(before.body)
            }
          })
        }
      }
    })
  })
}
