import { randomBytes } from 'node:crypto'
import { performance } from 'node:perf_hooks'
import pg from 'pg'
import { openDatabase } from './backend/src/db/database'
import { migrate } from './backend/src/db/migrate'
import { knowledgeRepository } from './backend/src/modules/knowledge/knowledge.repository'
import { Bm25Index, knowledgeBaseBm25Parameters } from './backend/src/retrieval/bm25-index'
import { loadBeirDataset } from './bench/lib/beir-dataset'
import { chunkCorpusLikeIndexArticle } from './bench/lib/in-memory-product'
import { seedChunks } from './bench/lib/seed-chunks'
const count = Number(process.argv[2] ?? 100000)
const schema = `prof_${randomBytes(4).toString('hex')}`
const admin = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/test' }); await admin.connect(); await admin.query(`CREATE SCHEMA ${schema}`)
const url = `postgres://postgres@127.0.0.1:5432/test?options=-c%20search_path%3D${schema}`
try {
  const db = await openDatabase({ url, dataDir: '' })
  await migrate(db)
  const dataset = await loadBeirDataset('/work/shared/datasets/scifact', 'test')
  let t = performance.now()
  await seedChunks(db, dataset.corpus, chunkCorpusLikeIndexArticle(dataset.corpus), count)
  console.log('seeded', count, ((performance.now() - t) / 1000).toFixed(1), 's')
  t = performance.now()
  const chunks = await knowledgeRepository.allIndexedChunks(db)
  const fetchS = (performance.now() - t) / 1000
  t = performance.now()
  const index = new Bm25Index(knowledgeBaseBm25Parameters)
  for (const chunk of chunks) index.add(chunk)
  const addS = (performance.now() - t) / 1000
  t = performance.now()
  index.prepare()
  const prepS = (performance.now() - t) / 1000
  console.log(JSON.stringify({ chunks: chunks.length, fetchS: fetchS.toFixed(1), addS: addS.toFixed(1), prepareS: prepS.toFixed(1), heapMB: (process.memoryUsage().heapUsed / 2 ** 20).toFixed(0) }))
  await db.close()
} finally { await admin.query(`DROP SCHEMA ${schema} CASCADE`); await admin.end() }
