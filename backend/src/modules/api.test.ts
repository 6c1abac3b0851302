import { fileURLToPath } from 'node:url'
import { parse } from 'csv-parse/sync'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { isPostgresAvailable, publishArticles, startTestBackend, waitForPublish, type StorageKind, type TestBackend } from '../testing/test-backend'

const GUIDE = [
  {
    title: 'Watering tomato plants',
    content:
      '# Watering tomato plants\n\nTomato plants need deep watering twice a week. Water the soil, not the leaves, to prevent blight.\n\nIn hot weather, mulch keeps the roots cool and moist.',
  },
  {
    title: 'Pruning apple trees',
    content: 'Prune apple trees in late winter while they are dormant. Remove crossing branches and open the centre to light.',
  },
  {
    title: 'Composting kitchen scraps',
    content: 'A compost heap turns kitchen scraps into soil. Mix green waste with brown leaves and turn the heap every fortnight.',
  },
]

for (const kind of ['pglite', 'postgres'] as StorageKind[]) {
  describe(`backend API on ${kind}`, async () => {
    const isAvailable = kind === 'pglite' || (await isPostgresAvailable())
    let server: TestBackend

    beforeAll(async () => {
      if (isAvailable) server = await startTestBackend(kind)
    })
    afterAll(async () => {
      await server?.stop()
    })

    describe.skipIf(!isAvailable)('API key', () => {
      it('answers health checks without a key', async () => {
        const response = await server.call('/healthz', { headers: { apikey: '' } })
        expect(response.status).toBe(200)
        expect(response.body).toEqual({
          status: 'ok',
          database: kind,
          worker: { enabled: true, running_jobs: expect.any(Number) },
          index: {
            chunks: expect.any(Number),
            checksum: expect.stringMatching(/^[0-9a-f]{16}$/),
            seq: expect.any(Number),
            // A first start: no snapshot to load, and none written while the log is empty.
            load: { source: 'rebuild', reason: 'no snapshot yet', milliseconds: expect.any(Number) },
            snapshot: null,
          },
        })
      })

      it('refuses a call without the apikey with a JSON error', async () => {
        const response = await server.call('/admin/get_articles', { headers: { apikey: '' } })
        expect(response.status).toBe(401)
        expect(response.body).toMatchObject({ success: false, error: 'Unauthorized' })
        expect(response.body.message).toMatch(/apikey/)
      })

      it('refuses a wrong apikey', async () => {
        const response = await server.call('/admin/get_articles', { headers: { apikey: 'wrong-key-wrong-key' } })
        expect(response.status).toBe(401)
        expect(response.body.message).toMatch(/not valid/)
      })

      it('accepts the apikey as a query parameter', async () => {
        const response = await server.call(`/admin/get_articles?apikey=${server.config.API_KEY}`, { headers: { apikey: '' } })
        expect(response.status).toBe(200)
      })

      it('publishes an OpenAPI document at /docs', async () => {
        const response = await server.call('/docs/json', { headers: { apikey: '' } })
        expect(response.status).toBe(200)
        expect(Object.keys(response.body.paths)).toEqual(expect.arrayContaining(['/ask_qa', '/admin/get_articles', '/admin/do_embeddings']))
      })
    })

    describe.skipIf(!isAvailable)('drafts and publishing', () => {
      it('saves a draft and lists it', async () => {
        const created = await server.call('/admin/inject_article', { method: 'POST', body: { title: 'Draft only', content: 'Not yet published.' } })
        expect(created.status).toBe(200)
        const drafts = await server.call('/admin/get_temp_articles')
        expect(drafts.body.rows.map((row: { title: string }) => row.title)).toContain('Draft only')
        const content = await server.call(`/admin/get_temp_content?id=${created.body.id}`)
        expect(content.body.content).toBe('Not yet published.')
      })

      it('refuses a draft with a blank title, naming the field', async () => {
        const response = await server.call('/admin/inject_article', { method: 'POST', body: { title: '   ', content: 'Something' } })
        expect(response.status).toBe(400)
        expect(response.body.details).toEqual([{ field: 'title', message: 'title is required' }])
      })

      it('publishes drafts as a job whose progress can be checked, then lists the articles', async () => {
        const progress = await publishArticles(server, GUIDE)
        expect(progress).toMatchObject({ status: 'finished', progress: 3, total: 3, failed: [] })
        expect(progress.published).toHaveLength(3)

        const drafts = await server.call('/admin/get_temp_articles')
        expect(drafts.body.rows.map((row: { title: string }) => row.title)).not.toContain('Watering tomato plants')

        const page = await server.call('/admin/get_articles?sortField=title&sortOrder=-1&rows=2&first=0')
        expect(page.status).toBe(200)
        expect(page.body.total_count).toBeGreaterThanOrEqual(3)
        expect(page.body.rows).toHaveLength(2)
        const [index, title, metadata, id, timestamp] = page.body.rows[0]
        expect(index).toBe(1)
        expect(title).toBe('Watering tomato plants')
        expect(metadata).toMatchObject({ source: 'Watering tomato plants' })
        expect(Number.isInteger(id)).toBe(true)
        expect(new Date(timestamp).toString()).not.toBe('Invalid Date')

        const second = await server.call('/admin/get_articles?sortField=title&sortOrder=-1&rows=2&first=1')
        expect(second.body.rows[0][0]).toBe(2)
        expect(second.body.rows[0][1]).toBe('Pruning apple trees')
      })

      it('leaves a draft as it was when publishing it fails', async () => {
        const created = await server.call('/admin/inject_article', { method: 'POST', body: { title: '!!!', content: '??? --- !!!' } })
        const before = await server.call('/admin/get_articles')
        const started = await server.call('/admin/do_embeddings', { method: 'POST', body: { ids: [created.body.id] } })
        const progress = await waitForPublish(server, started.body.task_id)
        expect(progress.failed).toEqual([{ draft_id: created.body.id, title: '!!!', error: expect.stringMatching(/no searchable text/) }])
        const draft = await server.call(`/admin/get_temp_content?id=${created.body.id}`)
        expect(draft.status).toBe(200)
        expect(draft.body.content).toBe('??? --- !!!')
        const after = await server.call('/admin/get_articles')
        expect(after.body.total_count).toBe(before.body.total_count)
      })

      it('refuses to publish a draft that does not exist', async () => {
        const response = await server.call('/admin/do_embeddings', { method: 'POST', body: { ids: [999999] } })
        expect(response.status).toBe(404)
        expect(response.body.message).toMatch(/999999/)
      })

      it('reports an unknown publish task as not found', async () => {
        const response = await server.call('/admin/check_embeddings?task_id=nope')
        expect(response.status).toBe(404)
        expect(response.body.status).toBe('not found')
      })

      it('refuses sort fields it does not know', async () => {
        const response = await server.call('/admin/get_articles?sortField=password')
        expect(response.status).toBe(400)
        expect(response.body.details[0].field).toBe('sortField')
      })
    })

    describe.skipIf(!isAvailable)('asking', () => {
      it('answers from the published articles and cites them', async () => {
        const response = await server.call('/ask_qa', { method: 'POST', body: { command: 'How often should I water tomato plants?', timezone: 'Europe/Paris' } })
        expect(response.status).toBe(200)
        expect(response.body).toMatchObject({ success: true, status: 'finished', found: true })
        expect(response.body.result).toContain('Tomato plants need deep watering twice a week.')
        expect(response.body.result).toMatch(/\[1\]/)
        expect(response.body.source_list[0].metadata).toMatchObject({ source: 'Watering tomato plants', is_deleted: false, kind: 'article' })
        expect(typeof response.body.source_list[0].metadata.doc_id).toBe('number')
        expect(typeof response.body.log_id).toBe('number')
      })

      it('says plainly when the knowledge base has no answer', async () => {
        const response = await server.call('/ask_qa', { method: 'POST', body: { command: 'What is the capital of Mongolia?' } })
        expect(response.body).toMatchObject({ success: true, found: false, source_list: [], related_list: [] })
        expect(response.body.result).toMatch(/not find an answer to that in the knowledge base/)
      })

      it('lists the articles that may help beside a not-found answer, and keeps them with its log', async () => {
        // The pruning article is about apple trees, but says nothing of containers.
        const response = await server.call('/ask_qa', { method: 'POST', body: { command: 'Can apple trees be grown in containers?' } })
        expect(response.body).toMatchObject({ success: true, found: false, source_list: [] })
        expect(response.body.result).toMatch(/not find an answer to that in the knowledge base/)
        expect(response.body.related_list).toEqual([{ article_id: expect.any(Number), title: 'Pruning apple trees' }])
        const again = await server.call(`/answer?log_id=${response.body.log_id}`)
        expect(again.body).toMatchObject({ found: false, related_list: response.body.related_list })
        // The logs' CSV names them in its own column.
        const rows = parse(String((await server.call('/query_logs/query_log_csv')).body), { columns: true }) as Record<string, string>[]
        expect(rows.find((row) => row.id === String(response.body.log_id))).toMatchObject({ sources: '', related: 'Pruning apple trees' })
        // An answer found lists none.
        const found = await server.call('/ask_qa', { method: 'POST', body: { command: 'How often should I water tomato plants?' } })
        expect(found.body).toMatchObject({ found: true, related_list: [] })
      })

      it('refuses a blank command, naming the field', async () => {
        const response = await server.call('/ask_qa', { method: 'POST', body: { command: '   ' } })
        expect(response.status).toBe(400)
        expect(response.body).toMatchObject({ success: false, details: [{ field: 'command', message: 'command is required' }] })
      })

      it('refuses a missing command, naming the field', async () => {
        const response = await server.call('/ask_qa', { method: 'POST', body: { timezone: 'UTC' } })
        expect(response.status).toBe(400)
        expect(response.body.details[0].field).toBe('command')
      })

      it('answers an unknown task_id with 404 and status not found', async () => {
        const response = await server.call('/ask_qa_answer', { method: 'POST', body: { task_id: '00000000-0000-0000-0000-000000000000' } })
        expect(response.status).toBe(404)
        expect(response.body).toMatchObject({ success: false, status: 'not found' })
      })

      it('refuses an oversized body with 413 and a JSON error', async () => {
        const response = await server.call('/ask_qa', { method: 'POST', body: { command: 'x'.repeat(3 * 1024 * 1024) } })
        expect(response.status).toBe(413)
        expect(response.body).toMatchObject({ success: false })
        expect(response.body.message).toMatch(/larger than the limit/)
      })

      it('refuses a body that is not JSON', async () => {
        const response = await server.call('/ask_qa', { method: 'POST', rawBody: '{"command": ', headers: { 'content-type': 'application/json' } })
        expect(response.status).toBe(400)
        expect(response.body.success).toBe(false)
      })

      it('writes every question to the query log', async () => {
        const response = await server.call('/query_logs?limit=50')
        expect(response.status).toBe(200)
        const commands = response.body.result.map((log: { command: string }) => log.command)
        expect(commands).toEqual(expect.arrayContaining(['How often should I water tomato plants?', 'What is the capital of Mongolia?']))
        const answered = response.body.result.find((log: { command: string }) => log.command === 'How often should I water tomato plants?')
        expect(answered.status).toBe('answered')
        expect(answered.source_list.length).toBeGreaterThan(0)
      })

      it('pages the query log by last_id', async () => {
        const first = await server.call('/query_logs?limit=1')
        const second = await server.call(`/query_logs?limit=1&last_id=${first.body.last_id}`)
        expect(second.body.result[0].id).toBeLessThan(first.body.result[0].id)
      })
    })
  })
}

describe('slow answers', () => {
  let server: TestBackend
  beforeAll(async () => {
    // No waiting at all: every answer comes back as a task to poll.
    server = await startTestBackend('pglite', { ASK_WAIT_MS: '0' })
    await publishArticles(server, GUIDE)
  })
  afterAll(async () => server?.stop())

  it('hands back a task_id when the answer is not ready, and the answer later', async () => {
    const first = await server.call('/ask_qa', { method: 'POST', body: { command: 'When should I prune apple trees?' } })
    expect(first.status).toBe(200)
    expect(first.body.success).toBe(false)
    expect(['queued', 'running']).toContain(first.body.status)
    expect(first.body.task_id).toEqual(expect.any(String))
    let answer = first.body
    for (let attempt = 0; attempt < 100 && !answer.success; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 50))
      answer = (await server.call('/ask_qa_answer', { method: 'POST', body: { task_id: first.body.task_id } })).body
    }
    expect(answer).toMatchObject({ success: true, status: 'finished', found: true, log_id: first.body.log_id })
    expect(answer.result).toContain('Prune apple trees in late winter')
  })
})

describe('restarts and the demo knowledge base', () => {
  const demoDirectory = fileURLToPath(new URL('../demo/articles/', import.meta.url))

  it('loads the demo guide once on first start and keeps the index across a restart', async () => {
    let server = await startTestBackend('pglite', {}, { demoDirectory })
    try {
      const page = await server.call('/admin/get_articles')
      expect(page.body.total_count).toBeGreaterThanOrEqual(20)
      // The first start rebuilt the index; following the log, it writes a snapshot, which the next start loads.
      const first = (await server.call('/healthz')).body.index
      expect(first.load).toMatchObject({ source: 'rebuild', reason: 'no snapshot yet' })
      await publishArticles(server, [GUIDE[2]])
      server = await server.restart()
      const restarted = (await server.call('/healthz')).body.index
      expect(restarted.load).toEqual({ source: 'snapshot', milliseconds: expect.any(Number) })
      expect(restarted.snapshot.seq).toBeGreaterThan(0)
      expect(restarted.snapshot.seq).toBeLessThanOrEqual(restarted.seq)
      const again = await server.call('/admin/get_articles')
      expect(again.body.total_count).toBe(page.body.total_count + 1)
      const answer = await server.call('/ask_qa', { method: 'POST', body: { command: 'How do I add an article?' } })
      expect(answer.body.found).toBe(true)
      expect(answer.body.source_list.length).toBeGreaterThan(0)
      // The demo guide's how-to questions get their steps as a numbered list, typos and all.
      expect(answer.body.result).toMatch(/^1\. Open the Dashboard and select the Articles tab\.\n2\. Open the Add article form\.\n(?:.+\n)+5\. Submit the form\. \[1\]$/)
      const typed = await server.call('/ask_qa', { method: 'POST', body: { command: 'How do I publsh drafts?' } })
      expect(typed.body.found).toBe(true)
      // …after the sentence that introduces them (ADR 180).
      expect(typed.body.result).toMatch(/^When the drafts look right:\n\n1\. Select Publish\.\n2\. Watch the progress bar\./)
      // Every suggested question of a new installation is answered by the guide's sentence that says it.
      const notFound = await server.call('/ask_qa', { method: 'POST', body: { command: 'What does the assistant do when it cannot find an answer?' } })
      expect(notFound.body.result).toMatch(/^When the assistant cannot find an answer in the knowledge base, it says it does not know: it replies that the answer was not found\. \[1\]/)
      const settings = await server.call('/ask_qa', { method: 'POST', body: { command: 'Which settings change how answers are found?' } })
      expect(settings.body.result).toContain('search_type, score_threshold and num_sources_k')
      // A list whose heading and lead-in say what was asked answers it, though its items do not repeat the question.
      const types = await server.call('/ask_qa', { method: 'POST', body: { command: 'What file types can I upload?' } })
      expect(types.body.result).toMatch(/^You can upload:\n\n- PDF documents,\n- DOCX word-processing documents,\n/)
      const compost = await server.call('/ask_qa', { method: 'POST', body: { command: 'How often should the compost heap be turned?' } })
      expect(compost.body.result).toContain('turn the heap every fortnight')
    } finally {
      await server.stop()
    }
  }, 180_000)
})
