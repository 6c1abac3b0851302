/**
 * A child process for bench/load.ts: seeds a database, starts the real backend (buildBackend) on 127.0.0.1 at
 * a random port and prints one JSON line { url, token, chunks }. It stops when its standard input closes.
 * Usage: tsx bench/lib/load-server.ts '{"databaseUrl": "...", "dataDir": "...", "corpus": "...", "chunks": 100000}'
 */
import { buildBackend } from '../../backend/src/app'
import { loadConfig } from '../../backend/src/config'
import { openDatabase } from '../../backend/src/db/database'
import { migrate } from '../../backend/src/db/migrate'
import { loadBeirDataset } from './beir-dataset'
import { chunkCorpusLikeIndexArticle } from './in-memory-product'
import { seedChunks } from './seed-chunks'

export const LOAD_API_KEY = 'bench-api-key-0123456789'
export const LOAD_ADMIN_PASSWORD = 'bench-admin-password'

interface ServerOptions {
  databaseUrl?: string
  dataDir: string
  corpus: string
  /** Chunks to seed, grown from the corpus; the corpus once when absent. */
  chunks?: number
}

const options = JSON.parse(process.argv[2] ?? '{}') as ServerOptions
const dataset = await loadBeirDataset(options.corpus, 'test')
const seedDatabase = await openDatabase({ url: options.databaseUrl, dataDir: options.dataDir })
await migrate(seedDatabase)
const corpusChunks = chunkCorpusLikeIndexArticle(dataset.corpus)
const seeded = await seedChunks(seedDatabase, dataset.corpus, corpusChunks, options.chunks ?? corpusChunks.length)
await seedDatabase.close()

const config = loadConfig({
  API_KEY: LOAD_API_KEY,
  API_PORT: '0',
  DATA_DIR: options.dataDir,
  DATABASE_URL: options.databaseUrl,
  LOG_LEVEL: 'silent',
  LOAD_DEMO_CONTENT: 'false',
  ADMIN_PASSWORD: LOAD_ADMIN_PASSWORD,
  TOKEN_SECRET: 'bench-token-secret-bench-token-secret-0123',
  // autocannon asks as one account, far past the per-account limit on asking.
  ASK_RATE_LIMIT: '0',
})
const backend = await buildBackend(config)
const url = await backend.app.listen({ host: '127.0.0.1', port: 0 })
const response = await fetch(`${url}/auth/login`, {
  method: 'POST',
  headers: { apikey: LOAD_API_KEY, 'content-type': 'application/json' },
  body: JSON.stringify({ username: config.ADMIN_USERNAME, password: LOAD_ADMIN_PASSWORD }),
})
const session = (await response.json()) as { access_token?: string }
if (!session.access_token) throw new Error(`sign-in failed: ${JSON.stringify(session)}`)
process.stdout.write(`${JSON.stringify({ url, token: session.access_token, chunks: backend.services.knowledge.chunkCount, seeded })}\n`)

process.stdin.resume()
process.stdin.on('end', () => {
  void backend.close().then(() => process.exit(0))
})
