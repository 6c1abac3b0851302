/**
 * Retrieval quality and speed of the product next to peers on any BEIR-format dataset.
 *
 *   npm run eval -- --dataset ../shared/datasets/scifact [--split test|train] [--json FILE] [--postgres URL] [--no-peers]
 *                   [--answer-folds 4] [--limit N]
 *   EMBEDDINGS_BASE_URL=… EMBEDDINGS_MODEL=… [EMBEDDINGS_API_KEY=…] npm run eval -- …   (vector, hybrid and MMR too)
 *
 * The product is measured through its real code: every document is published into an in-memory PGlite database
 * with the real migrations (article row + KnowledgeService.indexArticle in one transaction), then ranked by
 * KnowledgeService.search. For datasets whose queries carry gold answers (SQuAD style), the extractive answers
 * are scored too, with the knowledge base whole and with a quarter of its articles held out in turn (their
 * questions should get the not-found answer). Results go to bench/results/eval-<dataset>-<split>.{md,svg}.
 */
import { writeFileSync, mkdirSync } from 'node:fs'
import { loadavg } from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { fileURLToPath } from 'node:url'
import { defaultExtractiveAnswerOptions } from '../backend/src/retrieval/extractive-answer'
import { ANSWER_TYPE_WORD_WEIGHT, parseQuery } from '../backend/src/retrieval/query'
import { defaultQueryExpansion, knowledgeBaseBm25Parameters, TITLE_WEIGHT } from '../backend/src/retrieval/bm25-index'
import { ANSWER_SOURCES, AnswerTally, answerText, articleOf, articlesOfQuery, heldOutFolds, type AnswerFigures } from './lib/answer-evaluation'
import { loadBeirDataset, type BeirDataset, type BenchmarkQuery } from './lib/beir-dataset'
import { createComparisonChart, renderSvg } from './lib/charts'
import { scoreRun, type RetrievalScores } from './lib/metrics'
import { createHybridEngines, hybridEvalConfig } from './lib/hybrid-eval'
import { createPeerEngines, type SearchEngine } from './lib/peer-engines'
import { BENCH_POSTGRES_URL, createPostgresEngine, probePostgres } from './lib/postgres-engine'
import { createProductEngine, createProductIndexEngine, ingestIntoProduct, type ProductKnowledgeBase } from './lib/product-engine'
import { describeMachine, formatMarkdownTable, formatNumber, log } from './lib/report'

const loadAtStart = loadavg().map((value) => value.toFixed(1)).join(' / ')
const RESULTS_DIRECTORY = path.join(path.dirname(fileURLToPath(import.meta.url)), 'results')
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
  /** Every article in the knowledge base. */
  whole: AnswerFigures
  /** Each fold of articles held out in turn; undefined when there are no folds. */
  heldOut: AnswerFigures | undefined
  folds: number
}

function readOptions() {
  const { values } = parseArgs({
    options: {
      dataset: { type: 'string' },
      split: { type: 'string', default: 'test' },
      json: { type: 'string' },
      postgres: { type: 'string', default: process.env.BENCH_DATABASE_URL ?? BENCH_POSTGRES_URL },
      'no-peers': { type: 'boolean', default: false },
      'answer-folds': { type: 'string', default: '4' },
      limit: { type: 'string' },
    },
  })
  const answerFolds = Number(values['answer-folds'])
  const limit = values.limit === undefined ? undefined : Number(values.limit)
  if (!values.dataset || !Number.isInteger(answerFolds) || answerFolds < 0 || (limit !== undefined && !(Number.isInteger(limit) && limit > 0))) {
    console.error('Usage: npm run eval -- --dataset DIR [--split test|train] [--json FILE] [--postgres URL] [--no-peers] [--answer-folds N (0: none)] [--limit QUERIES]')
    process.exit(2)
  }
  return {
    dataset: values.dataset,
    split: values.split as string,
    json: values.json,
    postgresUrl: values.postgres as string,
    hasPeers: !values['no-peers'],
    answerFolds,
    limit,
  }
}

/** Queries an engine failed on, by engine name: they rank nothing and are named in the report's notes. */
const failures = new Map<string, { count: number; first: string }>()

/** An engine's ranking for one query; a query it fails on ranks nothing rather than ending the run. */
async function searchSafely(engine: SearchEngine, text: string, limit: number): Promise<string[]> {
  try {
    return await engine.search(text, limit)
  } catch (error) {
    const known = failures.get(engine.name)
    if (known) known.count += 1
    else failures.set(engine.name, { count: 1, first: `${JSON.stringify(text)}: ${(error as Error).message}` })
    return []
  }
}

/** Ranks every query to depth 100 for the quality metrics. */
async function rankAll(engine: SearchEngine, dataset: BeirDataset): Promise<Map<string, string[]>> {
  const rankings = new Map<string, string[]>()
  for (const query of dataset.queries) rankings.set(query.id, await searchSafely(engine, query.text, 100))
  return rankings
}

/** Top-10 queries, one after another on this one thread, after a short warm-up: per wall-clock and per CPU second. */
async function measureQueriesPerSecond(engine: SearchEngine, dataset: BeirDataset): Promise<{ wall: number; cpu: number }> {
  const texts = dataset.queries.map((query) => query.text)
  for (const text of texts.slice(0, MIN_TIMED_QUERIES)) await searchSafely(engine, text, 10)
  let count = 0
  const started = performance.now()
  const cpuStarted = process.cpuUsage()
  while (count < MIN_TIMED_QUERIES || performance.now() - started < MIN_TIMING_SECONDS * 1000) {
    await searchSafely(engine, texts[count % texts.length] as string, 10)
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

/** The ask path's answer to one question: KnowledgeService.search, then the extractive answer; null for not-found. */
async function answerQuestion(base: ProductKnowledgeBase, question: string): Promise<string | null> {
  let chunks: Awaited<ReturnType<ProductKnowledgeBase['knowledge']['search']>>
  try {
    chunks = await base.knowledge.search(question, ANSWER_SOURCES)
  } catch (error) {
    // A question the search fails on gets no answer (counted as not-found) and is named in the notes.
    const name = 'extractive answers (KnowledgeService.search)'
    const known = failures.get(name)
    if (known) known.count += 1
    else failures.set(name, { count: 1, first: `${JSON.stringify(question)}: ${(error as Error).message}` })
    return null
  }
  return answerText(
    question,
    chunks.map((chunk) => ({ articleId: chunk.articleId, title: chunk.title, text: chunk.text, score: chunk.score })),
    base.knowledge.termWeight,
    defaultExtractiveAnswerOptions,
  )
}

/**
 * The answer figures for SQuAD-style queries (with gold answers): with every article in the knowledge base, then
 * with each fold of articles unpublished in turn (KnowledgeService.unindexArticle, then indexArticle again, as
 * unpublishing and publishing do), asking every question each time.
 */
async function scoreAnswers(base: ProductKnowledgeBase, dataset: BeirDataset, foldCount: number): Promise<AnswerResult | undefined> {
  const questions = dataset.queries.filter((query) => query.answers && query.answers.length > 0)
  if (questions.length === 0) return undefined
  const whole = new AnswerTally()
  for (const query of questions) whole.addAnswerable(query, await answerQuestion(base, query.text))
  log(`  answers, whole knowledge base: ${describeAnswers(whole.figures())}`)
  if (foldCount === 0) return { whole: whole.figures(), heldOut: undefined, folds: 0 }

  const documentsById = new Map(dataset.corpus.map((document) => [document.id, document]))
  const articleIdOf = new Map([...base.documentIdOf].map(([articleId, documentId]) => [documentId, articleId]))
  const articlesOf = new Map<BenchmarkQuery, Set<string>>(questions.map((query) => [query, articlesOfQuery(dataset, query, documentsById)]))
  const heldOut = new AnswerTally()
  const folds = heldOutFolds(dataset, foldCount)
  for (const [position, fold] of folds.entries()) {
    const held = new Set(fold)
    const documents = dataset.corpus.filter((document) => held.has(articleOf(document)))
    await base.db.transaction(async (tx) => {
      for (const document of documents) await base.knowledge.unindexArticle(tx, articleIdOf.get(document.id) as number)
    })
    for (const query of questions) {
      const answer = await answerQuestion(base, query.text)
      if ([...(articlesOf.get(query) ?? [])].some((article) => held.has(article))) heldOut.addHeldOut(answer)
      else heldOut.addAnswerable(query, answer)
    }
    await base.db.transaction(async (tx) => {
      for (const document of documents) {
        await base.knowledge.indexArticle(tx, { id: articleIdOf.get(document.id) as number, title: document.title, content: document.text })
      }
    })
    log(`  answers, fold ${position + 1} of ${folds.length} held out (${fold.length} articles, ${documents.length} documents): ${describeAnswers(heldOut.figures())} so far`)
  }
  return { whole: whole.figures(), heldOut: heldOut.figures(), folds: folds.length }
}

const percent = (share: number) => `${(100 * share).toFixed(1)}%`

function describeAnswers(figures: AnswerFigures): string {
  const heldOut = figures.heldOut > 0 ? `; held-out questions answered not-found ${percent(figures.heldOutNotFoundShare)} (${figures.heldOutNotFound} of ${figures.heldOut})` : ''
  return (
    `${percent(figures.containsGoldShare)} contain a gold answer (${figures.containingGold} of ${figures.answerable}) at ${figures.meanWords.toFixed(1)} words on average, ` +
    `${percent(1 - figures.answered / Math.max(1, figures.answerable))} not-found${heldOut}`
  )
}

function writeReport(
  dataset: BeirDataset,
  results: EngineResult[],
  ingestion: ProductKnowledgeBase['ingestion'],
  answers: AnswerResult | undefined,
  notes: string[],
  sampleNote = '',
): string {
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
  const questionCount = dataset.queries.filter((query) => parseQuery(query.text).isQuestion).length
  const lines = [
    `# Retrieval evaluation: ${dataset.name}, ${dataset.split} split`,
    '',
    `${dataset.queries.length} judged queries${sampleNote}, ${formatNumber(dataset.corpus.length)} documents. Machine: ${describeMachine()}; load average ${loadAtStart} at the start.`,
    '',
    formatMarkdownTable(['engine', 'nDCG@10', 'Recall@100', 'MRR@10', 'queries/s wall clock', 'queries/s per CPU second', 'index build (s)'], rows),
    '',
    'Queries/s: top 10, one query after another on one thread, at least 3 s and 30 queries after a warm-up. "Per CPU second" divides by the CPU time this process used, ' +
      'which other processes on a busy machine do not inflate; PostgreSQL works in its server process, so only its wall-clock figure is meaningful. ' +
      '"knowledge-base (KnowledgeService.search, end to end)" is search as the backend runs it: following the index log (read only when it changed) and chunk records kept in memory or read from PGlite; "knowledge-base (Bm25Index in memory)" is parseQuery + Bm25Index.search only.',
    '',
    `Product ingestion on PGlite (memory://, real migrations, one transaction per article with KnowledgeService.indexArticle): ` +
      `${formatNumber(ingestion.documents)} articles → ${formatNumber(ingestion.chunks)} chunks in ${ingestion.seconds.toFixed(1)} s = **${formatNumber(ingestion.chunksPerSecond)} chunks/s**.`,
    '',
    `Product retrieval settings: BM25 k1 ${knowledgeBaseBm25Parameters.k1}, b ${knowledgeBaseBm25Parameters.b}; title terms weighted ${TITLE_WEIGHT}×; ` +
      `adjacent-word proximity ${knowledgeBaseBm25Parameters.questionProximityWeight ?? 0} for questions, ${knowledgeBaseBm25Parameters.proximityWeight ?? 0} for other queries; ` +
      `answer-type words ("how many", "what year") weighted ${ANSWER_TYPE_WORD_WEIGHT}; RM3 expansion ${JSON.stringify(defaultQueryExpansion)} ` +
      `(${questionCount} of ${dataset.queries.length} queries read as questions).`,
    '',
  ]
  if (answers) {
    const row = (label: string, figures: AnswerFigures) => [
      label,
      `${figures.answerable}`,
      `**${percent(figures.containsGoldShare)}**`,
      `**${figures.meanWords.toFixed(1)}**`,
      percent(1 - figures.answered / Math.max(1, figures.answerable)),
      figures.heldOut > 0 ? `${figures.heldOut}` : '–',
      figures.heldOut > 0 ? `**${percent(figures.heldOutNotFoundShare)}**` : '–',
    ]
    lines.push(
      `Extractive answers (composeExtractiveAnswer on the top ${ANSWER_SOURCES} chunks of KnowledgeService.search, as /ask_qa does; ` +
        `options ${JSON.stringify(defaultExtractiveAnswerOptions)}). "Contains gold": the answer contains a gold answer after SQuAD normalisation, ` +
        'a not-found answer counting as a miss; words: mean length of the answers given, citation markers left out. ' +
        (answers.heldOut
          ? `Held out: the articles are split into ${answers.folds} folds (round-robin in corpus order) and each fold is unpublished in turn; its questions should get the not-found answer, the others are asked of the rest.`
          : ''),
      '',
      formatMarkdownTable(
        ['knowledge base', 'answerable questions', 'contains gold', 'mean words', 'not-found (answerable)', 'held-out questions', 'not-found (held out)'],
        [row('every article', answers.whole), ...(answers.heldOut ? [row(`a fold held out, ${answers.folds} folds`, answers.heldOut)] : [])],
      ),
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
  if (options.limit !== undefined && options.limit < dataset.queries.length) {
    // Every n-th query, for quick runs while iterating: figures then cover a sample, and say so.
    const step = dataset.queries.length / options.limit
    dataset.queries = Array.from({ length: options.limit }, (_, position) => dataset.queries[Math.floor(position * step)] as BenchmarkQuery)
    const kept = new Set(dataset.queries.map((query) => query.id))
    for (const queryId of [...dataset.qrels.keys()]) if (!kept.has(queryId)) dataset.qrels.delete(queryId)
  }
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

    // Vector, hybrid and MMR search through SearchRetriever, when an embeddings endpoint is given (EMBEDDINGS_BASE_URL
    // and EMBEDDINGS_MODEL, as the backend reads them); without one the run says so.
    const embeddings = hybridEvalConfig(process.env)
    if (!embeddings) notes.push('Vector, hybrid and MMR search not measured: no embeddings endpoint given (EMBEDDINGS_BASE_URL, EMBEDDINGS_MODEL).')
    for (const { engine, seconds } of await createHybridEngines(base, embeddings, log)) {
      results.push(await measureEngine(engine, dataset, true, seconds))
    }

    const answers = await scoreAnswers(base, dataset, options.answerFolds)

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

    for (const [name, { count, first }] of failures) notes.push(`${name} failed on ${count} searches (ranked as empty), first ${first}`)
    const report = writeReport(dataset, results, ingestion, answers, notes, options.limit === undefined ? '' : ' (an evenly spaced sample, --limit)')
    mkdirSync(RESULTS_DIRECTORY, { recursive: true })
    const stem = `eval-${dataset.name}-${dataset.split}${options.limit === undefined ? '' : `-sample${dataset.queries.length}`}`
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
