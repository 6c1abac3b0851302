import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FIXTURE_VIDEO_ID, FIXTURE_VIDEO_TITLE, fixtureVideo, LONG_LINK_PATH, MANY_PAGE_COUNT, startFixtureSite, type FixtureSite } from '../../../../tests/fixtures/fixture-site'
import { GARDEN_SAMPLE, makeCorruptDocx, makeCorruptPdf, makeSampleDocx, makeSamplePdf } from '../../../../tests/fixtures/sample-files'
import type { BuildOptions } from '../../app'
import { createFakeResolver } from '../../ingest/fake-dns.test-support'
import { makeLyingDocx } from '../../ingest/zip-bomb.test-support'
import { isPostgresAvailable, startTestBackend, waitForPublish, type StorageKind, type TestBackend } from '../../testing/test-backend'
import { ingestRepository } from './ingest.repository'
import { adminHeaders, forgetDrafts, listAllDrafts, uploadFiles, waitForIngest } from './ingest.test-support'

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0])
const HTML_FILE = `<!doctype html><html><head><title>Frost dates</title></head><body>
<nav><a href="/">Home</a> <a href="/shop">Shop</a></nav>
<article><h1>Frost dates</h1><p>The last spring frost usually comes in the middle of May, so tender plants such as tomatoes and courgettes
go outside after that. Harden them off for a week first by leaving them outdoors during the day.</p>
<h2>Autumn</h2><ul><li>Lift dahlias after the first frost</li><li>Mulch the rhubarb crowns</li></ul></article>
<footer>Copyright Example Allotments</footer></body></html>`
const CSV_FILE = 'title,content\nSowing peas,"Sow peas in March, two inches deep."\nHarvesting garlic,Lift garlic when the lower leaves turn yellow.\n'

for (const kind of ['pglite', 'postgres'] as StorageKind[]) {
  describe(`ingestion on ${kind}`, async () => {
    const isAvailable = kind === 'pglite' || (await isPostgresAvailable())
    const resolver = createFakeResolver()
    // The fake resolver reaches the backend's fetcher this way; no test ever asks the real DNS.
    const options: BuildOptions = { ingest: { resolveHost: resolver } }
    let site: FixtureSite
    let server: TestBackend

    beforeAll(async () => {
      if (!isAvailable) return
      site = await startFixtureSite({ slowPageMs: 5000, manyPageDelayMs: 120 })
      server = await startTestBackend(
        kind,
        {
          // Only this backend, whose every fetch targets the fixture site on 127.0.0.1, may fetch private addresses.
          ALLOW_PRIVATE_FETCH: 'true',
          YOUTUBE_TRANSCRIPT_BASE_URL: site.baseUrl,
          CRAWL_PAGE_TIMEOUT_MS: '1500',
          CRAWL_MAX_PAGES: '100',
          MAX_UPLOAD_BYTES: String(200 * 1024),
          // Small, so a DOCX that inflates past it stays small to build.
          MAX_DECOMPRESSED_BYTES: String(1024 * 1024),
          MAX_UPLOAD_FILES: '8',
          UPLOAD_WAIT_MS: '20000',
          // Far below the upload limit: uploads are streamed by the multipart parser, not held to the JSON body limit.
          BODY_LIMIT_BYTES: String(64 * 1024),
        },
        options,
      )
    })
    afterAll(async () => {
      await server?.stop()
      await site?.close()
    })

    describe.skipIf(!isAvailable)('uploads', () => {
      it('turns a PDF, a DOCX, HTML, Markdown, text and CSV into drafts that name their source file', async () => {
        const { status, body } = await uploadFiles(server, [
          { name: 'basil.pdf', bytes: await makeSamplePdf(), type: 'application/pdf' },
          // One bullet more than the PDF: the same title and text would already be in the knowledge base (ADR 311).
          { name: 'basil-care.docx', bytes: await makeSampleDocx({ ...GARDEN_SAMPLE, bullets: [...GARDEN_SAMPLE.bullets, 'Feed it every fortnight in summer'] }) },
          { name: 'frost.html', bytes: HTML_FILE, type: 'text/html' },
          { name: 'seeds.md', bytes: '# Saving seeds\n\n- Dry them for a week\n- Store them in paper envelopes\n' },
          { name: 'watering_notes.txt', bytes: 'Water pots every morning in July.' },
          { name: 'calendar.csv', bytes: CSV_FILE, type: 'text/csv' },
        ])
        expect(status).toBe(200)
        expect(body).toMatchObject({ success: true, kind: 'upload', status: 'finished', progress: 6, total: 6, message: 'Imported 6 of 6 files into 7 drafts' })
        expect(body.files.map((file: any) => [file.file_name, file.status, file.draft_ids.length, file.error])).toEqual([
          ['basil.pdf', 'imported', 1, null],
          ['basil-care.docx', 'imported', 1, null],
          ['frost.html', 'imported', 1, null],
          ['seeds.md', 'imported', 1, null],
          ['watering_notes.txt', 'imported', 1, null],
          ['calendar.csv', 'imported', 2, null],
        ])
        const content = async (draftId: number) => (await server.call(`/admin/get_temp_content?id=${draftId}`)).body
        const pdf = await content(body.files[0].draft_ids[0])
        expect(pdf).toMatchObject({ title: 'Growing basil indoors', metadata: { source: 'basil.pdf', s3_key: body.files[0].s3_key, format: 'pdf' } })
        expect(pdf.content).toContain('## Daily care\n\n- Water when the top of the soil feels dry')
        const docx = await content(body.files[1].draft_ids[0])
        expect(docx).toMatchObject({ title: 'Growing basil indoors', metadata: { source: 'basil-care.docx' } })
        expect(docx.content).toContain('- Turn the pot a quarter turn every day')
        const html = await content(body.files[2].draft_ids[0])
        expect(html.title).toBe('Frost dates')
        expect(html.content).toContain('## Autumn\n\n- Lift dahlias after the first frost')
        expect(html.content).not.toMatch(/Copyright|Shop/)
        expect(await content(body.files[3].draft_ids[0])).toMatchObject({ title: 'Saving seeds', metadata: { source: 'seeds.md' } })
        expect(await content(body.files[4].draft_ids[0])).toMatchObject({ title: 'watering notes', content: 'Water pots every morning in July.' })
        const rows = await Promise.all(body.files[5].draft_ids.map(content))
        expect(rows.map((row: any) => [row.title, row.content, row.metadata.source, row.metadata.row])).toEqual([
          ['Sowing peas', 'Sow peas in March, two inches deep.', 'calendar.csv', 1],
          ['Harvesting garlic', 'Lift garlic when the lower leaves turn yellow.', 'calendar.csv', 2],
        ])
      })

      it('says a CSV has no rows when it has only its header row, and lists all its columns when a named one is missing', async () => {
        const headerOnly = await uploadFiles(server, [{ name: 'faq.csv', bytes: 'question,answer\n', type: 'text/csv' }])
        expect(headerOnly.body.files).toMatchObject([{ file_name: 'faq.csv', status: 'failed', error: expect.stringContaining('The CSV has no rows, only its header row (question, answer)') }])
        const csv = 'question,answer,category\nWhen to sow peas?,In March.,Sowing\n'
        const wrongTitle = await uploadFiles(server, [{ name: 'faq.csv', bytes: csv, type: 'text/csv' }], { csv_title_column: 'nonexistent' })
        expect(wrongTitle.body.files).toMatchObject([
          { file_name: 'faq.csv', status: 'failed', error: expect.stringContaining('The CSV has no "nonexistent" column (its columns: question, answer, category)') },
        ])
      })

      it('keeps the original, downloadable by its s3_key with its content type', async () => {
        const pdfBytes = await makeSamplePdf()
        const { body } = await uploadFiles(server, [
          { name: 'plan.pdf', bytes: pdfBytes },
          { name: 'Café notes.md', bytes: '# Notes\n\nCafé au lait.' },
        ])
        const headers = await adminHeaders(server)
        const pdf = await fetch(`${server.baseUrl}/download?s3_key=${encodeURIComponent(body.files[0].s3_key)}`, { headers })
        expect(pdf.status).toBe(200)
        expect(pdf.headers.get('content-type')).toBe('application/pdf')
        expect(pdf.headers.get('content-disposition')).toContain('filename*=UTF-8\'\'plan.pdf')
        expect(new Uint8Array(await pdf.arrayBuffer())).toEqual(new Uint8Array(pdfBytes))
        const markdown = await fetch(`${server.baseUrl}/download?s3_key=${encodeURIComponent(body.files[1].s3_key)}`, { headers })
        expect(markdown.headers.get('content-type')).toBe('text/markdown; charset=utf-8')
        expect(markdown.headers.get('content-disposition')).toContain("filename*=UTF-8''Caf%C3%A9%20notes.md")
        expect(await markdown.text()).toBe('# Notes\n\nCafé au lait.')
      })

      it('answers 404 with a JSON error for an s3_key it does not know', async () => {
        for (const key of ['uploads/nothing/here.pdf', '../../etc/passwd']) {
          const response = await server.call(`/download?s3_key=${encodeURIComponent(key)}`)
          expect(response.status).toBe(404)
          expect(response.body).toMatchObject({ success: false, error: 'Not Found' })
        }
      })

      it('keeps file names as their owner gave them: a quote the form wrote as %22, and ; = % as they are', async () => {
        const { status, body } = await uploadFiles(server, [
          { name: 'the "best" tulips.md', bytes: '# Tulips\n\nPlant tulip bulbs in autumn, pointed end up.' },
          { name: 'notes; draft a=b 100%.md', bytes: '# Irises\n\nDivide irises every three years after flowering.' },
        ])
        expect(status).toBe(200)
        expect(body.files.map((file: any) => file.file_name)).toEqual(['the "best" tulips.md', 'notes; draft a=b 100%.md'])
      })

      it('lists a corrupt PDF and a corrupt DOCX with their errors while the other files go through', async () => {
        const { status, body } = await uploadFiles(server, [
          { name: 'broken.pdf', bytes: makeCorruptPdf() },
          { name: 'fine.md', bytes: '# Fine\n\nThis one is fine.' },
          { name: 'broken.docx', bytes: await makeCorruptDocx() },
        ])
        expect(status).toBe(200)
        expect(body).toMatchObject({ success: false, status: 'finished', message: 'Imported 1 of 3 files into 1 draft; 2 failed' })
        expect(body.files).toMatchObject([
          { file_name: 'broken.pdf', status: 'failed', draft_ids: [], error: expect.stringMatching(/Not a readable PDF/) },
          { file_name: 'fine.md', status: 'imported', error: null },
          { file_name: 'broken.docx', status: 'failed', draft_ids: [], error: expect.stringMatching(/Not a readable zip archive/) },
        ])
      })

      it('fails a DOCX whose zip lies about its sizes once it inflates past the limit, naming it, while the other files go through', async () => {
        const { status, body } = await uploadFiles(server, [
          { name: 'bomb.docx', bytes: await makeLyingDocx(5 * 1024 * 1024) },
          { name: 'fine.md', bytes: '# Fine\n\nThis one is fine as well.' },
        ])
        expect(status).toBe(200)
        expect(body).toMatchObject({ success: false, status: 'finished', message: 'Imported 1 of 2 files into 1 draft; 1 failed' })
        expect(body.files).toMatchObject([
          { file_name: 'bomb.docx', status: 'failed', draft_ids: [], error: 'bomb.docx: expands past 1 MB when unzipped' },
          { file_name: 'fine.md', status: 'imported', error: null },
        ])
      })

      it('refuses the upload with 413 naming the file larger than the limit, keeping nothing of it', async () => {
        const before = (await listAllDrafts(server)).length
        const { status, body } = await uploadFiles(server, [
          { name: 'small.md', bytes: '# Small\n\nFits.' },
          { name: 'huge-notes.txt', bytes: 'x'.repeat(300 * 1024) },
        ])
        expect(status).toBe(413)
        expect(body).toMatchObject({ success: false, error: 'Payload Too Large', file_name: 'huge-notes.txt' })
        expect(body.message).toBe('huge-notes.txt is larger than the limit of 200 KB')
        expect((await listAllDrafts(server)).length).toBe(before)
      })

      it('accepts files larger than the JSON body limit, up to the upload limit', async () => {
        const { status, body } = await uploadFiles(server, [{ name: 'long-notes.txt', bytes: 'Sow thinly. '.repeat(15_000) }])
        expect(status).toBe(200)
        expect(body.files[0]).toMatchObject({ status: 'imported', size_bytes: 180_000 })
      })

      it('refuses with 415 a file whose content is of an unsupported type, whatever its name says', async () => {
        const { status, body } = await uploadFiles(server, [{ name: 'scan.pdf', bytes: PNG, type: 'application/pdf' }])
        expect(status).toBe(415)
        expect(body).toMatchObject({ success: false, error: 'Unsupported Media Type', file_name: 'scan.pdf' })
        expect(body.message).toMatch(/^scan\.pdf is image\/png/)
      })

      it('refuses more files than the limit at once', async () => {
        const files = Array.from({ length: 9 }, (_, index) => ({ name: `note-${index}.txt`, bytes: `Note ${index}` }))
        const { status, body } = await uploadFiles(server, files)
        expect(status).toBe(413)
        expect(body.message).toBe('At most 8 files can be uploaded at once')
      })

      it('refuses an upload without files, naming the field', async () => {
        const { status, body } = await uploadFiles(server, [], { csv_title_column: 'title' })
        expect(status).toBe(400)
        expect(body.details).toEqual([{ field: 'files', message: 'Choose at least one file to upload' }])
      })

      it.each([
        ['no boundary', 'multipart/form-data', 'hello', /has no boundary parameter/],
        ['an empty boundary', 'multipart/form-data; boundary=', '--\r\nContent-Disposition: form-data; name="files"; filename="a.txt"\r\n\r\nhi\r\n', /has an empty boundary/],
        ['an empty quoted boundary', 'multipart/form-data; boundary=""', '--\r\n\r\n', /has an empty boundary/],
        ['a boundary longer than 70 characters', `multipart/form-data; boundary=${'b'.repeat(71)}`, `--${'b'.repeat(71)}--\r\n`, /longer than 70 characters/],
        [
          'a file without the final boundary',
          'multipart/form-data; boundary=XyZ',
          '--XyZ\r\nContent-Disposition: form-data; name="files"; filename="notes.txt"\r\nContent-Type: text/plain\r\n\r\nSow peas in March.\r\n',
          /malformed .*ends before its final boundary/,
        ],
        ['a field without the final boundary', 'multipart/form-data; boundary=XyZ', '--XyZ\r\nContent-Disposition: form-data; name="csv_title_column"\r\n\r\ntitle\r\n', /malformed .*ends before its final boundary/],
        ['parts under another boundary', 'multipart/form-data; boundary=XyZ', '--Other\r\nContent-Disposition: form-data; name="files"; filename="a.txt"\r\n\r\nhi\r\n--Other--\r\n', /malformed/],
      ])('answers 400 naming the problem for a multipart body with %s, keeping nothing', async (_case, contentType, body, message) => {
        const before = (await listAllDrafts(server)).length
        const [{ count: filesBefore }] = await server.backend.db.query<{ count: number }>(`SELECT COUNT(*)::int AS count FROM stored_files`)
        const response = await fetch(`${server.baseUrl}/admin/upload_recovery`, { method: 'POST', headers: { ...(await adminHeaders(server)), 'content-type': contentType }, body })
        expect(response.status).toBe(400)
        const answer = (await response.json()) as { success: boolean; error: string; message: string }
        expect(answer).toMatchObject({ success: false, error: 'Bad Request' })
        expect(answer.message).toMatch(message)
        expect((await listAllDrafts(server)).length).toBe(before)
        const [{ count: filesAfter }] = await server.backend.db.query<{ count: number }>(`SELECT COUNT(*)::int AS count FROM stored_files`)
        expect(filesAfter).toBe(filesBefore)
      })

      it('refuses a JSON body on the upload route', async () => {
        const response = await server.call('/admin/upload_recovery', { method: 'POST', body: { files: [] } })
        expect(response.status).toBe(415)
      })
    })

    describe.skipIf(!isAvailable)('web crawl', () => {
      it('crawls the fixture site: one draft per page, robots.txt and exclusions honoured, bad pages recorded', async () => {
        const started = await server.call('/admin/crawl', {
          method: 'POST',
          body: { start_url: `${site.baseUrl}/`, max_depth: 2, max_pages: 30, exclude_patterns: ['/drafts/*'] },
        })
        expect(started.status).toBe(200)
        expect(started.body).toMatchObject({ kind: 'crawl', start_url: `${site.baseUrl}/` })
        const done = await waitForIngest(server, started.body.task_id)
        expect(done).toMatchObject({ success: true, status: 'finished' })
        const byPath = new Map<string, any>(done.pages.map((page: any) => [page.url.replace(site.baseUrl, ''), page]))
        const withStatus = (status: string) => [...byPath.entries()].filter(([, page]) => page.status === status).map(([path]) => path).sort()

        expect(withStatus('imported')).toEqual(['/', '/guide/composting', '/guide/deep', '/guide/pruning', '/guide/soil', '/guide/watering'])
        expect(byPath.get('/old-soil')).toMatchObject({ status: 'visited', redirected_to: `${site.baseUrl}/guide/soil` })
        expect(byPath.get('/private/secret')).toMatchObject({ status: 'excluded', reason: 'disallowed by robots.txt' })
        expect(byPath.get('/drafts/unfinished')).toMatchObject({ status: 'excluded', reason: 'matches the exclusion pattern "/drafts/*"' })
        expect(byPath.get('https://example.org/elsewhere')).toMatchObject({ status: 'excluded', reason: 'on another site' })
        expect(byPath.get('/loop-a')).toMatchObject({ status: 'failed', reason: expect.stringMatching(/^Redirect loop: /) })
        expect(byPath.get('/broken')).toMatchObject({ status: 'failed', reason: 'HTTP 500' })
        expect(byPath.get('/slow')).toMatchObject({ status: 'failed', reason: expect.stringMatching(/within 1500 ms/) })
        // Three links away: beyond max_depth, never met.
        expect(byPath.has('/guide/deeper')).toBe(false)
        // Robots and exclusions keep pages from being fetched at all; a page linked many times is fetched once.
        expect(site.requests).not.toContain('/private/secret')
        expect(site.requests).not.toContain('/drafts/unfinished')
        expect(site.requests.filter((path) => path === '/guide/watering')).toHaveLength(1)

        const watering = await server.call(`/admin/get_temp_content?id=${byPath.get('/guide/watering').draft_id}`)
        expect(watering.body).toMatchObject({ title: 'Watering tomatoes', metadata: { source: `${site.baseUrl}/guide/watering`, crawl_task_id: started.body.task_id } })
        expect(watering.body.content).toContain('Tomato plants need deep watering twice a week.')
        expect(watering.body.content).not.toMatch(/Copyright|Newsletter|Menu \//)

        const lists = await ingestRepository.botInfoLists(server.backend.db)
        expect(lists.visited_urls).toEqual(expect.arrayContaining([`${site.baseUrl}/`, `${site.baseUrl}/guide/soil`, `${site.baseUrl}/old-soil`]))
        expect(lists.excluded_links).toEqual(expect.arrayContaining([`${site.baseUrl}/private/secret`, `${site.baseUrl}/drafts/unfinished`, 'https://example.org/elsewhere']))
        expect(lists.errored_urls).toEqual(expect.arrayContaining([`${site.baseUrl}/loop-a`, `${site.baseUrl}/broken`, `${site.baseUrl}/slow`]))

        // Bot info (GET /admin/bot_info) shows the same lists with their lengths.
        const info = await server.call('/admin/bot_info')
        expect(info.body.visited_urls).toEqual(expect.arrayContaining([`${site.baseUrl}/guide/soil`]))
        expect(info.body.errored_urls_length).toBe(info.body.errored_urls.length)
        expect(info.body.errored_urls_length).toBeGreaterThanOrEqual(3)
      })

      it('tells apart the drafts of a site whose pages share one <title>: by their headings, else by their addresses', async () => {
        const started = await server.call('/admin/crawl', { method: 'POST', body: { start_url: `${site.baseUrl}/one-title/`, max_depth: 1, max_pages: 10 } })
        const done = await waitForIngest(server, started.body.task_id)
        const imported = done.pages.filter((page: any) => page.status === 'imported')
        expect(imported).toHaveLength(5)
        const titleOf = async (page: any) => (await server.call(`/admin/get_temp_content?id=${page.draft_id}`)).body.title as string
        const titles = new Map<string, string>()
        for (const page of imported) titles.set(page.url.replace(site.baseUrl, ''), await titleOf(page))
        // The first page keeps the site's title; each later one is named by its heading.
        expect(titles.get('/one-title/')).toBe('Acme Help')
        expect(titles.get('/one-title/reset')).toBe('Resetting your password')
        expect(titles.get('/one-title/plain')).toBe('Acme Help (/one-title/plain)')
        // Two pages with one heading: the second is named by its address.
        expect([titles.get('/one-title/billing'), titles.get('/one-title/card')].sort()).toEqual(
          expect.arrayContaining(['Paying by card', expect.stringMatching(/^Acme Help \(\/one-title\/(billing|card)\)$/)]),
        )
        expect(new Set(titles.values()).size).toBe(5)
      })

      it('stops at max_pages and marks what it did not reach as skipped', async () => {
        // Pages already in the knowledge base would make no draft.
        await forgetDrafts(server)
        const started = await server.call('/admin/crawl', { method: 'POST', body: { start_url: `${site.baseUrl}/guide/watering`, max_depth: 3, max_pages: 2 } })
        const done = await waitForIngest(server, started.body.task_id)
        expect(done.progress).toBe(2)
        expect(done.pages.filter((page: any) => page.status === 'imported')).toHaveLength(2)
        expect(done.pages.filter((page: any) => page.status === 'skipped').length).toBeGreaterThan(0)
        expect(done.pages.find((page: any) => page.status === 'skipped').reason).toBe('Not reached: the crawl stopped at its limit of 2 pages')
      })

      it('stops a crawl on request: the drafts saved so far stay, the pages not reached say so, and a second stop is refused', async () => {
        const started = await server.call('/admin/crawl', { method: 'POST', body: { start_url: `${site.baseUrl}/many/`, max_depth: 1, max_pages: 50 } })
        const taskId = started.body.task_id
        const imported = (body: any) => body.pages.filter((page: any) => page.status === 'imported')
        await waitForIngest(server, taskId, (body) => imported(body).length >= 2)

        const stopped = await server.call(`/admin/ingest_jobs/${taskId}/stop`, { method: 'POST' })
        expect(stopped.status).toBe(200)
        expect(stopped.body).toMatchObject({ success: true, status: 'cancelled', kind: 'crawl' })
        // The site's menu pages, crawled before, are already in the knowledge base.
        expect(stopped.body.message).toMatch(/^Stopped after \d+ pages?: \d+ drafts?(, \d+ already in the knowledge base)?, 0 failed, \d+ excluded$/)
        expect(stopped.body.pages.filter((page: any) => page.status === 'pending')).toEqual([])
        expect(stopped.body.pages.find((page: any) => page.status === 'skipped')).toMatchObject({ reason: 'Not reached: the crawl was stopped' })

        // Nothing more is fetched or saved once the page being read when it stopped is settled.
        await new Promise((resolve) => setTimeout(resolve, 1000))
        const later = await server.call(`/admin/ingest_jobs/${taskId}`)
        expect(later.body.status).toBe('cancelled')
        expect(imported(later.body).map((page: any) => page.url)).toEqual(imported(stopped.body).map((page: any) => page.url))
        const drafts = (await listAllDrafts(server)).filter((draft) => draft.metadata.crawl_task_id === taskId)
        expect(drafts.map((draft) => draft.metadata.source).sort()).toEqual(imported(later.body).map((page: any) => page.url).sort())
        expect(drafts.length).toBeGreaterThanOrEqual(2)
        expect(drafts.length).toBeLessThan(MANY_PAGE_COUNT)

        const again = await server.call(`/admin/ingest_jobs/${taskId}/stop`, { method: 'POST' })
        expect(again.status).toBe(409)
        expect(again.body.message).toBe('The crawl has already ended (stopped)')
        const unknown = await server.call('/admin/ingest_jobs/00000000-0000-0000-0000-000000000000/stop', { method: 'POST' })
        expect(unknown.status).toBe(404)
        const user = await server.createUser('user')
        expect((await server.call(`/admin/ingest_jobs/${taskId}/stop`, { method: 'POST', as: user })).status).toBe(403)
      })

      it('saves no page once its job is no longer its worker’s, even with pages left to fetch', async () => {
        await forgetDrafts(server)
        const started = await server.call('/admin/crawl', { method: 'POST', body: { start_url: `${site.baseUrl}/many/`, max_depth: 1, max_pages: 50 } })
        const taskId = started.body.task_id
        const imported = (body: any) => body.pages.filter((page: any) => page.status === 'imported')
        await waitForIngest(server, taskId, (body) => imported(body).length >= 2)
        // The job alone, its pages left pending: what a stop does when a page's links commit just after its pages were marked.
        await server.backend.jobs.cancel(taskId)
        const atCancel = imported((await server.call(`/admin/ingest_jobs/${taskId}`)).body).length
        await new Promise((resolve) => setTimeout(resolve, 1500))
        const later = await server.call(`/admin/ingest_jobs/${taskId}`)
        expect(later.body.status).toBe('cancelled')
        // At most the page whose transaction committed before the cancel was seen.
        expect(imported(later.body).length).toBeLessThanOrEqual(atCancel + 1)
        expect(later.body.pages.filter((page: any) => page.status === 'pending').length).toBeGreaterThan(0)
        const drafts = (await listAllDrafts(server)).filter((draft) => draft.metadata.crawl_task_id === taskId)
        expect(drafts).toHaveLength(imported(later.body).length)
      })

      it('refuses to stop a crawl that has ended, or an upload', async () => {
        const crawl = await server.call('/admin/crawl', { method: 'POST', body: { start_url: `${site.baseUrl}/guide/watering`, max_depth: 0, max_pages: 1 } })
        await waitForIngest(server, crawl.body.task_id)
        const finished = await server.call(`/admin/ingest_jobs/${crawl.body.task_id}/stop`, { method: 'POST' })
        expect(finished.status).toBe(409)
        expect(finished.body.message).toBe('The crawl has already ended (finished)')
        const upload = await uploadFiles(server, [{ name: 'peas.csv', bytes: CSV_FILE, type: 'text/csv' }])
        const refused = await server.call(`/admin/ingest_jobs/${upload.body.task_id}/stop`, { method: 'POST' })
        expect(refused.status).toBe(409)
        expect(refused.body.message).toBe('Only a crawl can be stopped; an upload ends once its files are read')
      })

      it('crawls the site the start address lands on after its redirects', async () => {
        await forgetDrafts(server)
        const started = await server.call('/admin/crawl', { method: 'POST', body: { start_url: `${site.baseUrl}/moved`, max_depth: 1, max_pages: 5 } })
        const moved = `http://localhost:${site.port}`
        expect(started.body.start_url).toBe(`${moved}/guide/soil`)
        const done = await waitForIngest(server, started.body.task_id)
        const imported = done.pages.filter((page: any) => page.status === 'imported').map((page: any) => page.url)
        expect(imported).toEqual(expect.arrayContaining([`${moved}/guide/soil`, `${moved}/`, `${moved}/guide/watering`]))
        expect(imported.every((url: string) => url.startsWith(`${moved}/`))).toBe(true)
      })

      it('refuses a start address that cannot be fetched, saying why', async () => {
        const broken = await server.call('/admin/crawl', { method: 'POST', body: { start_url: `${site.baseUrl}/broken` } })
        expect(broken.status).toBe(400)
        expect(broken.body.details).toEqual([{ field: 'start_url', message: 'The start address could not be fetched: it answered HTTP 500' }])
        const unknown = await server.call('/admin/crawl', { method: 'POST', body: { start_url: 'http://nowhere.test/' } })
        expect(unknown.body.details[0].message).toMatch(/Could not resolve nowhere\.test: ENOTFOUND/)
      })

      it('refuses a crawl larger than the configured limit, naming the field', async () => {
        const response = await server.call('/admin/crawl', { method: 'POST', body: { start_url: `${site.baseUrl}/`, max_pages: 101 } })
        expect(response.status).toBe(400)
        expect(response.body.details).toEqual([{ field: 'max_pages', message: 'max_pages is at most 100' }])
      })

      it('judges long links against a pattern of many asterisks and finishes the crawl', async () => {
        const pattern = `*/${'a*'.repeat(9)}Z`
        const started = await server.call('/admin/crawl', { method: 'POST', body: { start_url: `${site.baseUrl}/long-link`, max_depth: 1, max_pages: 3, exclude_patterns: [pattern] } })
        expect(started.status).toBe(200)
        const done = await waitForIngest(server, started.body.task_id)
        expect(done.status).toBe('finished')
        const byUrl = new Map<string, any>(done.pages.map((page: any) => [page.url, page]))
        expect(byUrl.get(`${site.baseUrl}${LONG_LINK_PATH}`).status).not.toBe('excluded')
        expect(byUrl.get(`${site.baseUrl}${LONG_LINK_PATH}Z`)).toMatchObject({ status: 'excluded', reason: `matches the exclusion pattern "${pattern}"` })
      })

      it('refuses an exclusion pattern of more than 10 asterisks, naming it', async () => {
        const body = { start_url: `${site.baseUrl}/`, exclude_patterns: ['/drafts/*', `*/${'a*'.repeat(20)}Z`] }
        const response = await server.call('/admin/crawl', { method: 'POST', body })
        expect(response.status).toBe(400)
        expect(response.body.details).toEqual([{ field: 'exclude_patterns.1', message: 'A pattern may hold at most 10 asterisks' }])
        const tenStars = await server.call('/admin/crawl', { method: 'POST', body: { ...body, max_depth: 0, max_pages: 1, exclude_patterns: [`*/${'a*'.repeat(9)}Z`] } })
        expect(tenStars.status).toBe(200)
        await waitForIngest(server, tenStars.body.task_id)
      })

      it('refuses a start URL that is not http(s)', async () => {
        const response = await server.call('/admin/crawl', { method: 'POST', body: { start_url: 'file:///etc/passwd' } })
        expect(response.status).toBe(400)
        expect(response.body.details[0].field).toBe('start_url')
      })

      it('publishes the ingestion calls in the OpenAPI document', async () => {
        const { body } = await server.call('/docs/json')
        expect(Object.keys(body.paths)).toEqual(
          expect.arrayContaining(['/admin/upload_recovery', '/admin/crawl', '/admin/ingest_jobs/{task_id}', '/admin/ingest_jobs/{task_id}/stop', '/admin/inject_youtube', '/admin/ingest_limits', '/download']),
        )
      })

      it('answers an unknown task with 404 and status not found', async () => {
        const response = await server.call('/admin/ingest_jobs/00000000-0000-0000-0000-000000000000')
        expect(response.status).toBe(404)
        expect(response.body).toMatchObject({ success: false, status: 'not found' })
      })
    })

    describe.skipIf(!isAvailable)('YouTube transcripts', () => {
      it('turns a video transcript into a draft with the video URL as its source, recorded in tube_urls', async () => {
        const response = await server.call('/admin/inject_youtube', { method: 'POST', body: { url: `https://youtu.be/${FIXTURE_VIDEO_ID}?si=share` } })
        const url = `https://www.youtube.com/watch?v=${FIXTURE_VIDEO_ID}`
        expect(response.status).toBe(200)
        expect(response.body).toMatchObject({ success: true, message: 'Transcript saved as a draft', title: FIXTURE_VIDEO_TITLE, url, duplicate_of: null })
        const draft = await server.call(`/admin/get_temp_content?id=${response.body.id}`)
        expect(draft.body).toMatchObject({ title: FIXTURE_VIDEO_TITLE, metadata: { source: url, video_id: FIXTURE_VIDEO_ID } })
        expect(draft.body.content).toBe(
          '[0:00] Welcome back to the garden. Today we talk about watering tomatoes & keeping them healthy. Water deeply twice a week, at the base of the plant.\n\n' +
            "[1:05] Don't wet the leaves: that invites blight. Mulch keeps the roots cool in summer.",
        )
        expect((await ingestRepository.botInfoLists(server.backend.db)).tube_urls).toContain(url)
      })

      it('answers 404 for a video without a transcript', async () => {
        const response = await server.call('/admin/inject_youtube', { method: 'POST', body: { url: 'https://www.youtube.com/watch?v=noSubtitles' } })
        expect(response.status).toBe(404)
        expect(response.body).toMatchObject({ success: false, message: 'The video noSubtitles has no en transcript' })
      })

      it('refuses an address that is not a YouTube video, naming the field', async () => {
        const response = await server.call('/admin/inject_youtube', { method: 'POST', body: { url: 'https://vimeo.com/1234' } })
        expect(response.status).toBe(400)
        expect(response.body.details[0].field).toBe('url')
      })
    })

    describe.skipIf(!isAvailable)('documents already in the knowledge base', () => {
      const onlyDuplicate = (file: any) => file.duplicates.map((duplicate: any) => duplicate.duplicate_of)

      it('makes no draft for a file uploaded a second time, naming the draft it matches, and imports one that differs', async () => {
        const markdown = '# Supporting peas\n\nGive climbing peas twiggy sticks or netting as soon as they are 10 cm tall.\n'
        const first = await uploadFiles(server, [{ name: 'pea-supports.md', bytes: markdown }])
        expect(first.body).toMatchObject({ message: 'Imported 1 of 1 files into 1 draft' })
        expect(first.body.files[0]).toMatchObject({ status: 'imported', duplicates: [] })
        const [draftId] = first.body.files[0].draft_ids
        const draftCount = (await listAllDrafts(server)).length

        const again = await uploadFiles(server, [{ name: 'pea-supports.md', bytes: markdown }])
        expect(again.status).toBe(200)
        expect(again.body).toMatchObject({ success: true, status: 'finished', message: 'Imported 1 of 1 files into 0 drafts; 1 document was already in the knowledge base' })
        expect(again.body.files).toEqual([
          expect.objectContaining({
            file_name: 'pea-supports.md',
            status: 'imported',
            draft_ids: [],
            error: null,
            duplicates: [{ row: null, duplicate_of: { kind: 'draft', id: draftId, title: 'Supporting peas' } }],
          }),
        ])
        // Only its white space differs (line ends, spaces, lines wrapped otherwise): the same document.
        const rewrapped = await uploadFiles(server, [
          { name: 'peas.md', bytes: '  # Supporting peas\r\n\r\nGive climbing peas  twiggy sticks or netting\r\nas soon as they are 10 cm tall.   \r\n\r\n' },
        ])
        expect(onlyDuplicate(rewrapped.body.files[0])).toEqual([{ kind: 'draft', id: draftId, title: 'Supporting peas' }])
        expect((await listAllDrafts(server)).length).toBe(draftCount)

        // A letter of the title or one word of the text is another document: imported as before.
        const others = await uploadFiles(server, [
          { name: 'capital.md', bytes: markdown.replace('Supporting peas', 'Supporting Peas') },
          { name: 'taller.md', bytes: markdown.replace('10 cm', '15 cm') },
        ])
        expect(others.body).toMatchObject({ message: 'Imported 2 of 2 files into 2 drafts' })
        expect(others.body.files.map((file: any) => [file.draft_ids.length, file.duplicates])).toEqual([
          [1, []],
          [1, []],
        ])
        expect((await listAllDrafts(server)).length).toBe(draftCount + 2)
      })

      it('imports only the changed row of a CSV uploaded again, saying which rows were already there', async () => {
        const rows = [
          ['Sowing broad beans', 'Sow broad beans in November for an early crop.'],
          ['Earthing up potatoes', 'Draw soil over the shoots when they reach 20 cm.'],
          ['Thinning carrots', 'Thin carrots on a still evening so that the smell does not draw the carrot fly.'],
        ]
        const csv = (table: string[][]) => `title,content\n${table.map((row) => row.map((cell) => `"${cell}"`).join(',')).join('\n')}\n`
        const first = await uploadFiles(server, [{ name: 'jobs.csv', bytes: csv(rows), type: 'text/csv' }])
        const firstIds: number[] = first.body.files[0].draft_ids
        expect(firstIds).toHaveLength(3)

        const changed = rows.map((row) => [...row])
        changed[1][1] = 'Draw soil over the shoots when they reach 15 cm.'
        const again = await uploadFiles(server, [{ name: 'jobs.csv', bytes: csv(changed), type: 'text/csv' }])
        expect(again.body).toMatchObject({ success: true, message: 'Imported 1 of 1 files into 1 draft; 2 documents were already in the knowledge base' })
        const [file] = again.body.files
        expect(file).toMatchObject({ status: 'imported', error: null })
        expect(file.duplicates).toEqual([
          { row: 1, duplicate_of: { kind: 'draft', id: firstIds[0], title: 'Sowing broad beans' } },
          { row: 3, duplicate_of: { kind: 'draft', id: firstIds[2], title: 'Thinning carrots' } },
        ])
        expect(file.draft_ids).toHaveLength(1)
        const draft = (await server.call(`/admin/get_temp_content?id=${file.draft_ids[0]}`)).body
        expect(draft).toMatchObject({ title: 'Earthing up potatoes', content: 'Draw soil over the shoots when they reach 15 cm.', metadata: { source: 'jobs.csv', row: 2 } })
      })

      it('makes one draft of a row repeated in one CSV', async () => {
        const row = '"Netting brassicas","Net cabbages against pigeons and cabbage white butterflies."'
        const { body } = await uploadFiles(server, [{ name: 'twice.csv', bytes: `title,content\n${row}\n${row}\n`, type: 'text/csv' }])
        const [file] = body.files
        expect(file.draft_ids).toHaveLength(1)
        expect(file.duplicates).toEqual([{ row: 2, duplicate_of: { kind: 'draft', id: file.draft_ids[0], title: 'Netting brassicas' } }])
      })

      it('makes no draft for a document identical to a published article, naming the article before any draft', async () => {
        const markdown = '# Storing onions\n\nDry onions in the sun for a week, then hang them in nets somewhere cool and airy.\n'
        const first = await uploadFiles(server, [{ name: 'onions.md', bytes: markdown }])
        const started = await server.call('/admin/do_embeddings', { method: 'POST', body: { ids: first.body.files[0].draft_ids } })
        const published = await waitForPublish(server, started.body.task_id)
        expect(published.status).toBe('finished')
        const articleId = published.published[0].article_id
        const article = (await server.call(`/admin/get_content?id=${articleId}`)).body
        // A draft written by hand with the same text: the published article is the one named.
        await server.call('/admin/inject_article', { method: 'POST', body: { title: article.title, content: article.content } })

        const again = await uploadFiles(server, [{ name: 'onions.md', bytes: markdown }])
        expect(again.body).toMatchObject({ message: 'Imported 1 of 1 files into 0 drafts; 1 document was already in the knowledge base' })
        expect(again.body.files[0]).toMatchObject({ draft_ids: [], duplicates: [{ row: null, duplicate_of: { kind: 'article', id: articleId, title: 'Storing onions' } }] })
      })

      it('makes no draft for a page met again when the site is crawled a second time, naming the draft it matches', async () => {
        await forgetDrafts(server)
        const crawl = async () => {
          const started = await server.call('/admin/crawl', {
            method: 'POST',
            body: { start_url: `${site.baseUrl}/`, max_depth: 2, max_pages: 30, exclude_patterns: ['/drafts/*'] },
          })
          return waitForIngest(server, started.body.task_id)
        }
        const first = await crawl()
        const imported = first.pages.filter((page: any) => page.status === 'imported')
        expect(imported).toHaveLength(6)
        const titles = new Map<number, string>()
        for (const page of imported) titles.set(page.draft_id, (await server.call(`/admin/get_temp_content?id=${page.draft_id}`)).body.title)
        const draftCount = (await listAllDrafts(server)).length

        const second = await crawl()
        expect(second.status).toBe('finished')
        expect(second.message).toMatch(/^Crawled \d+ pages: 0 drafts, 6 already in the knowledge base, \d+ failed, \d+ excluded$/)
        const byUrl = new Map<string, any>(second.pages.map((page: any) => [page.url, page]))
        for (const page of imported) {
          const title = titles.get(page.draft_id)
          expect(byUrl.get(page.url)).toMatchObject({
            status: 'visited',
            draft_id: null,
            duplicate_of: { kind: 'draft', id: page.draft_id, title },
            reason: `Already in the knowledge base: draft ${page.draft_id} "${title}"`,
          })
        }
        expect(second.pages.filter((page: any) => page.status === 'imported')).toEqual([])
        expect((await listAllDrafts(server)).length).toBe(draftCount)
        // Pages that made no draft for another reason say so as before.
        expect(byUrl.get(`${site.baseUrl}/old-soil`)).toMatchObject({ status: 'visited', reason: 'Redirect', duplicate_of: null })
      })

      it('makes no draft for a video imported a second time, naming the draft, then the article, it is the same as', async () => {
        const video = fixtureVideo('twice')
        const importVideo = (url: string) => server.call('/admin/inject_youtube', { method: 'POST', body: { url } })
        const videoDrafts = async () => (await listAllDrafts(server)).filter((draft) => draft.metadata.video_id === video.id)
        const first = await importVideo(`https://www.youtube.com/watch?v=${video.id}`)
        expect(first.body).toMatchObject({ message: 'Transcript saved as a draft', title: video.title, duplicate_of: null })
        const draftId = first.body.id

        // Given another way, the same video: its transcript is there already.
        const again = await importVideo(`https://youtu.be/${video.id}`)
        expect(again.status).toBe(200)
        expect(again.body).toEqual({
          success: true,
          message: `Already in the knowledge base: draft ${draftId} "${video.title}"`,
          id: draftId,
          title: video.title,
          url: `https://www.youtube.com/watch?v=${video.id}`,
          duplicate_of: { kind: 'draft', id: draftId, title: video.title },
        })
        expect((await videoDrafts()).map((draft) => draft.id)).toEqual([draftId])

        const started = await server.call('/admin/do_embeddings', { method: 'POST', body: { ids: [draftId] } })
        const articleId = (await waitForPublish(server, started.body.task_id)).published[0].article_id
        const afterPublishing = await importVideo(`https://www.youtube.com/shorts/${video.id}`)
        expect(afterPublishing.body).toMatchObject({
          message: `Already in the knowledge base: article ${articleId} "${video.title}"`,
          id: articleId,
          duplicate_of: { kind: 'article', id: articleId, title: video.title },
        })
        expect(await videoDrafts()).toEqual([])
      })

      it('makes one draft of a video imported several times at once, the others naming it', async () => {
        const video = fixtureVideo('together')
        const answers = await Promise.all(
          Array.from({ length: 4 }, () => server.call('/admin/inject_youtube', { method: 'POST', body: { url: `https://www.youtube.com/watch?v=${video.id}` } })),
        )
        expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200])
        const made = answers.filter((answer) => answer.body.duplicate_of === null)
        expect(made).toHaveLength(1)
        const draftId = made[0].body.id
        for (const answer of answers.filter((answer) => answer !== made[0])) {
          expect(answer.body).toMatchObject({ id: draftId, duplicate_of: { kind: 'draft', id: draftId, title: video.title } })
        }
        expect((await listAllDrafts(server)).filter((draft) => draft.metadata.video_id === video.id).map((draft) => draft.id)).toEqual([draftId])
      })

      it('knows again the pages of a site whose pages share one <title>, though a second crawl would name them otherwise', async () => {
        await forgetDrafts(server)
        const crawl = async () => {
          const started = await server.call('/admin/crawl', { method: 'POST', body: { start_url: `${site.baseUrl}/one-title/`, max_depth: 1, max_pages: 10 } })
          return waitForIngest(server, started.body.task_id)
        }
        const first = await crawl()
        const draftIds = first.pages.filter((page: any) => page.status === 'imported').map((page: any) => page.draft_id)
        expect(draftIds).toHaveLength(5)
        // The first page is already there this time, so the second would take the site's title: it is known by its heading.
        const second = await crawl()
        expect(second.pages.filter((page: any) => page.status === 'imported')).toEqual([])
        expect(second.pages.map((page: any) => page.duplicate_of?.id).sort()).toEqual(draftIds.sort())
      })
    })

    // Last: it replaces the backend with a restarted one.
    describe.skipIf(!isAvailable)('restart', () => {
      it('fails a crawl past its time budget, or whose every attempt ended with its backend, at once and for good', async () => {
        // Recorded without a worker, so that their history can be written before any attempt.
        server = await server.restart({ RUN_WORKER: 'false' })
        const body = { start_url: `${site.baseUrl}/guide/watering`, max_depth: 1, max_pages: 5 }
        const late = (await server.call('/admin/crawl', { method: 'POST', body })).body.task_id
        const crashing = (await server.call('/admin/crawl', { method: 'POST', body })).body.task_id
        await server.backend.db.query(`UPDATE jobs SET created_at = now() - interval '121 minutes' WHERE id = $1`, [late])
        await server.backend.db.query(`UPDATE jobs SET attempts = max_attempts WHERE id = $1`, [crashing])
        server = await server.restart({ RUN_WORKER: 'true' })

        const lateDone = await waitForIngest(server, late)
        expect(lateDone).toMatchObject({ status: 'failed', success: false, message: 'The crawl failed: it took longer than 120 minutes and was stopped' })
        expect(lateDone.pages).toEqual([
          expect.objectContaining({ url: body.start_url, status: 'skipped', reason: 'Not reached: the crawl took longer than 120 minutes and was stopped' }),
        ])
        const crashingDone = await waitForIngest(server, crashing)
        expect(crashingDone).toMatchObject({ status: 'failed', message: 'The crawl failed: it did not finish in 10 attempts and was not tried again' })
        expect(crashingDone.pages.map((page: any) => page.status)).toEqual(['skipped'])
        // Failed for good: not queued for another attempt.
        expect(await server.backend.jobs.get(late)).toMatchObject({ status: 'failed', attempts: 1 })
      })

      it('resumes a crawl stopped mid-way by a restart: no page lost, none stored twice', async () => {
        await forgetDrafts(server)
        const started = await server.call('/admin/crawl', { method: 'POST', body: { start_url: `${site.baseUrl}/many/`, max_depth: 1, max_pages: 50 } })
        const taskId = started.body.task_id
        // The seed catalogue, its pages, and the three pages of the site menu every page carries.
        const expected = ['/many/', ...Array.from({ length: MANY_PAGE_COUNT }, (_, index) => `/many/${index + 1}`), '/', '/guide/watering', '/guide/pruning']
          .map((path) => `${site.baseUrl}${path}`)
          .sort()
        const imported = (body: any) => body.pages.filter((page: any) => page.status === 'imported').length
        const before = await waitForIngest(server, taskId, (body) => imported(body) >= 3)
        server = await server.restart()
        const interrupted = await server.call(`/admin/ingest_jobs/${taskId}`)
        expect(imported(interrupted.body)).toBeGreaterThanOrEqual(imported(before))
        expect(imported(interrupted.body)).toBeLessThan(expected.length)

        const done = await waitForIngest(server, taskId)
        expect(done).toMatchObject({ status: 'finished', progress: expected.length })
        expect(done.pages.filter((page: any) => page.status === 'imported').map((page: any) => page.url).sort()).toEqual(expected)
        const sources = (await listAllDrafts(server)).filter((draft) => draft.metadata.crawl_task_id === taskId).map((draft) => draft.metadata.source)
        expect(sources.sort()).toEqual(expected)
      })
    })
  })

  describe(`SSRF refusals through the API on ${kind}`, async () => {
    const isAvailable = kind === 'pglite' || (await isPostgresAvailable())
    const resolver = createFakeResolver()
    const options: BuildOptions = { ingest: { resolveHost: resolver } }
    let site: FixtureSite
    let server: TestBackend

    beforeAll(async () => {
      if (!isAvailable) return
      site = await startFixtureSite()
      // The default policy, with one exemption: the fixture site itself, so its redirects can be tested.
      server = await startTestBackend(kind, { FETCH_ALLOW_HOSTS: `127.0.0.1:${site.port}`, YOUTUBE_TRANSCRIPT_BASE_URL: 'http://127.0.0.1:1/' }, options)
    })
    afterAll(async () => {
      await server?.stop()
      await site?.close()
    })

    describe.skipIf(!isAvailable)('SSRF guard', () => {
      it.each([
        ['http://intranet.test/wiki', /intranet\.test resolves to 10\.1\.2\.3, a private address/],
        ['http://localhost:8080/', /localhost resolves to 127\.0\.0\.1, a loopback address/],
        ['http://loopback6.test/', /resolves to ::1, a loopback address/],
        ['http://metadata.test/', /169\.254\.169\.254, a link-local address/],
        ['http://10.0.0.7/', /10\.0\.0\.7 is a private address/],
        ['http://169.254.169.254/latest/meta-data/', /link-local/],
        ['http://[::1]:3001/', /::1 is a loopback address/],
        ['http://[fe80::1]/', /link-local/],
      ])('refuses to crawl %s', async (startUrl, message) => {
        const response = await server.call('/admin/crawl', { method: 'POST', body: { start_url: startUrl } })
        expect(response.status).toBe(400)
        expect(response.body.details).toEqual([{ field: 'start_url', message: expect.stringMatching(message) }])
      })

      it('refuses redirects into private ranges during a crawl, and records them as errors', async () => {
        const started = await server.call('/admin/crawl', { method: 'POST', body: { start_url: `${site.baseUrl}/ssrf/`, max_depth: 1, max_pages: 10 } })
        expect(started.status).toBe(200)
        const done = await waitForIngest(server, started.body.task_id)
        const reasonOf = (path: string) => done.pages.find((page: any) => page.url === `${site.baseUrl}${path}`)?.reason
        expect(reasonOf('/ssrf/to-metadata')).toMatch(/Refused to fetch http:\/\/169\.254\.169\.254: 169\.254\.169\.254 is a link-local address/)
        expect(reasonOf('/ssrf/to-loopback')).toMatch(/127\.0\.0\.1 is a loopback address/)
        expect(reasonOf('/ssrf/to-ipv6-loopback')).toMatch(/::1 is a loopback address/)
        expect(reasonOf('/ssrf/to-private-name')).toMatch(/intranet\.test resolves to 10\.1\.2\.3/)
        expect(done.pages.filter((page: any) => page.status === 'failed')).toHaveLength(4)
      })

      it('refuses a transcript service on a private address', async () => {
        const response = await server.call('/admin/inject_youtube', { method: 'POST', body: { url: `https://youtu.be/${FIXTURE_VIDEO_ID}` } })
        expect(response.status).toBe(502)
        expect(response.body.message).toMatch(/Refused to fetch http:\/\/127\.0\.0\.1:1: 127\.0\.0\.1 is a loopback address/)
      })

      it('asked the fake resolver only, never the real DNS', () => {
        expect(resolver.lookups.length).toBeGreaterThan(0)
        expect(resolver.lookups.every((name) => name.endsWith('.test') || name === 'localhost')).toBe(true)
      })
    })
  })
}
