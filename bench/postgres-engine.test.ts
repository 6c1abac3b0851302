import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BENCH_POSTGRES_URL, createPostgresEngine } from './lib/postgres-engine'

describe('the PostgreSQL ts_rank_cd peer', () => {
  const engine = createPostgresEngine(process.env.BENCH_DATABASE_URL ?? BENCH_POSTGRES_URL)

  beforeAll(async () => {
    await engine.index([
      { id: 'refunds', title: 'Refunds', text: 'Our refund policy: items can be returned within 30 days for a full refund.' },
      { id: 'cards', title: 'Library cards', text: 'You can get a library card at any branch desk with a photo ID.' },
      { id: 'email', title: 'E-mail', text: 'The newsletter is sent by e-mail every month.' },
    ])
  })

  afterAll(async () => {
    await engine.close?.()
  })

  it('finds nothing, without an error, for a question made only of stopwords', async () => {
    await expect(engine.search('What is it?', 10)).resolves.toEqual([])
    await expect(engine.search('?!', 10)).resolves.toEqual([])
  })

  it('ranks by the OR of the question\'s words', async () => {
    expect(await engine.search('What is the refund policy for the swimming pool?', 10)).toEqual(['refunds'])
    expect((await engine.search('library card or e-mail', 10)).sort()).toEqual(['cards', 'email'])
  })
})
