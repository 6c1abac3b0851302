import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestBackend, type TestBackend } from '../../testing/test-backend'

const DRAFTS = 1500

/** Inserts `count` drafts of a few sentences each in one statement. */
async function insertDrafts(server: TestBackend, count: number): Promise<void> {
  await server.backend.db.query(
    `INSERT INTO temp_articles (title, content, metadata)
     SELECT 'Maintenance note ' || n,
            'Inspect valve ' || n || ' every spring before the pumps start. Replace the gasket when it cracks or weeps. '
              || 'Record the pressure reading of circuit ' || (n % 37) || ' in the plant log, with the date and the name of the inspector. '
              || 'A reading above the limit means the relief valve must be tested the same day.',
            jsonb_build_object('source', 'Maintenance note ' || n)
       FROM generate_series(1, $1::int) AS n`,
    [count],
  )
}

describe('publishing many drafts on PGlite', () => {
  let server: TestBackend
  beforeAll(async () => {
    server = await startTestBackend('pglite')
  })
  afterAll(async () => {
    await server?.stop()
  })

  it(`keeps answering health checks and progress calls while ${DRAFTS} drafts publish, and reports every draft once`, { timeout: 600_000 }, async () => {
    await insertDrafts(server, DRAFTS)
    const started = await server.call('/admin/do_embeddings', { method: 'POST', body: {} })
    expect(started.status).toBe(200)
    const taskId: string = started.body.task_id

    const healthStatuses: number[] = []
    const progressSeen = new Set<number>()
    let report: any
    for (;;) {
      const health = await server.call('/healthz', { as: 'anonymous' })
      healthStatuses.push(health.status)
      const progress = await server.call(`/admin/check_embeddings?task_id=${taskId}`)
      if (progress.body.status !== 'queued' && progress.body.status !== 'running') {
        report = progress.body
        break
      }
      progressSeen.add(progress.body.progress)
    }

    expect(healthStatuses.every((status) => status === 200)).toBe(true)
    // The service answered all along: it saw the job at many points between its start and its end.
    const between = [...progressSeen].filter((progress) => progress > 0 && progress < DRAFTS)
    expect(between.length).toBeGreaterThanOrEqual(5)
    expect(report).toMatchObject({ status: 'finished', progress: DRAFTS, total: DRAFTS, failed: [] })
    expect(new Set(report.published.map((entry: { draft_id: number }) => entry.draft_id)).size).toBe(DRAFTS)
    const [counts] = await server.backend.db.query<{ articles: number; drafts: number }>(
      `SELECT (SELECT COUNT(*) FROM articles)::int AS articles, (SELECT COUNT(*) FROM temp_articles)::int AS drafts`,
    )
    expect(counts).toEqual({ articles: DRAFTS, drafts: 0 })
    expect((await server.backend.services.knowledge.search('valve 1234 inspect', 3))[0].title).toBe('Maintenance note 1234')
  })
})
