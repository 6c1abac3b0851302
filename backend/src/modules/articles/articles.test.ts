import { expect, it } from 'vitest'
import { forEachStorage, publishArticles, waitForPublish } from '../../testing/test-backend'

forEachStorage('articles and drafts', ({ server }) => {
  const articlesWith = async (filters: unknown) => {
    const response = await server().call(`/admin/get_articles?rows=100&filters=${encodeURIComponent(JSON.stringify(filters))}`)
    expect(response.status).toBe(200)
    return response.body.rows.map((row: unknown[]) => row[1])
  }

  it('updates a published article and re-indexes it at once', async () => {
    const progress = await publishArticles(server(), [{ title: 'Kettle descaling', content: 'Descale the kettle with vinegar every month.' }])
    const id = progress.published[0].article_id
    const updated = await server().call('/admin/update_doc', { method: 'PUT', body: { id, content: 'Descale the kettle with citric acid every month.' } })
    expect(updated.status).toBe(200)
    expect(updated.body.content).toContain('citric acid')
    const answer = await server().call('/ask_qa', { method: 'POST', body: { command: 'What do I descale the kettle with, citric acid?' } })
    expect(answer.body.result).toContain('citric acid')
    const old = await server().call('/ask_qa', { method: 'POST', body: { command: 'vinegar' } })
    expect(old.body.found).toBe(false)
  })

  it('refuses to update an article that does not exist, or with an empty title', async () => {
    expect((await server().call('/admin/update_doc', { method: 'PUT', body: { id: 987654, title: 'x' } })).status).toBe(404)
    const blank = await server().call('/admin/update_doc', { method: 'PUT', body: { id: 1, title: ' ' } })
    expect(blank.status).toBe(400)
    expect(blank.body.details[0].field).toBe('title')
  })

  it('refuses a NUL in a title or content beside its field, new or edited', async () => {
    const created = await server().call('/admin/inject_article', { method: 'POST', body: { title: 'Nul\u0000title', content: 'Nul\u0000content' } })
    expect(created.status).toBe(400)
    expect(created.body.details).toEqual(
      expect.arrayContaining([
        { field: 'title', message: 'title cannot contain NUL' },
        { field: 'content', message: 'content cannot contain NUL' },
      ]),
    )
    const draft = await server().call('/admin/inject_article', { method: 'POST', body: { title: 'Plain draft', content: 'Plain content.' } })
    const edited = await server().call('/admin/update_temp_doc', { method: 'PUT', body: { id: draft.body.id, content: 'Still\u0000here' } })
    expect(edited.status).toBe(400)
    expect(edited.body.details).toEqual([{ field: 'content', message: 'content cannot contain NUL' }])
  })

  it('deletes an article, drops it from answers and marks it deleted in the logs', async () => {
    const progress = await publishArticles(server(), [{ title: 'Bread proving', content: 'Prove bread dough for two hours somewhere warm.' }])
    const id = progress.published[0].article_id
    const asked = await server().call('/ask_qa', { method: 'POST', body: { command: 'How long should bread dough prove?' } })
    expect(asked.body.source_list[0].metadata).toMatchObject({ doc_id: id, is_deleted: false })
    const deleted = await server().call('/admin/delete_article', { method: 'DELETE', body: { id } })
    expect(deleted.body).toMatchObject({ success: true, message: 'Article deleted' })
    const log = await server().call(`/query_logs/query_log?log_id=${asked.body.log_id}`)
    expect(log.body.result[0].source_list[0].metadata).toMatchObject({ doc_id: id, is_deleted: true })
    const again = await server().call('/ask_qa', { method: 'POST', body: { command: 'How long should bread dough prove?' } })
    expect(again.body.source_list.map((source: { metadata: { doc_id: number } }) => source.metadata.doc_id)).not.toContain(id)
    expect((await server().call('/admin/get_content?id=' + id)).status).toBe(404)
    expect((await server().call('/admin/delete_article', { method: 'DELETE', body: { id } })).status).toBe(404)
  })

  it('deletes articles by title', async () => {
    await publishArticles(server(), [
      { title: 'Duplicate title', content: 'First copy about lanterns.' },
      { title: 'Duplicate title', content: 'Second copy about lanterns.' },
    ])
    const response = await server().call('/admin/delete_article_by_title', { method: 'DELETE', body: { title: 'duplicate TITLE' } })
    expect(response.body).toMatchObject({ success: true, count: 2 })
    expect((await server().call('/admin/delete_article_by_title', { method: 'DELETE', body: { title: 'Duplicate title' } })).status).toBe(404)
  })

  it('filters articles in the database, ignoring case and accents', async () => {
    await publishArticles(server(), [
      { title: 'Crème brûlée basics', content: 'Caramelise the sugar with a torch.' },
      { title: 'Creme anglaise', content: 'Stir the custard until it coats a spoon.' },
      { title: 'Garden shed', content: 'Treat the wood every spring.' },
    ])
    expect(await articlesWith({ title: { value: 'CREME', matchMode: 'startsWith' } })).toEqual(['Crème brûlée basics', 'Creme anglaise'])
    expect(await articlesWith({ title: { value: 'brulee', matchMode: 'contains' } })).toEqual(['Crème brûlée basics'])
    expect(await articlesWith({ title: { value: 'anglaise', matchMode: 'endsWith' } })).toEqual(['Creme anglaise'])
    expect(await articlesWith({ title: { value: 'garden shed', matchMode: 'equals' } })).toEqual(['Garden shed'])
    const notCreme = await articlesWith({ title: { value: 'crème', matchMode: 'notContains' } })
    expect(notCreme).toContain('Garden shed')
    expect(notCreme).not.toContain('Creme anglaise')
    expect(await articlesWith({ title: { value: '100%', matchMode: 'contains' } })).toEqual([])
  })

  it('treats an empty filter value as matching everything', async () => {
    const all = await server().call('/admin/get_articles?rows=1')
    const filtered = await server().call(`/admin/get_articles?rows=1&filters=${encodeURIComponent(JSON.stringify({ title: { value: '', matchMode: 'contains' } }))}`)
    expect(filtered.body.total_count).toBe(all.body.total_count)
  })

  it('filters by numeric id and by date', async () => {
    const page = await server().call('/admin/get_articles?rows=100&sortField=id')
    const ids: number[] = page.body.rows.map((row: unknown[]) => row[3])
    const middle = ids[Math.floor(ids.length / 2)]
    const below = await server().call(`/admin/get_articles?rows=100&filters=${encodeURIComponent(JSON.stringify({ id: { value: middle, matchMode: 'lt' } }))}`)
    expect(below.body.rows.every((row: unknown[]) => (row[3] as number) < middle)).toBe(true)
    const gte = await server().call(`/admin/get_articles?rows=100&filters=${encodeURIComponent(JSON.stringify({ id: { value: middle, matchMode: 'gte' } }))}`)
    expect(below.body.total_count + gte.body.total_count).toBe(page.body.total_count)
    const today = new Date().toISOString().slice(0, 10)
    const todays = await server().call(`/admin/get_articles?rows=1&filters=${encodeURIComponent(JSON.stringify({ timestamp: { value: today, matchMode: 'dateIs' } }))}`)
    expect(todays.body.total_count).toBe(page.body.total_count)
    const before = await server().call(`/admin/get_articles?rows=1&filters=${encodeURIComponent(JSON.stringify({ timestamp: { value: today, matchMode: 'dateBefore' } }))}`)
    expect(before.body.total_count).toBe(0)
  })

  it('refuses filters that are not JSON, unknown columns and modes that do not fit the column', async () => {
    expect((await server().call('/admin/get_articles?filters=%7Bnope')).status).toBe(400)
    expect((await server().call(`/admin/get_articles?filters=${encodeURIComponent('{"password":{"value":"x","matchMode":"equals"}}')}`)).status).toBe(400)
    const wrongMode = await server().call(`/admin/get_articles?filters=${encodeURIComponent('{"title":{"value":"x","matchMode":"lt"}}')}`)
    expect(wrongMode.status).toBe(400)
    expect(wrongMode.body.details[0].field).toBe('filters.title')
  })

  it('updates, deletes and deletes all drafts', async () => {
    const first = await server().call('/admin/inject_article', { method: 'POST', body: { title: 'Draft A', content: 'Alpha' } })
    const second = await server().call('/admin/inject_article', { method: 'POST', body: { title: 'Draft B', content: 'Beta' } })
    const updated = await server().call('/admin/update_temp_doc', { method: 'PUT', body: { id: first.body.id, content: 'Alpha, revised' } })
    expect(updated.body).toMatchObject({ title: 'Draft A', content: 'Alpha, revised' })
    expect((await server().call('/admin/update_temp_doc', { method: 'PUT', body: { id: 999999, content: 'x' } })).status).toBe(404)
    expect((await server().call('/admin/delete_temp_article', { method: 'DELETE', body: { id: second.body.id } })).body.success).toBe(true)
    expect((await server().call('/admin/delete_temp_article', { method: 'DELETE', body: { id: second.body.id } })).status).toBe(404)
    const cleared = await server().call('/admin/delete_all_temp_articles', { method: 'DELETE', body: {} })
    expect(cleared.body.count).toBeGreaterThanOrEqual(1)
    expect((await server().call('/admin/get_temp_articles')).body.total_count).toBe(0)
  })

  it('turns a corrected answer into a draft that can be published', async () => {
    const draft = await server().call('/admin/upload_recovery_answer', {
      method: 'POST',
      body: { question: 'When is the office closed?', answer: 'The office is closed on public holidays and on 24 December.' },
    })
    expect(draft.status).toBe(200)
    const content = await server().call(`/admin/get_temp_content?id=${draft.body.id}`)
    expect(content.body).toMatchObject({ title: 'When is the office closed?', metadata: { source: 'Corrected answer' } })
    const started = await server().call('/admin/do_embeddings', { method: 'POST', body: { ids: [draft.body.id] } })
    await waitForPublish(server(), started.body.task_id)
    const answer = await server().call('/ask_qa', { method: 'POST', body: { command: 'When is the office closed?' } })
    expect(answer.body.result).toContain('24 December')
    expect((await server().call('/admin/upload_recovery_answer', { method: 'POST', body: { question: 'x' } })).body.details[0].field).toBe('answer')
  })
})
