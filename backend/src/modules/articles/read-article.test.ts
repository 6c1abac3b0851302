import { beforeAll, expect, it } from 'vitest'
import { forEachStorage, waitForPublish, type Caller, type TestBackend } from '../../testing/test-backend'

/** Adds drafts with their metadata and publishes them; returns the published articles' ids in order. */
async function publish(server: TestBackend, articles: { title: string; content: string; metadata?: Record<string, unknown> }[]) {
  const draftIds: number[] = []
  for (const article of articles) draftIds.push((await server.call('/admin/inject_article', { method: 'POST', body: article })).body.id)
  const started = await server.call('/admin/do_embeddings', { method: 'POST', body: { ids: draftIds } })
  const done = await waitForPublish(server, started.body.task_id)
  return draftIds.map((draftId) => done.published.find((entry: { draft_id: number }) => entry.draft_id === draftId).article_id as number)
}

const LIGHTHOUSE = [
  '# Lighthouse keeping',
  '',
  'The keeper trims the wick of the lamp every evening before sunset.',
  '',
  '## Fog',
  '',
  'In fog the keeper sounds the horn twice a minute until the fog lifts.',
].join('\r\n')

forEachStorage('reading an article', ({ server }) => {
  const callers: Record<string, Caller> = { admin: 'admin' }
  let articleId: number

  beforeAll(async () => {
    callers.user = await server().createUser('user')
    callers.editor = await server().createUser('editor')
    ;[articleId] = await publish(server(), [{ title: 'Lighthouse keeping', content: LIGHTHOUSE }])
  })

  it('gives users, editors and administrators the article, its source and where the passage an answer cites sits in it', async () => {
    const asked = await server().call('/ask_qa', { method: 'POST', body: { command: 'How often does the keeper sound the horn in fog?' }, as: callers.user })
    const cited = asked.body.source_list.find((source: { metadata: { doc_id: number } }) => source.metadata.doc_id === articleId)
    expect(cited).toBeDefined()
    for (const [role, as] of Object.entries(callers)) {
      const read = await server().call(`/read_article/${articleId}`, { as })
      expect(read.status, role).toBe(200)
      expect(read.body).toMatchObject({ success: true, id: articleId, title: 'Lighthouse keeping', source: { kind: 'article', name: null, url: null } })
      // Line ends come as "\n": the passages' offsets are offsets in this text.
      expect(read.body.content).toBe(LIGHTHOUSE.replaceAll('\r\n', '\n'))
      const passage = read.body.passages.find((candidate: { id: number }) => candidate.id === cited.metadata.id)
      expect(passage, role).toBeDefined()
      expect(read.body.content.slice(passage.start, passage.end).replace(/\n{2,}/g, '\n\n')).toBe(cited.page_content)
      expect(read.body.content.slice(passage.start, passage.end)).toContain('sounds the horn twice a minute')
    }
  })

  it('lists every passage in order, each placed in the text', async () => {
    const read = await server().call(`/read_article/${articleId}`, { as: callers.user })
    const ordinals = read.body.passages.map((passage: { ordinal: number }) => passage.ordinal)
    expect(ordinals).toEqual([...ordinals].sort((a, b) => a - b))
    expect(read.body.passages.length).toBeGreaterThan(0)
    for (const passage of read.body.passages) {
      expect(passage.start).toBeGreaterThanOrEqual(0)
      expect(passage.end).toBeGreaterThan(passage.start)
    }
  })

  it('lets a user of another organisation read it too: articles are shared by every organisation', async () => {
    const [{ id: elsewhere }] = await server().backend.db.query<{ id: number }>(
      `INSERT INTO organizations (name) VALUES ('Elsewhere ' || floor(random() * 1e9)::text) RETURNING id`,
    )
    await server().backend.db.query(`INSERT INTO groups (organization_id, name, role) VALUES ($1, 'Users', 'user')`, [elsewhere])
    const outsider = await server().createUser('user', { organizationId: elsewhere })
    expect((await server().call(`/read_article/${articleId}`, { as: outsider })).status).toBe(200)
  })

  it('says where an article came from: a web page, a file, a video, or written here', async () => {
    const [page, file, video, odd] = await publish(server(), [
      { title: 'Harbour page', content: 'The harbour opens at dawn.', metadata: { source: 'https://example.org/harbour', url: 'https://example.org/harbour', crawl_task_id: 'crawl-1', depth: 0 } },
      { title: 'Harbour rules', content: 'Moor only at the marked rings.', metadata: { source: 'rules.pdf', file_name: 'rules.pdf', format: 'pdf', s3_key: 'secret/key' } },
      { title: 'Harbour video', content: 'The video shows the tide tables.', metadata: { source: 'https://www.youtube.com/watch?v=abc123', url: 'https://www.youtube.com/watch?v=abc123', video_id: 'abc123', format: 'youtube' } },
      { title: 'Harbour note', content: 'A note with an odd address.', metadata: { url: 'javascript:alert(1)' } },
    ])
    const sourceOf = async (id: number) => (await server().call(`/read_article/${id}`, { as: callers.user })).body.source
    expect(await sourceOf(page)).toEqual({ kind: 'web_page', name: 'https://example.org/harbour', url: 'https://example.org/harbour' })
    // A file's storage key is not a reader's business: only its name.
    expect(await sourceOf(file)).toEqual({ kind: 'file', name: 'rules.pdf', url: null })
    expect(await sourceOf(video)).toEqual({ kind: 'video', name: 'https://www.youtube.com/watch?v=abc123', url: 'https://www.youtube.com/watch?v=abc123' })
    expect(await sourceOf(odd)).toEqual({ kind: 'article', name: null, url: null })
  })

  it('answers 404 for an article that does not exist or was deleted', async () => {
    const [doomed] = await publish(server(), [{ title: 'Short-lived', content: 'This article is deleted at once.' }])
    expect((await server().call(`/read_article/${doomed}`, { as: callers.user })).status).toBe(200)
    expect((await server().call('/admin/delete_article', { method: 'DELETE', body: { id: doomed } })).status).toBe(200)
    for (const id of [doomed, 2_147_483_000]) {
      const gone = await server().call(`/read_article/${id}`, { as: callers.user })
      expect(gone.status).toBe(404)
      expect(gone.body).toEqual({ success: false, error: 'Not Found', message: `No article with id ${id}` })
    }
  })

  it('answers 400 naming the id for an id that is not a positive 32-bit integer, and 401 without a sign-in', async () => {
    for (const id of ['abc', '0', '-3', '1.5', '2147483648', '1e3x']) {
      const refused = await server().call(`/read_article/${id}`, { as: callers.user })
      expect(refused.status, id).toBe(400)
      expect(refused.body).toMatchObject({ success: false, details: [expect.objectContaining({ field: 'id' })] })
    }
    expect((await server().call(`/read_article/${articleId}`, { as: 'anonymous' })).status).toBe(401)
  })
})
