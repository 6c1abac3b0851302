/**
 * Ingestion throughput through the product's real code, on PGlite and on the PostgreSQL server, loopback only.
 *
 *   npm run bench:ingest [-- --pages 150] [--sections 120] [--picture-every 8] [--repeat 3] [--storage pglite,postgres] [--postgres URL]
 *
 * For each storage the real backend (buildBackend, worker in the same process) listens on 127.0.0.1 and is driven
 * over HTTP as the web app drives it:
 *   1. crawl: POST /admin/crawl of the local fixture site (tests/fixtures/fixture-site.ts, --pages generated articles
 *      of about 2,000 characters behind one index page) until the crawl job ends: pages per second;
 *   2. upload: POST /admin/upload_recovery of one long PDF and one long DOCX (--sections of generated prose), each
 *      once as text only and once with a photo-sized picture every --picture-every sections, each uploaded --repeat
 *      times: MB and characters per second of the upload job (text extraction and the draft's transaction), median;
 *   3. publish: POST /admin/do_embeddings of the crawl's drafts, then of the documents' drafts (the publish job:
 *      chunking, stems and the index rows): chunks per second.
 * Rates are over the job's own time (created_at to finished_at in the jobs table); the time from the request to the
 * end of the job is given too. Results: bench/results/ingest.md and ingest.json.
 */
import { randomBytes } from 'node:crypto'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, tmpdir, totalmem } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import pg from 'pg'
import { PDFDocument } from 'pdf-lib'
import { buildBackend, type Backend } from '../backend/src/app'
import { loadConfig } from '../backend/src/config'
import { startFixtureSite, type FixtureSite } from '../tests/fixtures/fixture-site'
import { makeLongDocx, makeLongPdf, makeSampleDocx, makeSamplePdf } from '../tests/fixtures/sample-files'
import { BENCH_POSTGRES_URL, probePostgres } from './lib/postgres-engine'
import { formatMarkdownTable, formatNumber, log } from './lib/report'

const BENCH_DIRECTORY = path.dirname(fileURLToPath(import.meta.url))
const RESULTS_DIRECTORY = path.join(BENCH_DIRECTORY, 'results')
const API_KEY = 'bench-api-key-0123456789'
const ADMIN_PASSWORD = 'bench-admin-password'
const MEGABYTE = 2 ** 20
const JOB_TIMEOUT_MS = 30 * 60_000

const { values } = parseArgs({
  options: {
    pages: { type: 'string', default: '150' },
    sections: { type: 'string', default: '120' },
    'picture-every': { type: 'string', default: '8' },
    repeat: { type: 'string', default: '3' },
    storage: { type: 'string', default: 'pglite,postgres' },
    postgres: { type: 'string', default: process.env.BENCH_DATABASE_URL ?? BENCH_POSTGRES_URL },
  },
})
const generatedPageCount = Number(values.pages)
const sectionCount = Number(values.sections)
const pictureEvery = Number(values['picture-every'])
const uploadRepeats = Math.max(1, Number(values.repeat))
const storages = (values.storage as string).split(',').filter(Boolean) as Array<'pglite' | 'postgres'>

type Storage = 'pglite' | 'postgres'

interface CrawlRow {
  storage: Storage
  pagesFetched: number
  drafts: number
  failed: number
  jobSeconds: number
  requestToEndSeconds: number
  pagesPerSecond: number
  cpuSeconds: number
}

interface UploadRow {
  storage: Storage
  file: string
  format: 'pdf' | 'docx'
  megabytes: number
  pdfPages: number | null
  textCharacters: number
  /** Each upload's job time; the rates use the median. */
  jobSecondsPerRun: number[]
  jobSeconds: number
  requestToEndSeconds: number
  megabytesPerSecond: number
  kiloCharactersPerSecond: number
  cpuSeconds: number
}

interface PublishRow {
  storage: Storage
  drafts: string
  articles: number
  chunks: number
  jobSeconds: number
  requestToEndSeconds: number
  chunksPerSecond: number
  cpuSeconds: number
}

interface SampleFile {
  name: string
  format: 'pdf' | 'docx'
  contentType: string
  bytes: Uint8Array
  pdfPages: number | null
}

/** A running backend with an administrator's token, on a storage that is thrown away afterwards. */
interface BenchBackend {
  backend: Backend
  baseUrl: string
  call(pathAndQuery: string, init?: { method?: string; body?: unknown; form?: FormData }): Promise<any>
  stop(): Promise<void>
}

const cpuSecondsSince = (start: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(start)
  return (used.user + used.system) / 1e6
}

/** A fresh schema on the PostgreSQL server (dropped by the returned function), so tests' tables are never touched. */
async function createFreshSchema(serverUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const schema = `bench_ingest_${randomBytes(5).toString('hex')}`
  const run = async (sql: string) => {
    const client = new pg.Client({ connectionString: serverUrl })
    await client.connect()
    try {
      await client.query(sql)
    } finally {
      await client.end()
    }
  }
  await run(`CREATE SCHEMA ${schema}`)
  const url = new URL(serverUrl)
  url.searchParams.set('options', `-c search_path=${schema}`)
  return { url: url.toString(), drop: () => run(`DROP SCHEMA ${schema} CASCADE`) }
}

async function startBackend(storage: Storage, site: FixtureSite): Promise<BenchBackend> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'kb-bench-ingest-'))
  const schema = storage === 'postgres' ? await createFreshSchema(values.postgres as string) : undefined
  const config = loadConfig({
    API_KEY,
    API_PORT: '0',
    DATA_DIR: dataDir,
    DATABASE_URL: schema?.url,
    LOG_LEVEL: 'silent',
    LOAD_DEMO_CONTENT: 'false',
    ADMIN_PASSWORD,
    TOKEN_SECRET: 'bench-token-secret-bench-token-secret-0123',
    JOB_POLL_MS: '100',
    // The SSRF guard lets through the fixture site only; the transcript service points there too, never outside.
    FETCH_ALLOW_HOSTS: `127.0.0.1:${site.port}`,
    YOUTUBE_TRANSCRIPT_BASE_URL: site.baseUrl,
    CRAWL_MAX_PAGES: String(Math.max(500, generatedPageCount + 10)),
    // Answer uploads at once: the benchmark waits for the job itself.
    UPLOAD_WAIT_MS: '0',
  })
  const removeStorage = async () => {
    await schema?.drop()
    rmSync(dataDir, { recursive: true, force: true })
  }
  const backend = await buildBackend(config).catch(async (error) => {
    await removeStorage()
    throw error
  })
  const baseUrl = await backend.app.listen({ host: '127.0.0.1', port: 0 })
  const signIn = await fetch(`${baseUrl}/auth/login`, {
    method: 'POST',
    headers: { apikey: API_KEY, 'content-type': 'application/json' },
    body: JSON.stringify({ username: config.ADMIN_USERNAME, password: ADMIN_PASSWORD }),
  })
  const { access_token: token } = (await signIn.json()) as { access_token?: string }
  if (!token) throw new Error(`sign-in failed with HTTP ${signIn.status}`)
  return {
    backend,
    baseUrl,
    async call(pathAndQuery, init = {}) {
      const headers: Record<string, string> = { apikey: API_KEY, authorization: `Bearer ${token}` }
      if (init.body !== undefined) headers['content-type'] = 'application/json'
      const response = await fetch(`${baseUrl}${pathAndQuery}`, {
        method: init.method ?? 'GET',
        headers,
        body: init.form ?? (init.body === undefined ? undefined : JSON.stringify(init.body)),
      })
      const answer = await response.json()
      if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${pathAndQuery} answered HTTP ${response.status}: ${JSON.stringify(answer)}`)
      return answer
    },
    async stop() {
      await backend.close().catch(() => undefined)
      await removeStorage()
    },
  }
}

/** Waits for a job to end (the worker runs in this process, so the end is seen at once) and returns its own duration. */
async function settleJob(server: BenchBackend, taskId: string): Promise<{ status: string; error: string | null; jobSeconds: number }> {
  const job = await server.backend.jobs.waitFor(taskId, JOB_TIMEOUT_MS)
  if (!job || !['finished', 'failed', 'cancelled'].includes(job.status)) throw new Error(`job ${taskId} did not end within ${JOB_TIMEOUT_MS / 60_000} minutes`)
  const [row] = await server.backend.db.query<{ seconds: number | string }>(
    `SELECT EXTRACT(EPOCH FROM (finished_at - created_at)) AS seconds FROM jobs WHERE id = $1`,
    [taskId],
  )
  return { status: job.status, error: job.error, jobSeconds: Number(row?.seconds) }
}

async function measureCrawl(storage: Storage, server: BenchBackend, site: FixtureSite): Promise<{ row: CrawlRow; draftIds: number[] }> {
  const cpu = process.cpuUsage()
  const started = performance.now()
  // The index links to every article (depth 1) and to the site's menu: home and two guides, also crawled.
  const answer = await server.call('/admin/crawl', { method: 'POST', body: { start_url: `${site.baseUrl}/generated/`, max_depth: 1, max_pages: generatedPageCount + 10 } })
  const job = await settleJob(server, answer.task_id)
  const requestToEndSeconds = (performance.now() - started) / 1000
  const cpuSeconds = cpuSecondsSince(cpu)
  const progress = await server.call(`/admin/ingest_jobs/${answer.task_id}`)
  if (job.status !== 'finished') throw new Error(`the crawl ended ${job.status}: ${job.error}`)
  const pages = progress.pages as Array<{ status: string; draft_id: number | null }>
  const drafts = pages.filter((page) => page.status === 'imported')
  const fetched = pages.filter((page) => ['imported', 'visited', 'failed'].includes(page.status)).length
  if (drafts.length < generatedPageCount) throw new Error(`the crawl made ${drafts.length} drafts, fewer than the ${generatedPageCount} generated pages: ${progress.message}`)
  return {
    row: {
      storage,
      pagesFetched: fetched,
      drafts: drafts.length,
      failed: pages.filter((page) => page.status === 'failed').length,
      jobSeconds: job.jobSeconds,
      requestToEndSeconds,
      pagesPerSecond: fetched / job.jobSeconds,
      cpuSeconds,
    },
    draftIds: drafts.map((page) => page.draft_id as number),
  }
}

/** Uploads the file `uploadRepeats` times (each a job of its own, each a draft); rates from the median job time. */
async function measureUpload(storage: Storage, server: BenchBackend, file: SampleFile): Promise<{ row: UploadRow; draftIds: number[] }> {
  const runs: Array<{ jobSeconds: number; requestToEndSeconds: number; cpuSeconds: number; textCharacters: number }> = []
  const draftIds: number[] = []
  for (let run = 0; run < uploadRepeats; run++) {
    const form = new FormData()
    form.append('files', new Blob([new Uint8Array(file.bytes)], { type: file.contentType }), file.name)
    const cpu = process.cpuUsage()
    const started = performance.now()
    const answer = await server.call('/admin/upload_recovery', { method: 'POST', form })
    const job = await settleJob(server, answer.task_id)
    const requestToEndSeconds = (performance.now() - started) / 1000
    const cpuSeconds = cpuSecondsSince(cpu)
    const progress = await server.call(`/admin/ingest_jobs/${answer.task_id}`)
    const [result] = progress.files as Array<{ status: string; draft_ids: number[]; error: string | null }>
    if (job.status !== 'finished' || result?.status !== 'imported') throw new Error(`${file.name} was not imported: ${result?.error ?? job.error}`)
    if (result.draft_ids.length === 0) throw new Error(`${file.name} made no draft: ${progress.message}`)
    const draft = await server.call(`/admin/get_temp_content?id=${result.draft_ids[0]}`)
    runs.push({ jobSeconds: job.jobSeconds, requestToEndSeconds, cpuSeconds, textCharacters: (draft.content as string).length })
    draftIds.push(...result.draft_ids)
    // Renamed, so that the next upload of the same text (this file again, or its twin in another format or with pictures)
    // is not already in the knowledge base, which would make no draft (ADR 311): each run reads and saves a draft.
    await server.call('/admin/update_temp_doc', { method: 'PUT', body: { id: draft.id, title: `${draft.title} (${file.name}, upload ${run + 1})` } })
  }
  const median = runs.slice().sort((a, b) => a.jobSeconds - b.jobSeconds)[Math.floor(runs.length / 2)]!
  const megabytes = file.bytes.length / MEGABYTE
  return {
    row: {
      storage,
      file: file.name,
      format: file.format,
      megabytes,
      pdfPages: file.pdfPages,
      textCharacters: median.textCharacters,
      jobSecondsPerRun: runs.map((run) => run.jobSeconds),
      jobSeconds: median.jobSeconds,
      requestToEndSeconds: median.requestToEndSeconds,
      megabytesPerSecond: megabytes / median.jobSeconds,
      kiloCharactersPerSecond: median.textCharacters / 1000 / median.jobSeconds,
      cpuSeconds: median.cpuSeconds,
    },
    draftIds,
  }
}

async function measurePublish(storage: Storage, server: BenchBackend, label: string, draftIds: number[]): Promise<PublishRow> {
  const cpu = process.cpuUsage()
  const started = performance.now()
  const answer = await server.call('/admin/do_embeddings', { method: 'POST', body: { ids: draftIds } })
  const job = await settleJob(server, answer.task_id)
  const requestToEndSeconds = (performance.now() - started) / 1000
  const cpuSeconds = cpuSecondsSince(cpu)
  const progress = await server.call(`/admin/check_embeddings?task_id=${answer.task_id}`)
  if (job.status !== 'finished' || progress.failed.length) throw new Error(`publishing ${label} ended ${job.status}: ${progress.message}`)
  const articleIds = (progress.published as Array<{ article_id: number }>).map((entry) => entry.article_id)
  const [count] = await server.backend.db.query<{ chunks: number | string }>(`SELECT count(*) AS chunks FROM chunks WHERE article_id = ANY($1::int[])`, [articleIds])
  const chunks = Number(count?.chunks)
  return { storage, drafts: label, articles: articleIds.length, chunks, jobSeconds: job.jobSeconds, requestToEndSeconds, chunksPerSecond: chunks / job.jobSeconds, cpuSeconds }
}

/** One small crawl and upload, untimed, so that module loading and the first compilations are not measured. */
async function warmUp(server: BenchBackend, site: FixtureSite): Promise<void> {
  const crawl = await server.call('/admin/crawl', { method: 'POST', body: { start_url: `${site.baseUrl}/guide/composting`, max_depth: 0, max_pages: 1 } })
  await settleJob(server, crawl.task_id)
  const form = new FormData()
  form.append('files', new Blob([new Uint8Array(await makeSamplePdf())], { type: 'application/pdf' }), 'basil.pdf')
  form.append('files', new Blob([new Uint8Array(await makeSampleDocx())], { type: 'application/octet-stream' }), 'basil.docx')
  const upload = await server.call('/admin/upload_recovery', { method: 'POST', form })
  await settleJob(server, upload.task_id)
}

async function makeSampleFiles(): Promise<SampleFile[]> {
  const files: SampleFile[] = []
  for (const withPictures of [false, true]) {
    const options = { sections: sectionCount, pictureEvery: withPictures ? pictureEvery : undefined }
    const suffix = withPictures ? 'with-pictures' : 'text-only'
    const pdf = await makeLongPdf('Garden handbook', options)
    const pdfPages = (await PDFDocument.load(pdf)).getPageCount()
    files.push({ name: `handbook-${suffix}.pdf`, format: 'pdf', contentType: 'application/pdf', bytes: pdf, pdfPages })
    files.push({
      name: `handbook-${suffix}.docx`,
      format: 'docx',
      contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      bytes: await makeLongDocx('Garden handbook', options),
      pdfPages: null,
    })
  }
  return files
}

const formatSeconds = (seconds: number) => formatNumber(seconds, seconds < 10 ? 2 : 1)
const formatLoad = (load: number[]) => load.map((value) => value.toFixed(2)).join(' / ')

function renderMarkdown(report: {
  machine: { cpuModel: string; cores: number; memoryGiB: number; node: string; platform: string; loadAverageStart: number[]; loadAverageEnd: number[]; date: string }
  settings: Record<string, number | string>
  skipped: string[]
  crawl: CrawlRow[]
  uploads: UploadRow[]
  publishing: PublishRow[]
}): string {
  const { machine } = report
  const storageName = (storage: Storage) => (storage === 'pglite' ? 'PGlite' : 'PostgreSQL')
  return `# Ingestion throughput

Run on ${machine.date} UTC: ${machine.cores} × ${machine.cpuModel}, ${machine.memoryGiB} GiB, Node ${machine.node} on ${machine.platform}.
Load average (1 / 5 / 15 min) at the start ${formatLoad(machine.loadAverageStart)}, at the end ${formatLoad(machine.loadAverageEnd)}.
Settings: ${Object.entries(report.settings).map(([key, value]) => `${key} ${value}`).join(', ')}.
${report.skipped.map((reason) => `\n**Skipped:** ${reason}\n`).join('')}
Rates are over each job's own time (jobs.created_at to finished_at), wall clock. "request to end" also counts the
HTTP request (for uploads the multipart transfer and storing the original). CPU s: CPU time of this one process during
the step, which holds the backend, its worker, the fixture site and, on PGlite, the database; the "per CPU s" rates
depend less on other processes competing for the cores, but on PostgreSQL they leave out the server's own work.

## Crawl of the local fixture site

${formatMarkdownTable(
  ['storage', 'pages fetched', 'drafts', 'failed', 'job s', 'request to end s', 'pages/s', 'CPU s', 'pages per CPU s'],
  report.crawl.map((row) => [
    storageName(row.storage),
    row.pagesFetched,
    row.drafts,
    row.failed,
    formatSeconds(row.jobSeconds),
    formatSeconds(row.requestToEndSeconds),
    formatNumber(row.pagesPerSecond, 1),
    formatSeconds(row.cpuSeconds),
    formatNumber(row.pagesFetched / row.cpuSeconds, 1),
  ]),
)}

## Upload: text extraction and draft creation

${formatMarkdownTable(
  ['storage', 'file', 'MB', 'PDF pages', 'text characters', `job s (median of ${uploadRepeats})`, 'request to end s', 'MB/s', 'k characters/s', 'CPU s', 'MB per CPU s'],
  report.uploads.map((row) => [
    storageName(row.storage),
    row.file,
    formatNumber(row.megabytes, 2),
    row.pdfPages ?? '(same text)',
    formatNumber(row.textCharacters),
    formatSeconds(row.jobSeconds),
    formatSeconds(row.requestToEndSeconds),
    formatNumber(row.megabytesPerSecond, 2),
    formatNumber(row.kiloCharactersPerSecond, 1),
    formatSeconds(row.cpuSeconds),
    formatNumber(row.megabytes / row.cpuSeconds, 2),
  ]),
)}

## Publishing the drafts (do_embeddings)

${formatMarkdownTable(
  ['storage', 'drafts', 'articles', 'chunks', 'job s', 'request to end s', 'chunks/s', 'CPU s', 'chunks per CPU s'],
  report.publishing.map((row) => [
    storageName(row.storage),
    row.drafts,
    row.articles,
    formatNumber(row.chunks),
    formatSeconds(row.jobSeconds),
    formatSeconds(row.requestToEndSeconds),
    formatNumber(row.chunksPerSecond, 1),
    formatSeconds(row.cpuSeconds),
    formatNumber(row.chunks / row.cpuSeconds, 1),
  ]),
)}
`
}

const loadAverageStart = loadavg()
log(`load average at the start: ${formatLoad(loadAverageStart)}`)
const skipped: string[] = []
const runnable: Storage[] = []
for (const storage of storages) {
  if (storage !== 'postgres') {
    runnable.push(storage)
    continue
  }
  const problem = await probePostgres(values.postgres as string)
  if (problem) {
    skipped.push(`PostgreSQL: no server answers at ${values.postgres} (${problem})`)
    log(`SKIPPED: PostgreSQL, no server answers at ${values.postgres} (${problem})`)
  } else runnable.push(storage)
}

log(`generating the sample files: ${sectionCount} sections, a picture every ${pictureEvery} sections in the illustrated ones`)
const files = await makeSampleFiles()
for (const file of files) log(`  ${file.name}: ${formatNumber(file.bytes.length / MEGABYTE, 2)} MB${file.pdfPages ? `, ${file.pdfPages} pages` : ''}`)
const site = await startFixtureSite({ generatedPageCount })
log(`fixture site at ${site.baseUrl} with ${generatedPageCount} generated pages`)

const crawlRows: CrawlRow[] = []
const uploadRows: UploadRow[] = []
const publishRows: PublishRow[] = []
try {
  for (const storage of runnable) {
    const server = await startBackend(storage, site)
    log(`${storage}: backend at ${server.baseUrl}`)
    try {
      await warmUp(server, site)
      const crawl = await measureCrawl(storage, server, site)
      crawlRows.push(crawl.row)
      log(`${storage}: crawl ${crawl.row.pagesFetched} pages in ${formatSeconds(crawl.row.jobSeconds)} s, ${formatNumber(crawl.row.pagesPerSecond, 1)} pages/s`)
      const documentDraftIds: number[] = []
      for (const file of files) {
        const upload = await measureUpload(storage, server, file)
        uploadRows.push(upload.row)
        documentDraftIds.push(...upload.draftIds)
        log(`${storage}: ${file.name} ${formatNumber(upload.row.megabytes, 2)} MB in ${formatSeconds(upload.row.jobSeconds)} s, ${formatNumber(upload.row.megabytesPerSecond, 2)} MB/s`)
      }
      for (const [label, ids] of [
        [`${crawl.draftIds.length} crawled pages`, crawl.draftIds],
        [`${documentDraftIds.length} uploaded documents`, documentDraftIds],
      ] as const) {
        const publish = await measurePublish(storage, server, label, ids)
        publishRows.push(publish)
        log(`${storage}: published ${label}: ${formatNumber(publish.chunks)} chunks in ${formatSeconds(publish.jobSeconds)} s, ${formatNumber(publish.chunksPerSecond, 1)} chunks/s`)
      }
    } finally {
      await server.stop()
    }
  }
} finally {
  await site.close()
}

const processors = cpus()
const report = {
  machine: {
    cpuModel: processors[0]?.model.trim() ?? 'unknown CPU',
    cores: processors.length,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    platform: process.platform,
    loadAverageStart,
    loadAverageEnd: loadavg(),
    date: new Date().toISOString().slice(0, 16).replace('T', ' '),
  },
  settings: { 'generated pages': generatedPageCount, 'document sections': sectionCount, 'picture every': pictureEvery, 'uploads of each file': uploadRepeats, storages: runnable.join(', ') },
  skipped,
  crawl: crawlRows,
  uploads: uploadRows,
  publishing: publishRows,
}
const markdown = renderMarkdown(report)
mkdirSync(RESULTS_DIRECTORY, { recursive: true })
writeFileSync(path.join(RESULTS_DIRECTORY, 'ingest.md'), markdown)
writeFileSync(path.join(RESULTS_DIRECTORY, 'ingest.json'), `${JSON.stringify(report, null, 2)}\n`)
process.stdout.write(`\n${markdown}\n`)
log(`load average at the end: ${formatLoad(report.machine.loadAverageEnd)}; results in bench/results/ingest.md and ingest.json`)
