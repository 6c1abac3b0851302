/**
 * Retrieval quality and speed of the product next to peers on any BEIR-format dataset.
 *
 *   npm run eval -- --dataset ../shared/datasets/scifact [--split test|train] [--json FILE] [--postgres URL] [--no-peers]
 *
 * The product is measured through its real code: every document is published into an in-memory PGlite database
 * with the real migrations (article row + KnowledgeService.indexArticle in one transaction), then ranked by
 * KnowledgeService.search. Results go to bench/results/eval-<dataset>-<split>.{md,svg}.
 */
import { writeFileSync, mkdirSync } from 'node:fs'
import { loadavg } from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { fileURLToPath } from 'node:url'
import { composeExtractiveAnswer } from '../backend/src/retrieval/extractive-answer'
import { defaultQueryExpansion, knowledgeBaseBm25Parameters, TITLE_WEIGHT } from '../backend/src/retrieval/bm25-index'
import { containsGoldAnswer, countWords } from './lib/answer-scoring'
import { loadBeirDataset, type BeirDataset } from './lib/beir-dataset'
import { createComparisonChart, renderSvg } from './lib/charts'
import { scoreRun, type RetrievalScores } from './lib/metrics'
import { createPeerEngines, type SearchEngine } from './lib/peer-engines'
import { BENCH_POSTGRES_URL, createPostgresEngine, probePostgres } from './lib/postgres-engine'
import { createProductEngine, createProductIndexEngine, ingestIntoProduct, type ProductKnowledgeBase } from './lib/product-engine'
import { describeMachine, formatMarkdownTable, formatNumber, log } from './lib/report'

const loadAtStart = loadavg().map((value) => value.toFixed(1)).join(' / ')
const RESULTS_DIRECTORY = path.join(path.dirname(fileURLToPath(import.meta.url)), 'results')
/** Sources the ask endpoint composes an answer from (bot setting num_sources_k's default). */
const ANSWER_SOURCES = 4
/** Each engine is timed for at least this long and this many queries (cycling through the queries). */
const MIN_TIMING_SECONDS = 3
const MIN_TIMED_QUERIES = 30

interface EngineResult {
  name: string
  configuration: string
  isProduct: boolean
  scores: RetrievalScores
  queriesPerSecond: number
  /** Queries per second of this process's CPU time: robust to other processes on a busy machine; undefined when the work runs in another process. */
  queriesPerCpuSecond: number | undefined
  indexSeconds: number
}

interface AnswerResult {
  queries: number
  answered: number
  containingGold: number
  meanWords: number
}

function readOptions() {
  const { values } = parseArgs({
    options: {
      dataset: { type: 'string' },
      split: { type: 'string', default: 'test' },
      json: { type: 'string' },
      postgres: { type: 'string', default: process.env.BENCH_DATABASE_URL ?? BENCH_POSTGRES_URL },
      'no-peers': { type: 'boolean', default: false },
    },
  })
  if (!values.dataset) {
    console.error('Usage: npm run eval -- --dataset DIR [--split test|train] [--json FILE] [--postgres URL] [--no-peers]')
    process.exit(2)
  }
  return { dataset: values.dataset, split: values.split as string, json: values.json, postgresUrl: values.postgres as string, hasPeers: !values['no-peers'] }
}

/** Ranks every query to depth 100 for the quality metrics. */
async function rankAll(engine: SearchEngine, dataset: BeirDataset): Promise<Map<string, string[]>> {
  const rankings = new Map<string, string[]>()
  for (const query of dataset.queries) rankings.set(query.id, await engine.search(query.text, 100))
  return rankings
}

/** Top-10 queries, one after another on this one thread, after a short warm-up: per wall-clock and per CPU second. */
async function measureQueriesPerSecond(engine: SearchEngine, dataset: BeirDataset): Promise<{ wall: number; cpu: number }> {
  const texts = dataset.queries.map((query) => query.text)
  for (const text of texts.slice(0, MIN_TIMED_QUERIES)) await engine.search(text, 10)
  let count = 0
  const started = performance.now()
  const cpuStarted = process.cpuUsage()
  while (count < MIN_TIMED_QUERIES || performance.now() - started < MIN_TIMING_SECONDS * 1000) {
    await engine.search(texts[count % texts.length] as string, 10)
    count += 1
  }
  const cpu = process.cpuUsage(cpuStarted)
  return { wall: count / ((performance.now() - started) / 1000), cpu: count / ((cpu.user + cpu.system) / 1e6) }
}

async function measureEngine(engine: SearchEngine, dataset: BeirDataset, isProduct: boolean, indexSeconds: number, isInProcess = true): Promise<EngineResult> {
  const scores = scoreRun(await rankAll(engine, dataset), dataset.qrels)
  const speed = await measureQueriesPerSecond(engine, dataset)
  const queriesPerCpuSecond = isInProcess ? speed.cpu : undefined
  log(
    `  ${engine.name}: nDCG@10 ${scores.ndcgAt10.toFixed(4)}, R@100 ${scores.recallAt100.toFixed(4)}, MRR@10 ${scores.mrrAt10.toFixed(4)}, ` +
      `${formatNumber(speed.wall)} q/s wall clock${queriesPerCpuSecond === undefined ? '' : `, ${formatNumber(queriesPerCpuSecond)} q/s of CPU time`}`,
  )
  return { name: engine.name, configuration: engine.configuration, isProduct, scores, queriesPerSecond: speed.wall, queriesPerCpuSecond, indexSeconds }
}

/** The ask path's answerer on the top chunks, for SQuAD-style queries that carry gold answers. */
async function scoreAnswers(base: ProductKnowledgeBase, dataset: BeirDataset): Promise<AnswerResult | undefined> {
  const queries = dataset.queries.filter((query) => query.answers && query.answers.length > 0)
  if (queries.length === 0) return undefined
  let answered = 0
  let containingGold = 0
  let words = 0
  for (const query of queries) {
    const chunks = await base.knowledge.search(query.text, ANSWER_SOURCES)
    const answer = composeExtractiveAnswer(
      query.text,
      chunks.map((chunk) => ({ articleId: chunk.articleId, title: chunk.title, text: chunk.text })),
      base.knowledge.termWeight,
    )
    if (!answer) continue
    answered += 1
    // Citation markers are ours, not the answer's words.
    const text = answer.sentences.map((sentence) => sentence.text).join(' ')
    words += countWords(text)
    if (containsGoldAnswer(text, query.answers ?? [])) containingGold += 1
  }
  return { queries: queries.length, answered, containingGold, meanWords: answered === 0 ? 0 : words / answered }
}

function writeReport(dataset: BeirDataset, results: EngineResult[], ingestion: ProductKnowledgeBase['ingestion'], answers: AnswerResult | undefined, notes: string[]): string {
  const rows = [...results]
    .sort((a, b) => b.scores.ndcgAt10 - a.scores.ndcgAt10)
    .map((result) => [
      result.isProduct ? `**${result.name}**` : result.name,
      result.scores.ndcgAt10.toFixed(4),
      result.scores.recallAt100.toFixed(4),
      result.scores.mrrAt10.toFixed(4),
      formatNumber(result.queriesPerSecond),
      result.queriesPerCpuSecond === undefined ? 'n/a (server process)' : formatNumber(result.queriesPerCpuSecond),
      result.indexSeconds > 0 ? result.indexSeconds.toFixed(1) : '–',
    ])
  const lines = [
    `# Retrieval evaluation: ${dataset.name}, ${dataset.split} split`,
    '',
    `${dataset.queries.length} judged queries, ${formatNumber(dataset.corpus.length)} documents. Machine: ${describeMachine()}; load average ${loadAtStart} at the start.`,
    '',
    formatMarkdownTable(['engine', 'nDCG@10', 'Recall@100', 'MRR@10', 'queries/s wall clock', 'queries/s per CPU second', 'index build (s)'], rows),
    '',
    'Queries/s: top 10, one query after another on one thread, at least 3 s and 30 queries after a warm-up. "Per CPU second" divides by the CPU time this process used, ' +
      'which other processes on a busy machine do not inflate; PostgreSQL works in its server process, so only its wall-clock figure is meaningful. ' +
      '"knowledge-base (KnowledgeService.search, end to end)" includes the index sync and the chunk records read from PGlite; "knowledge-base (Bm25Index in memory)" is tokenize + Bm25Index.search only.',
    '',
    `Product ingestion on PGlite (memory://, real migrations, one transaction per article with KnowledgeService.indexArticle): ` +
      `${formatNumber(ingestion.documents)} articles → ${formatNumber(ingestion.chunks)} chunks in ${ingestion.seconds.toFixed(1)} s = **${formatNumber(ingestion.chunksPerSecond)} chunks/s**.`,
    '',
    `Product retrieval settings: BM25 k1 ${knowledgeBaseBm25Parameters.k1}, b ${knowledgeBaseBm25Parameters.b}; title terms weighted ${TITLE_WEIGHT}×; RM3 expansion ${JSON.stringify(defaultQueryExpansion)}.`,
    '',
  ]
  if (answers) {
    lines.push(
      `Extractive answers (composeExtractiveAnswer on the top ${ANSWER_SOURCES} chunks of KnowledgeService.search, as /ask_qa does): ` +
        `${answers.answered} of ${answers.queries} questions answered; **${((100 * answers.containingGold) / answers.queries).toFixed(1)}%** of all questions ` +
        `have an answer containing a gold answer (SQuAD normalisation); mean answer length ${answers.meanWords.toFixed(1)} words.`,
      '',
    )
  }
  lines.push('How each engine is configured:', '', ...results.map((result) => `- ${result.name}: ${result.configuration}`), '')
  if (notes.length > 0) lines.push(...notes.map((note) => `Note: ${note}`), '')
  return lines.join('\n')
}

async function main(): Promise<void> {
  const options = readOptions()
  const dataset = await loadBeirDataset(options.dataset, options.split)
  log(`${dataset.name} ${dataset.split}: ${dataset.queries.length} judged queries, ${dataset.corpus.length} documents`)
  const notes: string[] = []

  log('publishing every document into PGlite through KnowledgeService.indexArticle …')
  const base = await ingestIntoProduct(dataset.corpus, { onProgress: (done) => log(`  ${done} documents`) })
  const { ingestion } = base
  log(`  ${ingestion.chunks} chunks in ${ingestion.seconds.toFixed(1)} s = ${formatNumber(ingestion.chunksPerSecond)} chunks/s`)

  const results: EngineResult[] = []
  try {
    results.push(await measureEngine(createProductEngine(base), dataset, true, ingestion.seconds))
    const indexStarted = performance.now()
    const productIndex = await createProductIndexEngine(base)
    results.push(await measureEngine(productIndex, dataset, true, (performance.now() - indexStarted) / 1000))

    const answers = await scoreAnswers(base, dataset)
    if (answers) log(`  answers: ${answers.containingGold}/${answers.queries} contain a gold answer, ${answers.meanWords.toFixed(1)} words on average`)

    if (options.hasPeers) {
      for (const engine of createPeerEngines()) {
        log(`indexing with ${engine.name} …`)
        const started = performance.now()
        await engine.index(dataset.corpus)
        results.push(await measureEngine(engine, dataset, false, (performance.now() - started) / 1000))
      }
      const unreachable = await probePostgres(options.postgresUrl)
      if (unreachable) {
        const message = `PostgreSQL ts_rank_cd skipped: no server answers at ${options.postgresUrl} (${unreachable}). Start one or pass --postgres URL.`
        log(message)
        notes.push(message)
      } else {
        const engine = createPostgresEngine(options.postgresUrl)
        try {
          log(`indexing with ${engine.name} (fresh schema, dropped afterwards) …`)
          const started = performance.now()
          await engine.index(dataset.corpus)
          results.push(await measureEngine(engine, dataset, false, (performance.now() - started) / 1000, false))
        } finally {
          await engine.close?.()
        }
      }
    }

    const report = writeReport(dataset, results, ingestion, answers, notes)
    mkdirSync(RESULTS_DIRECTORY, { recursive: true })
    const stem = `eval-${dataset.name}-${dataset.split}`
    writeFileSync(path.join(RESULTS_DIRECTORY, `${stem}.md`), report)
    const svg = await renderSvg(
      createComparisonChart(
        `${dataset.name} (${dataset.split}): nDCG@10 and single-thread queries per CPU second (PostgreSQL: wall clock)`,
        results.map((result) => ({
          engine: result.name,
          ndcgAt10: result.scores.ndcgAt10,
          queriesPerSecond: result.queriesPerCpuSecond ?? result.queriesPerSecond,
          isProduct: result.isProduct,
        })),
      ),
    )
    writeFileSync(path.join(RESULTS_DIRECTORY, `${stem}.svg`), svg)
    if (options.json) writeFileSync(options.json, JSON.stringify({ dataset: dataset.name, split: dataset.split, machine: describeMachine(), loadAtStart, ingestion, answers, results }, null, 2))
    console.log(`\n${report}`)
    log(`wrote ${path.join('bench/results', `${stem}.md`)} and .svg`)
  } finally {
    await base.close()
  }
}

await main()
