import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase, type Database, type Queryable } from '../../db/database'
import { migrate } from '../../db/migrate'
import { freshPostgresUrl, isPostgresAvailable, startTestBackend, type TestBackend } from '../../testing/test-backend'
import { digestOf } from './index-digest'
import { KnowledgeService } from './knowledge.service'
import { eventually } from '../../testing/eventually'

const postgresAvailable = await isPostgresAvailable()

/** A word found in one version of one article only: letters, so the tokenizer keeps it whole. */
const marker = (round: number, server: number, position: number) => `zq${[round, server, position].map((n) => String.fromCharCode(97 + n)).join('')}q`

async function databaseDigest(db: Queryable): Promise<string> {
  const rows = await db.query<{ id: number }>(`SELECT id FROM chunks`)
  return digestOf(rows.map((row) => row.id))
}

describe.skipIf(!postgresAvailable)('the index change feed on PostgreSQL', () => {
  let db: Database
  let drop: () => Promise<void>
  beforeAll(async () => {
    const schema = await freshPostgresUrl()
    drop = schema.drop
    db = await openDatabase({ url: schema.url, dataDir: '' })
    await migrate(db)
  })
  afterAll(async () => {
    await db?.close()
    await drop?.()
  })

  it('never skips a change whose transaction commits after a later-numbered one, even when a sync falls between the commits', async () => {
    const [first] = await db.query<{ id: number }>(`INSERT INTO articles (title, content) VALUES ('Kiln firing', 'Bisque firing reaches cone 04 slowly.') RETURNING id`)
    const [second] = await db.query<{ id: number }>(`INSERT INTO articles (title, content) VALUES ('Glaze mixing', 'Sieve the glaze slurry twice.') RETURNING id`)
    const writer = new KnowledgeService(db)
    const reader = new KnowledgeService(db)
    await reader.load()

    // The first transaction logs its change and stays open.
    let releaseFirst!: () => void
    const firstHeld = new Promise<void>((resolve) => (releaseFirst = resolve))
    let firstLogged!: () => void
    const firstHasLogged = new Promise<void>((resolve) => (firstLogged = resolve))
    const firstCommit = db.transaction(async (tx) => {
      await writer.indexArticle(tx, { id: first.id, title: 'Kiln firing', content: 'Bisque firing reaches cone 04 slowly.' })
      firstLogged()
      await firstHeld
    })
    await firstHasLogged

    // The second starts after it; it either commits at once (changes numbered later, committed earlier) or
    // waits for the first, if index writers are serialised.
    let secondPid = 0
    let secondCommitted = false
    const secondCommit = db
      .transaction(async (tx) => {
        ;[{ pid: secondPid }] = await tx.query<{ pid: number }>(`SELECT pg_backend_pid() AS pid`)
        await writer.indexArticle(tx, { id: second.id, title: 'Glaze mixing', content: 'Sieve the glaze slurry twice.' })
      })
      .then(() => {
        secondCommitted = true
      })
    await eventually(async () => {
      if (secondCommitted) return true
      if (secondPid === 0) return false
      const [activity] = await db.query<{ wait_event_type: string | null }>(`SELECT wait_event_type FROM pg_stat_activity WHERE pid = $1`, [secondPid])
      return activity?.wait_event_type === 'Lock'
    })

    // Another process syncs between the two commits.
    await reader.sync()
    releaseFirst()
    await firstCommit
    await secondCommit
    await reader.sync()

    expect((await reader.search('bisque firing cone', 5)).map((hit) => hit.articleId)).toEqual([first.id])
    expect((await reader.search('sieve glaze slurry', 5)).map((hit) => hit.articleId)).toEqual([second.id])
    expect(reader.status().checksum).toBe(await databaseDigest(db))
  })

  it('catches up without a search when another process commits, woken by its notification', async () => {
    const follower = new KnowledgeService(db)
    await follower.load()
    await follower.follow(60_000)
    try {
      const writer = new KnowledgeService(db)
      await db.transaction(async (tx) => {
        const [row] = await tx.query<{ id: number }>(`INSERT INTO articles (title, content) VALUES ('Raku', 'Raku pieces leave the kiln glowing.') RETURNING id`)
        await writer.indexArticle(tx, { id: row.id, title: 'Raku', content: 'Raku pieces leave the kiln glowing.' })
      })
      const expected = await databaseDigest(db)
      // The fallback poll is a minute away: only the notification can bring the follower up to date.
      await eventually(async () => follower.status().checksum === expected)
      expect(follower.status().chunks).toBe((await db.query(`SELECT id FROM chunks`)).length)
    } finally {
      await follower.unfollow()
    }
  })
})

describe.skipIf(!postgresAvailable)('two backends re-indexing the same articles on PostgreSQL', () => {
  let one: TestBackend
  let two: TestBackend
  beforeAll(async () => {
    // The fallback poll is a minute away: only notifications keep the indexes current between searches.
    one = await startTestBackend('postgres', { INDEX_SYNC_MS: '60000' })
    two = await startTestBackend('postgres', { INDEX_SYNC_MS: '60000' }, { sharedDatabaseUrl: one.config.DATABASE_URL })
  })
  afterAll(async () => {
    await two?.stop()
    await one?.stop()
  })

  it('agree on the index and find every latest version after concurrent updates through both', async () => {
    const titles = ['Anchor bolts', 'Beam camber', 'Column footing', 'Deck joists', 'Eave flashing', 'Fascia boards']
    const ids: number[] = []
    for (const title of titles) {
      const draft = await one.call('/admin/inject_article', { method: 'POST', body: { title, content: `${title} version zero.` } })
      ids.push(draft.body.id)
    }
    const started = await one.call('/admin/do_embeddings', { method: 'POST', body: { ids } })
    await eventually(async () => (await one.call(`/admin/check_embeddings?task_id=${started.body.task_id}`)).body.status === 'finished')
    const articleIds: number[] = (await one.call(`/admin/check_embeddings?task_id=${started.body.task_id}`)).body.published.map(
      (entry: { article_id: number }) => entry.article_id,
    )
    expect(articleIds).toHaveLength(titles.length)

    const searches: Promise<unknown>[] = []
    for (let round = 0; round < 8; round++) {
      const writes = [one, two].flatMap((server, serverIndex) =>
        articleIds.map((id, position) =>
          server.call('/admin/update_doc', {
            method: 'PUT',
            body: { id, content: `${titles[position]} revision ${marker(round, serverIndex, position)}.` },
          }),
        ),
      )
      // Searches run in both processes while the writes commit.
      for (const server of [one, two]) searches.push(server.backend.services.knowledge.search(marker(round, 0, 0), 3))
      const answers = await Promise.all(writes)
      expect(answers.map((answer) => answer.status)).toEqual(writes.map(() => 200))
    }
    await Promise.all(searches)

    // No search from here on: only the change feed can bring both processes to what the database holds.
    const expected = await databaseDigest(one.backend.db)
    await eventually(async () => {
      const [first, second] = await Promise.all([one.call('/healthz'), two.call('/healthz')])
      return first.body.index.checksum === expected && second.body.index.checksum === expected
    })
    const [first, second] = await Promise.all([one.call('/healthz'), two.call('/healthz')])
    const position = ({ chunks, checksum, seq }: { chunks: number; checksum: string; seq: number }) => ({ chunks, checksum, seq })
    expect(position(second.body.index)).toEqual(position(first.body.index))

    const latest = await one.backend.db.query<{ id: number; content: string }>(`SELECT id, content FROM articles WHERE id = ANY($1::int[])`, [articleIds])
    for (const article of latest) {
      const latestMarker = /zq[a-z]{3}q/.exec(article.content)![0]
      for (const server of [one, two]) {
        const hits = await server.backend.services.knowledge.search(latestMarker, 3)
        expect(hits.map((hit) => hit.articleId)).toEqual([article.id])
      }
    }
    // An older version of an article is found nowhere.
    for (const server of [one, two]) expect(await server.backend.services.knowledge.search(marker(0, 0, 0), 3)).toEqual([])
  })
})
