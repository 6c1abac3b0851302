import { afterEach, describe, expect, it } from 'vitest'
import { openDatabase, type Database, type Queryable } from '../../db/database'
import { migrate } from '../../db/migrate'
import { freshPostgresUrl, isPostgresAvailable } from '../../testing/test-backend'
import type { LogStatus, QuestionLogEntry } from './query-logs.repository'
import { QuestionLogWriter } from './question-log-writer'

const postgresAvailable = await isPostgresAvailable()
const databases = [
  { name: 'PGlite', open: async () => ({ url: 'memory://', drop: async () => undefined }) },
  ...(postgresAvailable ? [{ name: 'PostgreSQL', open: () => freshPostgresUrl() }] : []),
]

const answered = (command: string, extra: Partial<QuestionLogEntry> = {}): QuestionLogEntry => ({
  command,
  mode: 'expert',
  taskId: `task-${command}`,
  outcome: { answer: `About ${command}.`, sourceList: [], status: 'answered', durationMs: 12 },
  metrics: { model: null, fallback: null, tokensIn: null, tokensOut: null, firstTokenMs: null, totalMs: null, note: null, unsupported: [], screenedPassages: null },
  ...extra,
})

describe.each(databases)('logging answered questions on $name', ({ open }) => {
  const cleanups: (() => Promise<void>)[] = []
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
  })

  async function start(): Promise<{ db: Database; statements: string[]; counted: Queryable }> {
    const { url, drop } = await open()
    const db = await openDatabase({ url, dataDir: '' })
    await migrate(db)
    cleanups.push(drop, () => db.close())
    const statements: string[] = []
    const counted: Queryable = {
      query: <Row,>(sql: string, params?: unknown[]) => {
        statements.push(sql)
        return db.query<Row>(sql, params)
      },
    }
    return { db, statements, counted }
  }

  it('writes the questions answered in one turn together, each with its own id, thread and outcome', async () => {
    const { db, statements, counted } = await start()
    const writer = new QuestionLogWriter(counted)
    const [first] = await db.query<{ id: number }>(`INSERT INTO query_logs (command, thread_id) VALUES ('earlier turn', NULL) RETURNING id`)
    const logged = await Promise.all([
      writer.insert(answered('alpha')),
      writer.insert(answered('beta', { threadId: first.id })),
      writer.insert(answered('gamma', { metrics: { ...answered('gamma').metrics!, model: 'small', unsupported: ['A claim.'] } })),
      writer.insert(answered('delta')),
    ])
    expect(statements).toHaveLength(1)
    const rows = await db.query<{ id: number; command: string; thread_id: number; task_id: string; status: string; answer: string; llm_model: string | null; unsupported_sentences: string[] | null }>(
      `SELECT id, command, thread_id, task_id, status, answer, llm_model, unsupported_sentences FROM query_logs WHERE command <> 'earlier turn' ORDER BY id`,
    )
    expect(rows.map((row) => row.command)).toEqual(['alpha', 'beta', 'gamma', 'delta'])
    expect(logged.map((entry) => entry.id)).toEqual(rows.map((row) => row.id))
    // A new question is its own thread; a follow-up joins the one it names.
    expect(logged.map((entry) => entry.threadId)).toEqual([rows[0].id, first.id, rows[2].id, rows[3].id])
    expect(rows.map((row) => row.thread_id)).toEqual(logged.map((entry) => entry.threadId))
    expect(rows.every((row) => row.status === 'answered' && row.answer === `About ${row.command}.` && row.task_id === `task-${row.command}`)).toBe(true)
    expect(rows[2]).toMatchObject({ llm_model: 'small', unsupported_sentences: ['A claim.'] })
    expect(rows[0]).toMatchObject({ llm_model: null, unsupported_sentences: null })
    // One alone is written too.
    expect((await writer.insert(answered('epsilon'))).id).toBeGreaterThan(rows[3].id)
    expect(statements).toHaveLength(2)
  })

  it('fails only the question whose row cannot be written, and writes the others of its batch', async () => {
    const { db, counted } = await start()
    const writer = new QuestionLogWriter(counted)
    const bad = answered('broken', { outcome: { answer: null, sourceList: [], status: 'lost' as LogStatus, durationMs: 1 } })
    const results = await Promise.allSettled([writer.insert(answered('first')), writer.insert(answered('second')), writer.insert(bad), writer.insert(answered('third'))])
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled'])
    const rows = await db.query<{ command: string }>(`SELECT command FROM query_logs ORDER BY id`)
    expect(rows.map((row) => row.command)).toEqual(['first', 'second', 'third'])
  })
})
