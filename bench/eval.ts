/**
 * Retrieval quality and speed of the product next to peers on any BEIR-format dataset.
 *
 *   npm run eval -- --dataset ../shared/datasets/scifact [--split test|train] [--json FILE] [--postgres URL] [--no-peers]
 *                   [--answer-folds 4] [--limit N]
 *   EMBEDDINGS_BASE_URL=… EMBEDDINGS_MODEL=… [EMBEDDINGS_API_KEY=…] npm run eval -- …   (vector, hybrid and MMR too)
 *   LLM_BASE_URL=… [LLM_MODELS=…] [LLM_API_KEY=…] npm run eval -- …   (model answers beside the extractive ones)
 *
 * The product is measured through its real code: every document is published into an in-memory PGlite database
 * with the real migrations (article row + KnowledgeService.indexArticle in one transaction), then ranked by
 * KnowledgeService.search. For datasets whose queries carry gold answers (SQuAD style), the extractive answers
 * are scored too, with the knowledge base whole and with a quarter of its articles held out in turn (their
 * questions should get the not-found answer), and the model answers beside them when a language model endpoint is
 * given. Results go to bench/results/eval-<dataset>-<split>.{md,svg}.
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
import { createModelAnswerer, modelAnswerConfig, type EvalAnswerer } from './lib/model-answer-eval'
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
  label: string
  description: string
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
    recordFailure(engine.name, text, error)
    return []
  }
}

function recordFailure(name: string, text: string, error: unknown): void {
  const known = failures.get(name)
  if (known) known.count += 1
  else failures.set(name, { count: 1, first: `${JSON.stringify(text)}: ${(error as Error).message}` })
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
  let chunks
  try {
    chunks = await base.knowledge.search(question, ANSWER_SOURCES)
  } catch (error) {
    // A question the search fails on gets no answer (counted as not-found) and is named in the notes.
    recordFailure('extractive answers (KnowledgeService.search)', question, error)
    return null
  }
  return answerText(
    question,
    chunks.map((chunk) => ({ articleId: chunk.articleId, title: chunk.title, text: chunk.text, score: chunk.score })),
    base.knowledge.termWeight,
    defaultExtractiveAnswerOptions,
    base.knowledge.correctTerm,
  )
}

/** The extractive answers, as /ask_qa gives them without a model. */
function extractiveAnswerer(base: ProductKnowledgeBase): EvalAnswerer {
  return {
    label: 'extractive answers',
    description:
      `Extractive answers (composeExtractiveAnswer on the top ${ANSWER_SOURCES} chunks of KnowledgeService.search, as /ask_qa does without a model; ` +
      `options ${JSON.stringify(defaultExtractiveAnswerOptions)}).`,
    answer: (question) => answerQuestion(base, question),
    notes: () => [],
  }
}

/** An answerer's answer; a question it fails on gets no answer (counted as not-found) and is named in the notes. */
async function answerSafely(answerer: EvalAnswerer, question: string): Promise<string | null> {
  try {
    return await answerer.answer(question)
  } catch (error) {
    recordFailure(answerer.label, question, error)
    return null
  }
}

/**
 * The answer figures for SQuAD-style queries (with gold answers), for each answerer: with every article in the
 * knowledge base, then with each fold of articles unpublished in turn (KnowledgeService.unindexArticle, then
 * indexArticle again, as unpublishing and publishing do), asking every question each time.
 */
async function scoreAnswers(
  base: ProductKnowledgeBase,
  dataset: BeirDataset,
  foldCount: number,
  answerers: EvalAnswerer[],
  unanswerable: readonly string[] = [],
): Promise<AnswerResult[]> {
  const questions = dataset.queries.filter((query) => query.answers && query.answers.length > 0)
  if (questions.length === 0) return []
  const whole = answerers.map(() => new AnswerTally())
  for (const query of questions) {
    for (const [position, answerer] of answerers.entries()) whole[position]?.addAnswerable(query, await answerSafely(answerer, query.text))
  }
  // Questions the knowledge base does not answer at all, asked of every article: each should get the not-found answer.
  for (const question of unanswerable) {
    for (const [position, answerer] of answerers.entries()) whole[position]?.addHeldOut(await answerSafely(answerer, question))
  }
  answerers.forEach((answerer, position) => log(`  ${answerer.label}, whole knowledge base: ${describeAnswers((whole[position] as AnswerTally).figures())}`))
  const heldOut = answerers.map(() => new AnswerTally())
  const folds = foldCount === 0 ? [] : heldOutFolds(dataset, foldCount)
  const documentsById = new Map(dataset.corpus.map((document) => [document.id, document]))
  const articleIdOf = new Map([...base.documentIdOf].map(([articleId, documentId]) => [documentId, articleId]))
  const articlesOf = new Map<BenchmarkQuery, Set<string>>(questions.map((query) => [query, articlesOfQuery(dataset, query, documentsById)]))
  for (const [foldPosition, fold] of folds.entries()) {
    const held = new Set(fold)
    const documents = dataset.corpus.filter((document) => held.has(articleOf(document)))
    await base.db.transaction(async (tx) => {
      for (const document of documents) await base.knowledge.unindexArticle(tx, articleIdOf.get(document.id) as number)
    })
    for (const query of questions) {
      const isHeld = [...(articlesOf.get(query) ?? [])].some((article) => held.has(article))
      for (const [position, answerer] of answerers.entries()) {
        const answer = await answerSafely(answerer, query.text)
        if (isHeld) heldOut[position]?.addHeldOut(answer)
        else heldOut[position]?.addAnswerable(query, answer)
      }
    }
    await base.db.transaction(async (tx) => {
      for (const document of documents) {
        await base.knowledge.indexArticle(tx, { id: articleIdOf.get(document.id) as number, title: document.title, content: document.text })
      }
    })
    answerers.forEach((answerer, position) =>
      log(`  ${answerer.label}, fold ${foldPosition + 1} of ${folds.length} held out (${fold.length} articles, ${documents.length} documents): ${describeAnswers((heldOut[position] as AnswerTally).figures())} so far`),
    )
  }
  return answerers.map((answerer, position) => ({
    label: answerer.label,
    description: answerer.description,
    whole: (whole[position] as AnswerTally).figures(),
    heldOut: folds.length > 0 ? (heldOut[position] as AnswerTally).figures() : undefined,
    folds: folds.length,
  }))
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
  answers: AnswerResult[],
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
  if (answers.length > 0) {
    const row = (answerer: AnswerResult, label: string, figures: AnswerFigures) => [
      answerer.label,
      label,
      `${figures.answerable}`,
      `**${percent(figures.containsGoldShare)}**`,
      `**${figures.meanWords.toFixed(1)}**`,
      percent(1 - figures.answered / Math.max(1, figures.answerable)),
      figures.heldOut > 0 ? `${figures.heldOut}` : '–',
      figures.heldOut > 0 ? `**${percent(figures.heldOutNotFoundShare)}**` : '–',
    ]
    const folds = answers[0]?.folds ?? 0
    lines.push(
      ...answers.map((answerer) => answerer.description),
      '',
      '"Contains gold": the answer contains a gold answer after SQuAD normalisation, a not-found answer counting as a miss; words: mean length of the answers given, citation markers left out. ' +
        (folds > 0
          ? `Held out: the articles are split into ${folds} folds (round-robin in corpus order) and each fold is unpublished in turn; its questions should get the not-found answer, the others are asked of the rest. `
          : '') +
        (answers.some((answerer) => answerer.whole.heldOut > 0)
          ? 'With every article, the held-out questions are those of the dataset\'s unanswerable.jsonl, which no article answers.'
          : ''),
      '',
      formatMarkdownTable(
        ['answers', 'knowledge base', 'answerable questions', 'contains gold', 'mean words', 'not-found (answerable)', 'held-out questions', 'not-found (held out)'],
        answers.flatMap((answerer) => [
          row(answerer, 'every article', answerer.whole),
          ...(answerer.heldOut ? [row(answerer, `a fold held out, ${answerer.folds} folds`, answerer.heldOut)] : []),
        ]),
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

    // Model answers beside the extractive ones, when a language model endpoint is given (LLM_BASE_URL, LLM_MODELS, as
    // the backend reads them).
    const answerers = [extractiveAnswerer(base)]
    const model = modelAnswerConfig(process.env)
    const hasGoldAnswers = dataset.queries.some((query) => query.answers && query.answers.length > 0)
    if (model && hasGoldAnswers) answerers.push(await createModelAnswerer(base, model))
    else if (hasGoldAnswers) notes.push('Model answers not measured: no language model endpoint given (LLM_BASE_URL, LLM_MODELS).')
    const answers = await scoreAnswers(base, dataset, options.answerFolds, answerers, dataset.unanswerable)
    for (const answerer of answerers) notes.push(...answerer.notes())

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
