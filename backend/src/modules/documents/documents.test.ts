import JSZip from 'jszip'
import mammoth from 'mammoth'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DOCX_CONTENT_TYPE } from '../../../../contracts/documents'
import { isPostgresAvailable, startTestBackend, TEST_API_KEY, type StorageKind, type TestBackend } from '../../testing/test-backend'

const ANSWER = `# Watering tomatoes

Water **deeply** and *early*, as the [extension service](https://example.org/tomatoes) advises; avoid \`sprinklers\`.

1. Check the soil
2. Water at the base

- Mulch
- Shade in a heatwave

| Month | Times a week |
|:------|-------------:|
| June  | 2            |
| July  | 3            |
`

/** Posts Markdown to convert_doc with fetch, to keep the answer's bytes as they are. */
async function convert(server: TestBackend, doc: unknown, token?: string) {
  const response = await fetch(`${server.baseUrl}/admin/convert_doc`, {
    method: 'POST',
    headers: { apikey: TEST_API_KEY, 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ doc }),
  })
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) }
}

for (const kind of ['pglite', 'postgres'] as StorageKind[]) {
  describe(`convert_doc on ${kind}`, async () => {
    const isAvailable = kind === 'pglite' || (await isPostgresAvailable())
    let server: TestBackend
    let tokens: Record<'user' | 'editor' | 'admin', string>

    beforeAll(async () => {
      if (!isAvailable) return
      server = await startTestBackend(kind)
      const [user, editor, admin] = [await server.createUser('user'), await server.createUser('editor'), await server.createUser('admin')]
      tokens = { user: user.token, editor: editor.token, admin: admin.token }
    })
    afterAll(async () => {
      await server?.stop()
    })

    describe.skipIf(!isAvailable)('POST /admin/convert_doc', () => {
      it('answers a Word document named answer.docx', async () => {
        const response = await convert(server, ANSWER, tokens.user)
        expect(response.status).toBe(200)
        expect(response.headers.get('content-type')).toBe(DOCX_CONTENT_TYPE)
        expect(response.headers.get('content-disposition')).toBe('attachment; filename="answer.docx"')
        expect(response.bytes.subarray(0, 2).toString()).toBe('PK')
      })

      it('writes the heading, list numbering, a table and a hyperlink into the document', async () => {
        const zip = await JSZip.loadAsync((await convert(server, ANSWER, tokens.user)).bytes)
        const document = await zip.file('word/document.xml')!.async('string')
        const relationships = await zip.file('word/_rels/document.xml.rels')!.async('string')
        const numbering = await zip.file('word/numbering.xml')!.async('string')

        expect(document).toMatch(/<w:pStyle w:val="Heading1"\/>.*?<w:t[^>]*>Watering tomatoes<\/w:t>/s)
        expect(document).toMatch(/<w:numPr>/)
        expect(numbering).toMatch(/<w:numFmt w:val="decimal"\/>/)
        expect(document).toMatch(/<w:tbl>.*<w:t[^>]*>Times a week<\/w:t>.*<w:t[^>]*>July<\/w:t>.*<\/w:tbl>/s)
        const link = /<w:hyperlink [^>]*r:id="([^"]+)"[^>]*>.*?<w:t[^>]*>extension service<\/w:t>/s.exec(document)
        expect(link).not.toBeNull()
        expect(relationships).toMatch(new RegExp(`Id="${link![1]}"[^>]*Target="https://example.org/tomatoes"[^>]*TargetMode="External"|Target="https://example.org/tomatoes"[^>]*Id="${link![1]}"`))
        expect(document).toMatch(/<w:b\/>.*?<w:t[^>]*>deeply<\/w:t>/s)
        expect(document).toMatch(/<w:i\/>.*?<w:t[^>]*>early<\/w:t>/s)
      })

      it('makes a document another reader understands as headings, lists, a table and a link', async () => {
        const { value: html } = await mammoth.convertToHtml({ buffer: (await convert(server, ANSWER, tokens.user)).bytes })
        expect(html).toContain('<h1>Watering tomatoes</h1>')
        expect(html).toContain('<strong>deeply</strong>')
        expect(html).toContain('<em>early</em>')
        expect(html).toContain('<a href="https://example.org/tomatoes">extension service</a>')
        expect(html).toContain('<ol><li>Check the soil</li><li>Water at the base</li></ol>')
        expect(html).toContain('<ul><li>Mulch</li><li>Shade in a heatwave</li></ul>')
        expect(html).toMatch(/<table>.*<p><strong>Month<\/strong><\/p>.*<p>3<\/p>.*<\/table>/s)
      })

      it('refuses a blank or missing doc, naming the field', async () => {
        for (const doc of ['   \n ', undefined, 42]) {
          const response = await convert(server, doc, tokens.user)
          expect(response.status).toBe(400)
          const body = JSON.parse(response.bytes.toString())
          expect(body).toMatchObject({ success: false, details: [{ field: 'doc' }] })
        }
      })

      it('refuses Markdown nested too deeply to parse, naming the field', async () => {
        const response = await convert(server, `${'>'.repeat(5000)} deep`, tokens.user)
        expect(response.status).toBe(422)
        expect(JSON.parse(response.bytes.toString())).toMatchObject({ success: false, details: [{ field: 'doc' }] })
      })
    })

    describe.skipIf(!isAvailable)('access', () => {
      it('refuses a caller without a token', async () => {
        const response = await convert(server, ANSWER)
        expect(response.status).toBe(401)
      })

      it.each(['user', 'editor', 'admin'] as const)('converts for the %s role', async (role) => {
        const response = await convert(server, ANSWER, tokens[role])
        expect(response.status).toBe(200)
      })
    })
  })
}
