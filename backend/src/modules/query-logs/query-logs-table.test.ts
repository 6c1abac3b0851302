import { beforeAll, expect, it } from 'vitest'
import { forEachStorage } from '../../testing/test-backend'

forEachStorage('the query logs table: search, date range, column filters and sort', ({ server }) => {
  const ids: Record<string, number> = {}
  const questions = {
    cafe: 'Where is the Café Müller?',
    ferry: 'When does the FERRY leave?',
    percent: 'Is 100% of the ferry_fare refundable?',
    old: 'Who opened the old lighthouse?',
  }
  const idsOf = (body: { result: { id: number }[] }) => body.result.map((log) => log.id)
  const logs = async (query: Record<string, string | number>) => {
    const response = await server().call(`/query_logs?${new URLSearchParams(Object.entries(query).map(([key, value]) => [key, String(value)]))}`)
    expect(response.status).toBe(200)
    return idsOf(response.body)
  }
  const filtered = (filters: unknown, extra: Record<string, string | number> = {}) => logs({ filters: JSON.stringify(filters), ...extra })

  beforeAll(async () => {
    for (const [key, command] of Object.entries(questions)) {
      const asked = await server().call('/ask_qa', { method: 'POST', body: { command } })
      ids[key] = asked.body.log_id
    }
    // The old question was asked on a known day; the others today.
    await server().backend.db.query(`UPDATE query_logs SET created_at = '2021-03-14T12:00:00Z', duration_ms = 5000 WHERE id = $1`, [ids.old])
  })

  it('searches the question and the answer ignoring case and accents, taking % and _ literally', async () => {
    expect(await logs({ q: 'cafe muller' })).toEqual([ids.cafe])
    expect(await logs({ q: 'ferry' })).toEqual(expect.arrayContaining([ids.ferry, ids.percent]))
    expect(await logs({ q: '100%' })).toEqual([ids.percent])
    expect(await logs({ q: 'ferry_f' })).toEqual([ids.percent])
    expect(await logs({ q: 'ferry%fare' })).toEqual([])
    // Every word, in any order, each anywhere in the question or the answer.
    expect(await logs({ q: 'muller cafe' })).toEqual([ids.cafe])
    expect(await logs({ q: 'where  MÜLLER' })).toEqual([ids.cafe])
    expect(await logs({ q: 'leave when ferry' })).toEqual([ids.ferry])
    expect(await logs({ q: 'ferry lighthouse' })).toEqual([])
    expect(await logs({ q: 'refundable 100%' })).toEqual([ids.percent])
    await server().backend.db.query(`UPDATE query_logs SET answer = 'The keeper Jensen opened it in 1902.' WHERE id = $1`, [ids.old])
    expect(await logs({ q: 'jensen LIGHTHOUSE' })).toEqual([ids.old])
    // An empty search matches everything.
    expect((await logs({ q: '' })).length).toBeGreaterThanOrEqual(4)
  })

  it('keeps the logs of a date range, both days included, and refuses a range that ends before it starts', async () => {
    expect(await logs({ from: '2021-03-14', to: '2021-03-14' })).toEqual([ids.old])
    expect(await logs({ to: '2021-12-31' })).toEqual([ids.old])
    expect(await logs({ from: '2021-03-15' })).not.toContain(ids.old)
    expect(await logs({ from: '', to: '' })).toContain(ids.old)
    for (const query of ['from=2021-02-30', 'to=14/03/2021', 'from=2021-03-15&to=2021-03-14', 'from=yesterday']) {
      const refused = await server().call(`/query_logs?${query}`)
      expect(refused.status, query).toBe(400)
    }
  })

  it('filters columns with the text, numeric and date match modes', async () => {
    expect(await filtered({ command: { matchMode: 'startsWith', value: 'WHERE IS THE CAFÉ' } })).toEqual([ids.cafe])
    expect(await filtered({ command: { matchMode: 'endsWith', value: 'LEAVE?' } })).toEqual([ids.ferry])
    expect(await filtered({ command: { matchMode: 'equals', value: 'who opened the old lighthouse?' } })).toEqual([ids.old])
    expect(await filtered({ command: { matchMode: 'notContains', value: 'ferry' } })).not.toContain(ids.ferry)
    expect(await filtered({ command: { matchMode: 'notEquals', value: questions.cafe } })).not.toContain(ids.cafe)
    expect(await filtered({ command: { matchMode: 'contains', value: '' } })).toHaveLength(4)
    expect(await filtered({ id: { matchMode: 'gte', value: ids.percent } })).toEqual([ids.old, ids.percent])
    expect(await filtered({ id: { matchMode: 'lt', value: ids.ferry } })).toEqual([ids.cafe])
    expect(await filtered({ duration_ms: { matchMode: 'equals', value: 5000 } })).toEqual([ids.old])
    expect(await filtered({ timestamp: { matchMode: 'dateIs', value: '2021-03-14' } })).toEqual([ids.old])
    expect(await filtered({ timestamp: { matchMode: 'dateBefore', value: '2022-01-01' } })).toEqual([ids.old])
    expect(await filtered({ timestamp: { matchMode: 'dateAfter', value: '2022-01-01' } })).not.toContain(ids.old)
    expect(await filtered({ timestamp: { matchMode: 'dateIsNot', value: '2021-03-14' } })).not.toContain(ids.old)
    expect(await filtered({ username: { matchMode: 'equals', value: 'nobody-at-all' } })).toEqual([])
  })

  it('refuses filters that do not fit their column, unknown columns and malformed JSON with a 400', async () => {
    for (const filters of [
      '{"command":{"matchMode":"lt","value":"a"}}',
      '{"id":{"matchMode":"equals","value":"seven"}}',
      '{"timestamp":{"matchMode":"dateIs","value":"not a day"}}',
      '{"password":{"matchMode":"equals","value":"x"}}',
      '{"command":',
    ]) {
      const refused = await server().call(`/query_logs?filters=${encodeURIComponent(filters)}`)
      expect(refused.status, filters).toBe(400)
      expect(refused.body.success).toBe(false)
    }
    for (const query of ['sortField=command', 'sortOrder=2', `q=${'x'.repeat(501)}`]) expect((await server().call(`/query_logs?${query}`)).status, query).toBe(400)
  })

  it('sorts oldest first on request and pages by last_id in that order', async () => {
    const ascending = await logs({ sortOrder: 1 })
    expect([...ascending].sort((a, b) => a - b)).toEqual(ascending)
    const [first, second] = await logs({ sortOrder: 1, limit: 2 })
    expect(await logs({ sortOrder: 1, limit: 1, last_id: first })).toEqual([second])
    // By time: the old question comes first, then the rest by id; paging continues after it.
    const byTime = await logs({ sortField: 'timestamp', sortOrder: 1 })
    expect(byTime[0]).toBe(ids.old)
    expect(await logs({ sortField: 'timestamp', sortOrder: 1, limit: 1, last_id: ids.old })).toEqual([byTime[1]])
    const newestFirst = await logs({ sortField: 'timestamp' })
    expect(newestFirst[newestFirst.length - 1]).toBe(ids.old)
  })
})
