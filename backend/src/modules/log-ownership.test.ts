import { beforeAll, expect, it } from 'vitest'
import { forEachStorage, publishArticles, type Caller } from '../testing/test-backend'
import { runAgent } from './agents/agents.test-support'

type Outcome = 'allowed' | 'hidden'

/**
 * Who may read and change a user's query log and agent run: the user, the editors of their organisation and
 * the administrators. Everyone else is answered 404, as if the log did not exist.
 */
const WHO_SEES_A_USERS_LOG: Record<string, Outcome> = {
  owner: 'allowed',
  'another user': 'hidden',
  'an editor of the organisation': 'allowed',
  'an editor of another organisation': 'hidden',
  administrator: 'allowed',
}

forEachStorage('who sees and changes a query log', ({ server }) => {
  const callers: Record<string, Caller> = { administrator: 'admin' }
  let expert: { log_id: number; task_id: string }
  let agent: { log_id: number; task_id: string }

  beforeAll(async () => {
    await publishArticles(server(), [{ title: 'Bicycle bells', content: 'A bicycle must have a working bell to warn other people.' }])
    const [{ id: otherOrganization }] = await server().backend.db.query<{ id: number }>(
      `INSERT INTO organizations (name) VALUES ('Elsewhere ' || floor(random() * 1e9)::text) RETURNING id`,
    )
    await server().backend.db.query(`INSERT INTO groups (organization_id, name, role) VALUES ($1, 'Editors', 'editor')`, [otherOrganization])
    callers.owner = await server().createUser('user')
    callers['another user'] = await server().createUser('user')
    callers['an editor of the organisation'] = await server().createUser('editor')
    callers['an editor of another organisation'] = await server().createUser('editor', { organizationId: otherOrganization })
    expert = (await server().call('/ask_qa', { method: 'POST', body: { command: 'Must a bicycle have a bell?' }, as: callers.owner })).body
    agent = await runAgent(server(), { command: 'Why does a bicycle need a bell?' }, callers.owner)
  })

  const actions: Array<[string, (as: Caller) => Promise<{ status: number; body: any }>, number]> = [
    ['read the log', (as) => server().call(`/query_logs/query_log?log_id=${expert.log_id}`, { as }), 200],
    ['read the answer by log', (as) => server().call(`/answer?log_id=${expert.log_id}`, { as }), 200],
    ['read the answer by task', (as) => server().call('/ask_qa_answer', { method: 'POST', body: { task_id: expert.task_id }, as }), 200],
    ['read the agent run by task', (as) => server().call('/ask_qa_answer', { method: 'POST', body: { task_id: agent.task_id }, as }), 200],
    ['read the agent run by log', (as) => server().call(`/answer?log_id=${agent.log_id}`, { as }), 200],
    ['give feedback', (as) => server().call('/ask_qa_feedback', { method: 'PUT', body: { log_id: expert.log_id, feedback: 'like' }, as }), 200],
    ['save it as a favourite', (as) => server().call('/query_logs/add_query_favorite', { method: 'POST', body: { log_id: expert.log_id, comment: 'keep' }, as }), 200],
    // Both have ended: a caller who may cancel hears why it cannot be (409), anyone else that there is no such task.
    ['cancel the agent run', (as) => server().call('/ask_qa_cancel', { method: 'POST', body: { task_id: agent.task_id }, as }), 409],
    ['cancel the expert answer', (as) => server().call('/ask_qa_cancel', { method: 'POST', body: { task_id: expert.task_id }, as }), 409],
  ]

  it("answers each caller as the ownership rules say, on every call that reads or changes a user's log", async () => {
    const failures: string[] = []
    for (const [action, call, allowedStatus] of actions) {
      for (const [name, outcome] of Object.entries(WHO_SEES_A_USERS_LOG)) {
        const response = await call(callers[name])
        const expected = outcome === 'allowed' ? allowedStatus : 404
        if (response.status !== expected) failures.push(`${name} may ${outcome === 'allowed' ? '' : 'not '}${action}: got ${response.status}, expected ${expected}`)
        if (outcome === 'hidden') expect(response.body).toMatchObject({ success: false, error: 'Not Found', message: expect.stringMatching(/^No (query log|task) /) })
      }
    }
    expect(failures).toEqual([])
  })

  it("lists a user's own logs only in their saved queries", async () => {
    const favourites = await server().call('/query_logs/query_favorites', { as: callers['another user'] })
    expect(favourites.body.result).toEqual([])
    const own = await server().call('/query_logs/query_favorites', { as: callers.owner })
    expect(own.body.result.map((favourite: { log_id: number }) => favourite.log_id)).toEqual([expert.log_id])
  })
})
