import { randomBytes } from 'node:crypto'
import pg from 'pg'
import type { CorpusDocument } from './beir-dataset'
import type { SearchEngine } from './peer-engines'

export const BENCH_POSTGRES_URL = 'postgres://postgres@127.0.0.1:5432/test'

/** Whether the PostgreSQL server answers; the reason when it does not. */
export async function probePostgres(url: string): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 })
  try {
    await client.connect()
    await client.end()
    return undefined
  } catch (error) {
    return (error as Error).message
  }
}

/**
 * PostgreSQL full-text search as its manual shows it: a weighted tsvector (title A, text B) with a GIN index,
 * ranked by ts_rank_cd. The query's lexemes are OR-ed: an AND of every word of a sentence-long claim matches
 * almost nothing. Everything lives in a fresh schema that close() drops.
 */
export function createPostgresEngine(url: string): SearchEngine {
  const schema = `bench_${randomBytes(5).toString('hex')}`
  const client = new pg.Client({ connectionString: url })
  let isConnected = false
  return {
    name: 'PostgreSQL ts_rank_cd',
    configuration: "PostgreSQL 15 'english' config: setweight(title,'A') || setweight(text,'B'), GIN index, OR of plainto_tsquery lexemes (a question of stopwords only: no results), ORDER BY ts_rank_cd",
    async index(corpus) {
      await client.connect()
      isConnected = true
      await client.query(`CREATE SCHEMA ${schema}`)
      await client.query(`SET search_path TO ${schema}`)
      await client.query(`CREATE TABLE documents (id text PRIMARY KEY, title text NOT NULL, body text NOT NULL, search tsvector)`)
      const batch = 500
      for (let start = 0; start < corpus.length; start += batch) {
        const rows = corpus.slice(start, start + batch)
        await client.query(`INSERT INTO documents (id, title, body) SELECT * FROM unnest($1::text[], $2::text[], $3::text[])`, [
          rows.map((row) => row.id),
          rows.map((row) => row.title),
          rows.map((row) => row.text),
        ])
      }
      await client.query(`UPDATE documents SET search = setweight(to_tsvector('english', title), 'A') || setweight(to_tsvector('english', body), 'B')`)
      await client.query(`CREATE INDEX documents_search_idx ON documents USING gin (search)`)
      await client.query(`ANALYZE documents`)
    },
    async search(query, limit) {
      // A question made only of stopwords gives the empty text, which to_tsquery reads as the empty query (it
      // matches nothing): no special case, and never the quoted empty lexeme '' that is a tsquery syntax error.
      const result = await client.query<{ id: string }>(
        `WITH q AS (SELECT to_tsquery('english', replace(plainto_tsquery('english', $1)::text, ' & ', ' | ')) AS query)
         SELECT d.id FROM documents d, q WHERE d.search @@ q.query ORDER BY ts_rank_cd(d.search, q.query) DESC, d.id LIMIT $2`,
        [query, limit],
      )
      return result.rows.map((row) => row.id)
    },
    async close() {
      if (!isConnected) return
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => undefined)
      await client.end()
    },
  }
}
