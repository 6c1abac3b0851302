import { beforeAll, expect, it } from 'vitest'
import { forEachStorage } from '../../testing/test-backend'

forEachStorage('the drafts table: filters and sort', ({ server }) => {
  const ids: Record<string, number> = {}
  const drafts = async (query: Record<string, string | number>) => {
    const response = await server().call(`/admin/get_temp_articles?${new URLSearchParams(Object.entries(query).map(([key, value]) => [key, String(value)]))}`)
    expect(response.status).toBe(200)
    return response.body as { rows: { id: number; title: string }[]; total_count: number }
  }
  const titlesOf = async (query: Record<string, string | number>) => (await drafts(query)).rows.map((draft) => draft.title)
  const filtered = (filters: unknown, extra: Record<string, string | number> = {}) => titlesOf({ filters: JSON.stringify(filters), ...extra })

  beforeAll(async () => {
    for (const [key, title, source] of [
      ['creme', 'Crème brûlée for beginners', 'Kitchen notes'],
      ['bread', 'Sourdough bread', 'kitchen NOTES'],
      ['bike', 'Bicycle repair', 'Workshop'],
    ]) {
      const created = await server().call('/admin/inject_article', { method: 'POST', body: { title, content: `${title}: the draft.`, metadata: { source } } })
      ids[key] = created.body.id
    }
    await server().backend.db.query(`UPDATE temp_articles SET updated_at = '2020-02-29T08:00:00Z' WHERE id = $1`, [ids.bike])
  })

  it('lists the newest draft first by default and sorts by title or date on request', async () => {
    expect(await titlesOf({})).toEqual(['Bicycle repair', 'Sourdough bread', 'Crème brûlée for beginners'])
    expect(await titlesOf({ sortField: 'title', sortOrder: 1 })).toEqual(['Bicycle repair', 'Crème brûlée for beginners', 'Sourdough bread'])
    expect((await titlesOf({ sortField: 'timestamp', sortOrder: 1 }))[0]).toBe('Bicycle repair')
    expect(await titlesOf({ sortField: 'id', sortOrder: 1, first: 1, rows: 1 })).toEqual(['Sourdough bread'])
  })

  it('filters by text ignoring case and accents, by number and by date; an empty value matches all', async () => {
    expect(await filtered({ title: { matchMode: 'contains', value: 'CREME BRULEE' } })).toEqual(['Crème brûlée for beginners'])
    expect(await filtered({ source: { matchMode: 'equals', value: 'kitchen notes' } })).toEqual(['Sourdough bread', 'Crème brûlée for beginners'])
    expect(await filtered({ source: { matchMode: 'notEquals', value: 'kitchen notes' } })).toEqual(['Bicycle repair'])
    expect(await filtered({ title: { matchMode: 'startsWith', value: 'sour' } })).toEqual(['Sourdough bread'])
    expect(await filtered({ title: { matchMode: 'endsWith', value: 'REPAIR' } })).toEqual(['Bicycle repair'])
    expect(await filtered({ title: { matchMode: 'notContains', value: 'e' } })).toEqual([])
    expect(await filtered({ id: { matchMode: 'lte', value: ids.bread } })).toEqual(['Sourdough bread', 'Crème brûlée for beginners'])
    expect(await filtered({ id: { matchMode: 'notEquals', value: ids.bread } })).toEqual(['Bicycle repair', 'Crème brûlée for beginners'])
    expect(await filtered({ timestamp: { matchMode: 'dateIs', value: '2020-02-29' } })).toEqual(['Bicycle repair'])
    expect(await filtered({ timestamp: { matchMode: 'dateAfter', value: '2020-02-29' } })).toEqual(['Sourdough bread', 'Crème brûlée for beginners'])
    expect(await filtered({ title: { matchMode: 'contains', value: '' } })).toHaveLength(3)
    const counted = await drafts({ filters: JSON.stringify({ source: { matchMode: 'startsWith', value: 'kitchen' } }), rows: 1 })
    expect(counted.total_count).toBe(2)
    expect(counted.rows).toHaveLength(1)
  })

  it('refuses a bad sort, a filter that does not fit its column or an unknown column with a 400', async () => {
    for (const query of [
      'sortField=content',
      'sortOrder=0',
      `filters=${encodeURIComponent('{"title":{"matchMode":"gt","value":"a"}}')}`,
      `filters=${encodeURIComponent('{"id":{"matchMode":"equals","value":"twelve"}}')}`,
      `filters=${encodeURIComponent('{"content":{"matchMode":"contains","value":"a"}}')}`,
      `filters=${encodeURIComponent('{"timestamp":{"matchMode":"dateIs","value":"someday"}}')}`,
      'filters=not-json',
    ]) {
      const refused = await server().call(`/admin/get_temp_articles?${query}`)
      expect(refused.status, query).toBe(400)
      expect(refused.body.success).toBe(false)
    }
  })
})
