/**
 * How search latency, ingestion and /ask_qa latency grow with the corpus: 10k, 100k and 1M chunks grown from a BEIR dataset.
 *
 *   npm run bench:scale [-- --dataset DIR] [--sizes 10000,100000,1000000] [--pglite-sizes 10000,100000] [--sample 300]
 *                         [--ask-sizes 100000] [--ask-questions 300]
 *
 * In memory: the product's Bm25Index (defaults: BM25 + RM3 expansion, and plain BM25 for comparison) is built
 * from synthetic chunks at each size and timed on the dataset's test queries (top 10, one thread), p50 and p95.
 * On PGlite: `--sample` documents are published through the real path (article row + KnowledgeService.indexArticle,
 * one transaction each) into a database already holding N chunks, for chunks/s at that size. PGlite stops at
 * --pglite-sizes: a million chunks through PGlite would take hours here. /ask_qa: a PGlite database in a temporary
 * directory is seeded in bulk with --ask-sizes chunks (the state publishing leaves), the real backend (buildBackend, worker
 * in process) listens on 127.0.0.1, and --ask-questions test claims are asked one after another over HTTP, each waiting
 * for its answer: latency p50/p95/p99. Results: bench/results/<--out, default scale>.{md,json,svg}.
 *
 * Start: at each in-memory size the index is also bulk-loaded (Bm25IndexBuilder + Bm25Index.fromCompact), a
 * snapshot is written to a temporary file as KnowledgeService writes it (with the longest event-loop stall meanwhile),
 * and the index is loaded back from that file (read, checksum, decode, fromCompact, prepare): what a restart costs
 * instead of a rebuild. Memory is the process's RSS, heap and array buffers after a garbage collection, with only
 * that index alive.
 */
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import path from 'node:path'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { getHeapStatistics } from 'node:v8'
import { Bm25Index, Bm25IndexBuilder, knowledgeBaseBm25Parameters, type IndexedChunk, type ScoredChunk } from '../backend/src/retrieval/bm25-index'
import { decodeSnapshot, encodeSnapshot, readSnapshotFile, writeSnapshot } from '../backend/src/modules/knowledge/index-snapshot'
import { tokenize } from '../backend/src/retrieval/text'
import { buildBackend } from '../backend/src/app'
import { loadConfig } from '../backend/src/config'
import { openDatabase } from '../backend/src/db/database'
import { migrate } from '../backend/src/db/migrate'
import { articlesRepository } from '../backend/src/modules/articles/articles.repository'
import { KnowledgeService } from '../backend/src/modules/knowledge/knowledge.service'
import { loadBeirDataset } from './lib/beir-dataset'
import { createScaleChart, renderSvg, type ScalePoint } from './lib/charts'
import { chunkCorpusLikeIndexArticle, type CorpusChunk } from './lib/in-memory-product'
import { describeMachine, formatMarkdownTable, formatNumber, log, percentile } from './lib/report'
import { seedChunks } from './lib/seed-chunks'

const BENCH_DIRECTORY = path.dirname(fileURLToPath(import.meta.url))
const RESULTS_DIRECTORY = path.join(BENCH_DIRECTORY, 'results')
const HEAP_MEGABYTES = 14_000

// A million chunks need more than Node's default heap: run again with a larger one.
if (getHeapStatistics().heap_size_limit < HEAP_MEGABYTES * 2 ** 20 * 0.9) {
  const child = spawnSync(process.execPath, [`--max-old-space-size=${HEAP_MEGABYTES}`, '--expose-gc', '--import', 'tsx', fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
    stdio: 'inherit',
  })
  process.exit(child.status ?? 1)
}

const { values } = parseArgs({
  options: {
    dataset: { type: 'string', default: path.join(BENCH_DIRECTORY, '..', '..', 'shared', 'datasets', 'scifact') },
    sizes: { type: 'string', default: '10000,100000,1000000' },
    'pglite-sizes': { type: 'string', default: '10000' },
    sample: { type: 'string', default: '300' },
    'ask-sizes': { type: 'string', default: '100000' },
    'ask-questions': { type: 'string', default: '300' },
    out: { type: 'string', default: 'scale' },
  },
})
const loadAtStart = loadavg().map((value) => value.toFixed(1)).join(' / ')
const askSizes = (values['ask-sizes'] as string).split(',').filter(Boolean).map(Number)
const askQuestions = Number(values['ask-questions'])
const sizes = (values.sizes as string).split(',').filter(Boolean).map(Number)
const pgliteSizes = (values['pglite-sizes'] as string).split(',').filter(Boolean).map(Number)
const sampleSize = Number(values.sample)
const dataset = await loadBeirDataset(values.dataset as string, 'test')
const baseChunks = chunkCorpusLikeIndexArticle(dataset.corpus)
const queries = dataset.queries.map((query) => tokenize(query.text))
log(`${dataset.name}: ${baseChunks.length} base chunks, ${queries.length} test queries`)

/** A deterministic pseudo-random sequence, so every run grows the same corpus. */
function createRandom(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0
    return state / 2 ** 32
  }
}

/**
 * Synthetic chunk `id`: half of the terms of one base chunk and half of another's, so that copies are not
 * duplicates while the term distribution stays the dataset's. The vocabulary does not grow with the corpus,
 * so every posting list grows linearly: harder on the index than a real corpus, where new text brings new words.
 */
function createSyntheticChunk(id: number, random: () => number): IndexedChunk {
  if (id <= baseChunks.length) return baseChunks[id - 1] as CorpusChunk
  const first = baseChunks[Math.floor(random() * baseChunks.length)] as CorpusChunk
  const second = baseChunks[Math.floor(random() * baseChunks.length)] as CorpusChunk
  const terms: Record<string, number> = {}
  let length = 0
  for (const source of [first, second]) {
    for (const term in source.terms) {
      if (random() < 0.5) {
        const frequency = source.terms[term] as number
        terms[term] = (terms[term] ?? 0) + frequency
        length += frequency
      }
    }
  }
  return { chunkId: id, articleId: Math.ceil(id / 2), terms, length: Math.max(length, 1) }
}

interface SearchFigures {
  chunks: number
  series: string
  buildSeconds: number
  /** Latency in this process's CPU time (ms): what the search costs, whatever else runs on the machine. */
  p50: number
  p95: number
  /** Wall-clock latency (ms), inflated when other processes compete for the CPU. */
  wallP50: number
  wallP95: number
  queriesPerSecond: number
}

function timeQueries(index: Bm25Index): Omit<SearchFigures, 'chunks' | 'series' | 'buildSeconds'> {
  for (const terms of queries) index.search(terms, 10)
  const cpuTimes: number[] = []
  const wallTimes: number[] = []
  const started = performance.now()
  for (let pass = 0; pass < 2; pass += 1) {
    for (const terms of queries) {
      const wallBefore = performance.now()
      const cpuBefore = process.cpuUsage()
      index.search(terms, 10)
      const cpu = process.cpuUsage(cpuBefore)
      wallTimes.push(performance.now() - wallBefore)
      cpuTimes.push((cpu.user + cpu.system) / 1000)
    }
  }
  const seconds = (performance.now() - started) / 1000
  cpuTimes.sort((a, b) => a - b)
  wallTimes.sort((a, b) => a - b)
  return {
    p50: percentile(cpuTimes, 0.5),
    p95: percentile(cpuTimes, 0.95),
    wallP50: percentile(wallTimes, 0.5),
    wallP95: percentile(wallTimes, 0.95),
    queriesPerSecond: cpuTimes.length / seconds,
  }
}

const searchRows: SearchFigures[] = []

interface MemoryFigures {
  rssMegabytes: number
  heapUsedMegabytes: number
  arrayBuffersMegabytes: number
}

/** Memory after a full garbage collection (the benchmark runs with --expose-gc). */
function measureMemory(): MemoryFigures {
  ;(globalThis as { gc?: () => void }).gc?.()
  const usage = process.memoryUsage()
  return { rssMegabytes: usage.rss / 2 ** 20, heapUsedMegabytes: usage.heapUsed / 2 ** 20, arrayBuffersMegabytes: usage.arrayBuffers / 2 ** 20 }
}

interface StartFigures {
  chunks: number
  /** Chunks added one at a time (Bm25Index.add), as before bulk loading; posting arrays built on first search. */
  incrementalBuildSeconds: number
  incrementalMemory: MemoryFigures
  /** Bm25IndexBuilder + Bm25Index.fromCompact + prepare (every term's posting arrays and impacts built). */
  bulkBuildSeconds: number
  bulkMemory: MemoryFigures
  snapshotWriteSeconds: number
  /** The longest the event loop waited for a turn while the snapshot was written (monitorEventLoopDelay, ms). */
  snapshotLongestStallMilliseconds: number
  /** The same copy and encoding in one turn, as the snapshot was written before (ms): the stall that was. */
  oneTurnStallMilliseconds: number
  snapshotMegabytes: number
  /** Reading the snapshot file, checking its checksum, decoding it, fromCompact and prepare. */
  snapshotStartSeconds: number
  snapshotMemory: MemoryFigures
  /** Whether the index loaded from the snapshot returned the same top 10 (ids and scores) as the incremental one for every test query. */
  identicalResults: boolean
  loadAverage: string
}
const startRows: StartFigures[] = []
const snapshotDirectory = mkdtempSync(path.join(tmpdir(), 'kb-scale-snapshot-'))

interface IngestFigures {
  chunksBefore: number
  articles: number
  chunks: number
  chunksPerSecond: number
}
const ingestRows: IngestFigures[] = []
/** Documents published before the timed sample. */
const INGESTION_WARM_UP = 30

interface AskFigures {
  chunks: number
  questions: number
  answered: number
  p50: number
  p95: number
  p99: number
  /** CPU time of this process (backend, worker, PGlite and the client) per question, ms. */
  cpuPerQuestion: number
  loadBefore: string
  loadAfter: string
}
const askRows: AskFigures[] = []
const formatLoad = () => loadavg().map((value) => value.toFixed(1)).join(' / ')
for (const size of sizes) {
  log(`in memory: building ${formatNumber(size)} chunks …`)
  const random = createRandom(7)
  let withExpansion: Bm25Index | undefined = new Bm25Index(knowledgeBaseBm25Parameters)
  const started = performance.now()
  for (let id = 1; id <= size; id += 1) {
    ;(withExpansion as Bm25Index).add(createSyntheticChunk(id, random))
    if (id % 200_000 === 0) log(`  ${formatNumber(id)} chunks`)
  }
  const buildSeconds = (performance.now() - started) / 1000
  const incrementalMemory = measureMemory()
  const expanded = timeQueries(withExpansion as Bm25Index)
  searchRows.push({ chunks: size, series: 'BM25 + RM3 (product default)', buildSeconds, ...expanded })
  log(`  built in ${buildSeconds.toFixed(1)} s; BM25+RM3 p50 ${expanded.p50.toFixed(2)} ms, p95 ${expanded.p95.toFixed(2)} ms (CPU)`)
  const expected: ScoredChunk[][] = queries.map((terms) => (withExpansion as Bm25Index).search(terms, 10))
  withExpansion = undefined

  // Bulk load of the same chunks, then a snapshot of it written and loaded back.
  const startLoad = formatLoad()
  const bulkStarted = performance.now()
  const builder = new Bm25IndexBuilder()
  const bulkRandom = createRandom(7)
  for (let id = 1; id <= size; id += 1) builder.add(createSyntheticChunk(id, bulkRandom))
  let bulk: Bm25Index | undefined = Bm25Index.fromCompact(builder.finish(), knowledgeBaseBm25Parameters)
  bulk.prepare()
  const bulkBuildSeconds = (performance.now() - bulkStarted) / 1000
  const bulkMemory = measureMemory()
  log(`  bulk-loaded in ${bulkBuildSeconds.toFixed(1)} s, RSS ${bulkMemory.rssMegabytes.toFixed(0)} MiB`)
  const snapshotFile = path.join(snapshotDirectory, `keyword-index-${size}.snapshot`)
  // Written as KnowledgeService writes it: copied and encoded in slices, with turns of the event loop between them.
  const stalls = monitorEventLoopDelay({ resolution: 1 })
  stalls.enable()
  const writeStarted = performance.now()
  const snapshotBytes = await writeSnapshot(snapshotFile, bulk, { indexFormat: 0, database: 'bench', seq: size, lastChange: '' })
  const snapshotWriteSeconds = (performance.now() - writeStarted) / 1000
  stalls.disable()
  const snapshotLongestStallMilliseconds = stalls.max / 1e6
  const oneTurnStarted = performance.now()
  encodeSnapshot(bulk.toCompact(), { indexFormat: 0, database: 'bench', seq: size, lastChange: '' })
  const oneTurnStallMilliseconds = performance.now() - oneTurnStarted
  bulk = undefined
  measureMemory()
  const loadStarted = performance.now()
  const decoded = decodeSnapshot((await readSnapshotFile(snapshotFile)) as Buffer)
  if ('problem' in decoded) throw new Error(`The snapshot just written cannot be read: ${decoded.problem}`)
  let restarted: Bm25Index | undefined = Bm25Index.fromCompact(decoded.compact, knowledgeBaseBm25Parameters)
  restarted.prepare()
  const snapshotStartSeconds = (performance.now() - loadStarted) / 1000
  const snapshotMemory = measureMemory()
  const identicalResults = queries.every((terms, position) => JSON.stringify((restarted as Bm25Index).search(terms, 10)) === JSON.stringify(expected[position]))
  rmSync(snapshotFile, { force: true })
  startRows.push({
    chunks: size,
    incrementalBuildSeconds: buildSeconds,
    incrementalMemory,
    bulkBuildSeconds,
    bulkMemory,
    snapshotWriteSeconds,
    snapshotLongestStallMilliseconds,
    oneTurnStallMilliseconds,
    snapshotMegabytes: snapshotBytes / 2 ** 20,
    snapshotStartSeconds,
    snapshotMemory,
    identicalResults,
    loadAverage: `${startLoad} → ${formatLoad()}`,
  })
  log(`  snapshot ${(snapshotBytes / 2 ** 20).toFixed(0)} MiB written in ${snapshotWriteSeconds.toFixed(1)} s (longest stall ${snapshotLongestStallMilliseconds.toFixed(0)} ms, ${oneTurnStallMilliseconds.toFixed(0)} ms in one turn); start from it ${snapshotStartSeconds.toFixed(1)} s; same results: ${identicalResults}`)
  restarted = undefined

  // The same chunks, searched without expansion: bulk-loaded rather than kept, to stay within memory at 1M.
  const plainBuilder = new Bm25IndexBuilder()
  const again = createRandom(7)
  for (let id = 1; id <= size; id += 1) plainBuilder.add(createSyntheticChunk(id, again))
  const plain = Bm25Index.fromCompact(plainBuilder.finish(), knowledgeBaseBm25Parameters, false)
  const figures = timeQueries(plain)
  searchRows.push({ chunks: size, series: 'plain BM25', buildSeconds, ...figures })
  log(`  plain BM25 p50 ${figures.p50.toFixed(2)} ms, p95 ${figures.p95.toFixed(2)} ms (CPU)`)
  await writeResults(false)
}
rmSync(snapshotDirectory, { recursive: true, force: true })

for (const size of pgliteSizes) {
  log(`PGlite: seeding ${formatNumber(size)} chunks in bulk, then publishing ${sampleSize} documents through indexArticle …`)
  const db = await openDatabase({ url: 'memory://', dataDir: '' })
  try {
    await migrate(db)
    await seedChunks(db, dataset.corpus, baseChunks, size)
    const knowledge = new KnowledgeService(db)
    const publish = (document: (typeof dataset.corpus)[number]) =>
      db.transaction(async (tx) => {
        const id = await articlesRepository.insertArticle(tx, { title: document.title, content: document.text, metadata: {} })
        return knowledge.indexArticle(tx, { id, title: document.title, content: document.text })
      })
    // Not timed: the first publications pay for compiling the code and the database's query plans.
    for (const document of dataset.corpus.slice(sampleSize, sampleSize + INGESTION_WARM_UP)) await publish(document)
    const sample = dataset.corpus.slice(0, sampleSize)
    let chunks = 0
    const started = performance.now()
    for (const document of sample) chunks += await publish(document)
    const seconds = (performance.now() - started) / 1000
    ingestRows.push({ chunksBefore: size, articles: sample.length, chunks, chunksPerSecond: chunks / seconds })
    log(`  ${chunks} chunks in ${seconds.toFixed(1)} s = ${formatNumber(chunks / seconds)} chunks/s`)
    await writeResults(false)
  } finally {
    await db.close()
  }
}

const ASK_API_KEY = 'bench-api-key-0123456789'
const ASK_ADMIN_PASSWORD = 'bench-admin-password'

for (const size of askSizes) {
  log(`/ask_qa on PGlite: seeding ${formatNumber(size)} chunks in bulk, then starting the backend …`)
  const dataDir = mkdtempSync(path.join(tmpdir(), 'kb-scale-ask-'))
  try {
    const seedDatabase = await openDatabase({ dataDir })
    await migrate(seedDatabase)
    await seedChunks(seedDatabase, dataset.corpus, baseChunks, size)
    await seedDatabase.close()
    const config = loadConfig({
      API_KEY: ASK_API_KEY,
      API_PORT: '0',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      LOAD_DEMO_CONTENT: 'false',
      ADMIN_PASSWORD: ASK_ADMIN_PASSWORD,
      TOKEN_SECRET: 'bench-token-secret-bench-token-secret-0123',
      // The latency runs ask as one account, far past the per-account limit on asking.
      ASK_RATE_LIMIT: '0',
    })
    const started = performance.now()
    const backend = await buildBackend(config)
    log(`  backend ready with ${formatNumber(backend.services.knowledge.chunkCount)} chunks in ${((performance.now() - started) / 1000).toFixed(1)} s`)
    try {
      const url = await backend.app.listen({ host: '127.0.0.1', port: 0 })
      const session = (await (
        await fetch(`${url}/auth/login`, {
          method: 'POST',
          headers: { apikey: ASK_API_KEY, 'content-type': 'application/json' },
          body: JSON.stringify({ username: config.ADMIN_USERNAME, password: ASK_ADMIN_PASSWORD }),
        })
      ).json()) as { access_token?: string }
      const headers = { apikey: ASK_API_KEY, authorization: `Bearer ${session.access_token}`, 'content-type': 'application/json' }
      const ask = async (command: string) => {
        const response = await fetch(`${url}/ask_qa`, { method: 'POST', headers, body: JSON.stringify({ command }) })
        const answer = (await response.json()) as { status?: string; found?: boolean }
        if (!response.ok || answer.status !== 'finished') throw new Error(`/ask_qa answered ${response.status} ${JSON.stringify(answer).slice(0, 200)}`)
        return answer.found === true
      }
      const claims = dataset.queries.map((query) => query.text)
      // A warm-up pass over other questions builds the posting arrays the first questions would otherwise pay for.
      for (const claim of claims.slice(-20)) await ask(claim)
      const loadBefore = formatLoad()
      const latencies: number[] = []
      let answered = 0
      const cpuStarted = process.cpuUsage()
      for (let position = 0; position < askQuestions; position += 1) {
        const before = performance.now()
        if (await ask(claims[position % claims.length] as string)) answered += 1
        latencies.push(performance.now() - before)
      }
      const cpu = process.cpuUsage(cpuStarted)
      latencies.sort((a, b) => a - b)
      const row: AskFigures = {
        chunks: backend.services.knowledge.chunkCount,
        questions: askQuestions,
        answered,
        p50: percentile(latencies, 0.5),
        p95: percentile(latencies, 0.95),
        p99: percentile(latencies, 0.99),
        cpuPerQuestion: (cpu.user + cpu.system) / 1000 / askQuestions,
        loadBefore,
        loadAfter: formatLoad(),
      }
      askRows.push(row)
      log(`  ${askQuestions} questions: p50 ${row.p50.toFixed(1)} ms, p95 ${row.p95.toFixed(1)} ms, p99 ${row.p99.toFixed(1)} ms; ${answered} answered from the knowledge base`)
      await writeResults(false)
    } finally {
      await backend.close()
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
}

/** Log-log slope between the smallest and largest size: 1 is linear growth, below 1 sublinear. */
function growthExponent(series: string): number {
  const rows = searchRows.filter((row) => row.series === series)
  const first = rows[0] as SearchFigures
  const last = rows[rows.length - 1] as SearchFigures
  if (rows.length < 2) return Number.NaN
  return Math.log(last.p50 / first.p50) / Math.log(last.chunks / first.chunks)
}

/** Writes the results so far; runs after every size, so an interrupted run still leaves its measurements. */
async function writeResults(isFinal: boolean): Promise<void> {
const seriesNames = [...new Set(searchRows.map((row) => row.series))]
const exponents = seriesNames.map((series) => `${series}: ${growthExponent(series).toFixed(2)}`).join('; ')
const report = [
  '# Scale: search latency and ingestion by corpus size',
  '',
  `Machine: ${describeMachine()}; load average ${loadAtStart} at the start.`,
  '',
  `Synthetic chunks grown from ${dataset.name} (each mixes half the terms of two real chunks; the vocabulary stays the dataset's). ` +
    `Latency: Bm25Index.search, top 10, the ${queries.length} test queries twice after a warm-up pass, one thread; ` +
    'CPU time is what this process spent on each query (process.cpuUsage), which other processes on a shared machine do not inflate; wall clock is shown beside it.',
  '',
  formatMarkdownTable(
    ['chunks', 'search', 'in-memory build (s)', 'p50 ms (CPU)', 'p95 ms (CPU)', 'p50 ms (wall)', 'p95 ms (wall)', 'queries/s (wall)'],
    searchRows.map((row) => [
      formatNumber(row.chunks),
      row.series,
      row.buildSeconds.toFixed(1),
      row.p50.toFixed(2),
      row.p95.toFixed(2),
      row.wallP50.toFixed(2),
      row.wallP95.toFixed(2),
      formatNumber(row.queriesPerSecond),
    ]),
  ),
  '',
  '## Start: rebuild, bulk load and snapshot',
  '',
  'The same synthetic chunks at each size: built one chunk at a time with Bm25Index.add (the former start), bulk-loaded (Bm25IndexBuilder + ' +
    'Bm25Index.fromCompact + prepare, which also builds every posting list\'s arrays and impacts), written as a snapshot file as KnowledgeService writes it ' +
    '(writeSnapshot: copy, encode and SHA-256 in slices with a turn of the event loop between them, then write, fsync, rename; "longest stall" is the longest ' +
    'the event loop waited for a turn meanwhile, by monitorEventLoopDelay; "in one turn" is the same copy and encoding without slices, as the snapshot was written ' +
    'before: the process answered nothing that long), and loaded back from that file (read, checksum, decode, fromCompact, prepare): what a restart costs before it ' +
    'replays the changes logged after the snapshot. Memory after a full garbage collection with only that index alive (the add-built index before its ' +
    'first search, so without its posting arrays). "Same results": the index loaded from the snapshot returned the same top 10, ids and scores, as the add-built one for every test query.',
  '',
  formatMarkdownTable(
    ['chunks', 'build with add (s)', 'bulk load (s)', 'snapshot write (s)', 'longest stall during the write (ms)', 'copy and encoding in one turn (ms)', 'snapshot size (MiB)', 'start from snapshot (s)', 'same results', 'RSS / heap / array buffers after add build (MiB)', 'after bulk load (MiB)', 'after start from snapshot (MiB)', 'load average (start → end)'],
    startRows.map((row) => {
      const memory = (figures: MemoryFigures) => `${figures.rssMegabytes.toFixed(0)} / ${figures.heapUsedMegabytes.toFixed(0)} / ${figures.arrayBuffersMegabytes.toFixed(0)}`
      return [
        formatNumber(row.chunks),
        row.incrementalBuildSeconds.toFixed(1),
        row.bulkBuildSeconds.toFixed(1),
        row.snapshotWriteSeconds.toFixed(1),
        row.snapshotLongestStallMilliseconds.toFixed(0),
        row.oneTurnStallMilliseconds.toFixed(0),
        row.snapshotMegabytes.toFixed(0),
        row.snapshotStartSeconds.toFixed(1),
        row.identicalResults ? 'yes' : 'NO',
        memory(row.incrementalMemory),
        memory(row.bulkMemory),
        memory(row.snapshotMemory),
        row.loadAverage,
      ]
    }),
  ),
  '',
  `Growth exponent of p50 CPU latency (log-log slope from the smallest to the largest size measured; 1 = linear): ${exponents}.`,
  '',
  `Ingestion through the product on PGlite (memory://): a database is first seeded in bulk with N chunks, then documents are published one transaction each (article row + KnowledgeService.indexArticle), timed after ${INGESTION_WARM_UP} untimed ones.`,
  '',
  formatMarkdownTable(
    ['chunks already stored', 'documents published', 'chunks written', 'chunks/s'],
    ingestRows.map((row) => [formatNumber(row.chunksBefore), row.articles, row.chunks, formatNumber(row.chunksPerSecond)]),
  ),
  '',
  `Sizes measured on PGlite: ${pgliteSizes.map((size) => formatNumber(size)).join(', ')}. Larger sizes are measured in memory only.`,
  '',
  '/ask_qa through the real backend on PGlite (files in a temporary directory, seeded in bulk; worker in the same process): ' +
    'test claims asked one after another over HTTP on 127.0.0.1, each request waiting for its answer (answered in the server process and logged in one write, ADR 140: ' +
    'KnowledgeService.search, extractive answer with citations), after 20 warm-up questions. Load average (1 / 5 / 15 min) at the start and end of the timed questions.',
  '',
  formatMarkdownTable(
    ['chunks', 'questions', 'answered from the knowledge base', 'p50 ms', 'p95 ms', 'p99 ms', 'CPU ms per question', 'load average before', 'load average after'],
    askRows.map((row) => [
      formatNumber(row.chunks),
      row.questions,
      row.answered,
      row.p50.toFixed(1),
      row.p95.toFixed(1),
      row.p99.toFixed(1),
      row.cpuPerQuestion.toFixed(1),
      row.loadBefore,
      row.loadAfter,
    ]),
  ),
  ...(isFinal ? [] : ['', '**Partial results: the run had not finished when this file was written.**']),
].join('\n')
mkdirSync(RESULTS_DIRECTORY, { recursive: true })
writeFileSync(path.join(RESULTS_DIRECTORY, `${values.out}.md`), `${report}\n`)
writeFileSync(path.join(RESULTS_DIRECTORY, `${values.out}.json`), JSON.stringify({ machine: describeMachine(), searchRows, startRows, ingestRows, askRows }, null, 2))
const points: ScalePoint[] = searchRows.flatMap((row) => [
  { chunks: row.chunks, milliseconds: row.p50, series: `${row.series} p50` },
  { chunks: row.chunks, milliseconds: row.p95, series: `${row.series} p95` },
])
const smallest = searchRows[0] as SearchFigures | undefined
if (smallest) for (const size of sizes.filter((size) => searchRows.some((row) => row.chunks === size))) points.push({ chunks: size, milliseconds: smallest.p50 * (size / smallest.chunks), series: 'linear growth (reference)' })
if (points.length > 0) writeFileSync(path.join(RESULTS_DIRECTORY, `${values.out}.svg`), await renderSvg(createScaleChart('Search latency (CPU time per query) by corpus size, log-log', points)))
if (isFinal) console.log(`\n${report}`)
}

await writeResults(true)
