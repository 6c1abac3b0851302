/**
 * Parameter sweeps for the product's retrieval and extractive answers, on tuning data only: the TRAIN split of
 * SciFact (never its test split) and squad-dev-even (the even-numbered SQuAD dev articles; the odd ones are
 * kept unseen). Prints one line per setting and the best settings of each stage.
 *
 *   npx tsx bench/tune.ts [--dataset ../shared/datasets/scifact] [--squad ../shared/datasets/squad-dev-even]
 *                         [--stage bm25|questions|answers|all] [--quick]
 *
 * - bm25 (SciFact train): title weight, k1 and b with the default RM3, then the RM3 settings at the best of those.
 * - questions (SciFact train and squad-dev-even): proximity weights, RM3 for questions, answer-type words (ADR 075),
 *   and whether the first pass's score gap tells when RM3 helps.
 * - answers (squad-dev-even, four held-out folds): the extractive answer's settings (ADR 076).
 */
import { parseArgs } from 'node:util'
import { loadBeirDataset, type BeirDataset } from './lib/beir-dataset'
import { buildIndex, chunkCorpusLikeIndexArticle, searchDocuments, type CorpusChunk } from './lib/in-memory-product'
import { computeNdcg, scoreRun } from './lib/metrics'
import { heldOutFolds, prepareAnswerCases, scoreAnswerCases, type AnswerFigures } from './lib/answer-evaluation'
import { defaultQueryExpansion, knowledgeBaseBm25Parameters, TITLE_WEIGHT, type Bm25Parameters, type QueryExpansionOptions } from '../backend/src/retrieval/bm25-index'
import { defaultExtractiveAnswerOptions, type ExtractiveAnswerOptions } from '../backend/src/retrieval/extractive-answer'
import { parseQuery, type QueryParsingOptions } from '../backend/src/retrieval/query'

const { values } = parseArgs({
  options: {
    dataset: { type: 'string', default: '../shared/datasets/scifact' },
    squad: { type: 'string', default: '../shared/datasets/squad-dev-even' },
    stage: { type: 'string', default: 'all' },
    quick: { type: 'boolean', default: false },
  },
})
const stages = new Set(values.stage === 'all' ? ['bm25', 'questions', 'answers'] : String(values.stage).split(','))

interface Setting {
  titleWeight: number
  parameters: Bm25Parameters
  expansion: QueryExpansionOptions | false
  parsing?: QueryParsingOptions
}

const chunkCache = new Map<string, CorpusChunk[]>()
function chunksOf(dataset: BeirDataset, titleWeight: number): CorpusChunk[] {
  const key = `${dataset.name}:${titleWeight}`
  let chunks = chunkCache.get(key)
  if (!chunks) chunkCache.set(key, (chunks = chunkCorpusLikeIndexArticle(dataset.corpus, titleWeight)))
  return chunks
}

function rankingsOf(dataset: BeirDataset, setting: Setting): Map<string, string[]> {
  const index = buildIndex(chunksOf(dataset, setting.titleWeight), setting.parameters, setting.expansion)
  return new Map(dataset.queries.map((query) => [query.id, searchDocuments(index, dataset.corpus, query.text, 100, setting.parsing)]))
}

function evaluate(dataset: BeirDataset, setting: Setting, label = ''): number {
  const ndcg = scoreRun(rankingsOf(dataset, setting), dataset.qrels).ndcgAt10
  console.log(`${dataset.name} ${dataset.split} nDCG@10 ${ndcg.toFixed(4)}  ${label || JSON.stringify(setting)}`)
  return ndcg
}

const defaults: Setting = { titleWeight: TITLE_WEIGHT, parameters: knowledgeBaseBm25Parameters, expansion: defaultQueryExpansion }
const train = await loadBeirDataset(values.dataset as string, 'train')
console.log(`${train.name} train: ${train.queries.length} queries, ${train.corpus.length} documents, ${chunksOf(train, TITLE_WEIGHT).length} chunks`)

if (stages.has('bm25')) {
  const results: [number, Setting][] = []
  const run = (setting: Setting) => results.push([evaluate(train, setting), setting])
  const best = () => [...results].sort((a, b) => b[0] - a[0])[0] as [number, Setting]
  run({ ...defaults, expansion: false })
  run(defaults)
  if (!values.quick) {
    console.log('\nstage bm25, 1: title weight, k1, b (default RM3)')
    for (const titleWeight of [1, 2, 3]) {
      for (const [k1, b] of [[0.9, 0.4], [0.9, 0.5], [1.2, 0.4], [1.2, 0.5], [1.2, 0.75]] as const) {
        if (titleWeight === defaults.titleWeight && k1 === defaults.parameters.k1 && b === defaults.parameters.b) continue
        run({ ...defaults, titleWeight, parameters: { ...defaults.parameters, k1, b } })
      }
    }
    const [, stageOne] = best()
    console.log(`\nstage bm25, 2: RM3 at ${JSON.stringify({ ...stageOne, expansion: undefined })}`)
    run({ ...stageOne, expansion: false })
    for (const feedbackChunks of [5, 10, 20]) {
      for (const expansionTerms of [10, 20, 30]) {
        for (const originalQueryWeight of [0.6, 0.7, 0.8]) {
          const expansion = { ...defaultQueryExpansion, feedbackChunks, expansionTerms, originalQueryWeight }
          if (JSON.stringify(expansion) !== JSON.stringify(stageOne.expansion)) run({ ...stageOne, expansion })
        }
      }
    }
  }
  console.log('\nbest on train:')
  for (const [ndcg, setting] of [...results].sort((a, b) => b[0] - a[0]).slice(0, 5)) console.log(`  ${ndcg.toFixed(4)}  ${JSON.stringify(setting)}`)
}

const squad = stages.has('questions') || stages.has('answers') ? await loadBeirDataset(values.squad as string, 'test') : undefined

if (stages.has('questions') && squad) {
  console.log(`\n${squad.name}: ${squad.queries.length} questions, ${squad.corpus.length} paragraphs, ${chunksOf(squad, TITLE_WEIGHT).length} chunks`)
  const questionShare = (dataset: BeirDataset) => dataset.queries.filter((query) => parseQuery(query.text).isQuestion).length
  console.log(`read as questions: ${train.name} train ${questionShare(train)} of ${train.queries.length}, ${squad.name} ${questionShare(squad)} of ${squad.queries.length}`)

  console.log('\nstage questions, 1: does the first pass tell when RM3 helps? Mean nDCG@10 change from RM3 by quartile of the first-pass score gap (best − second) / best')
  for (const dataset of [train, squad]) {
    const plainIndex = buildIndex(chunksOf(dataset, TITLE_WEIGHT), { k1: defaults.parameters.k1, b: defaults.parameters.b }, false)
    const expanded = rankingsOf(dataset, { ...defaults, parameters: { k1: defaults.parameters.k1, b: defaults.parameters.b }, expansion: { ...defaultQueryExpansion, questionOriginalWeight: undefined } })
    const plain = rankingsOf(dataset, { ...defaults, parameters: { k1: defaults.parameters.k1, b: defaults.parameters.b }, expansion: false })
    const rows = dataset.queries.map((query) => {
      const first = plainIndex.search(parseQuery(query.text), 2)
      const gap = first.length < 2 ? 1 : ((first[0]?.score ?? 0) - (first[1]?.score ?? 0)) / (first[0]?.score || 1)
      const judgements = dataset.qrels.get(query.id) ?? new Map()
      return { gap, change: computeNdcg(expanded.get(query.id) ?? [], judgements, 10) - computeNdcg(plain.get(query.id) ?? [], judgements, 10) }
    })
    rows.sort((a, b) => a.gap - b.gap)
    const quartiles = [0, 1, 2, 3].map((quarter) => {
      const part = rows.slice(Math.floor((quarter * rows.length) / 4), Math.floor(((quarter + 1) * rows.length) / 4))
      const mean = part.reduce((sum, row) => sum + row.change, 0) / part.length
      return `gap ${(part[0]?.gap ?? 0).toFixed(2)}–${(part[part.length - 1]?.gap ?? 0).toFixed(2)}: ${mean >= 0 ? '+' : ''}${mean.toFixed(4)}`
    })
    console.log(`  ${dataset.name}: ${quartiles.join('; ')}`)
  }

  console.log(`\nstage questions, 2: proximity weight for queries that are not questions (${train.name} train)`)
  const claimResults: [number, number][] = []
  for (const proximityWeight of [0, 0.25, 0.5, 0.75]) {
    claimResults.push([evaluate(train, { ...defaults, parameters: { ...defaults.parameters, proximityWeight } }, `proximityWeight ${proximityWeight}`), proximityWeight])
  }

  console.log(`\nstage questions, 3: questions (${squad.name}): proximity weight × RM3 share of the question × answer-type word weight`)
  const questionResults: [number, string][] = []
  for (const questionProximityWeight of values.quick ? [0, 0.5] : [0, 0.25, 0.5, 0.75, 1]) {
    for (const questionOriginalWeight of values.quick ? [0.7, 1] : [0.7, 0.85, 1]) {
      for (const answerTypeWordWeight of values.quick ? [0, 1] : [0, 0.3, 1]) {
        const label = `questionProximityWeight ${questionProximityWeight}, questionOriginalWeight ${questionOriginalWeight}, answerTypeWordWeight ${answerTypeWordWeight}`
        const setting: Setting = {
          ...defaults,
          parameters: { ...defaults.parameters, questionProximityWeight },
          expansion: { ...defaultQueryExpansion, questionOriginalWeight },
          parsing: { answerTypeWordWeight },
        }
        questionResults.push([evaluate(squad, setting, label), label])
      }
    }
  }
  console.log('\nbest for claims (SciFact train):')
  for (const [ndcg, weight] of [...claimResults].sort((a, b) => b[0] - a[0])) console.log(`  ${ndcg.toFixed(4)}  proximityWeight ${weight}`)
  console.log('best for questions (squad-dev-even):')
  for (const [ndcg, label] of [...questionResults].sort((a, b) => b[0] - a[0]).slice(0, 8)) console.log(`  ${ndcg.toFixed(4)}  ${label}`)
}

if (stages.has('answers') && squad) {
  console.log(`\nstage answers (${squad.name}, four folds: each holds a quarter of the articles out of the knowledge base)`)
  const whole = prepareAnswerCases(squad, [])
  const heldOut = prepareAnswerCases(squad, heldOutFolds(squad, 4))
  const describe = (figures: AnswerFigures) =>
    `contains gold ${(100 * figures.containsGoldShare).toFixed(1)}% at ${figures.meanWords.toFixed(1)} words (not-found ${(100 * (1 - figures.answered / figures.answerable)).toFixed(1)}%)`
  const grid: [string, ExtractiveAnswerOptions][] = [
    ['defaults', {}],
    ['one sentence', { maxSentences: 1 }],
    ['no not-found check', { minCoverage: 0, minSourceCoverage: 0 }],
  ]
  if (!values.quick) {
    for (const minCoverage of [0.2, 0.3, 0.35, 0.375, 0.4, 0.45]) {
      for (const minSourceCoverage of [0, 0.4, 0.5, 0.55, 0.6]) {
        for (const maxScoreGap of [0, 0.1, 0.15, 0.2, 0.3]) {
          grid.push([`minCoverage ${minCoverage}, minSourceCoverage ${minSourceCoverage}, maxScoreGap ${maxScoreGap}`, { minCoverage, minSourceCoverage, maxScoreGap }])
        }
      }
    }
    for (const minFreshCoverage of [0.05, 0.2]) grid.push([`minFreshCoverage ${minFreshCoverage}`, { minFreshCoverage }])
  }
  const rows: { label: string; whole: AnswerFigures; heldOut: AnswerFigures }[] = []
  for (const [label, options] of grid) {
    const row = { label, whole: scoreAnswerCases(whole, { ...defaultExtractiveAnswerOptions, ...options }), heldOut: scoreAnswerCases(heldOut, { ...defaultExtractiveAnswerOptions, ...options }) }
    rows.push(row)
    console.log(`  whole: ${describe(row.whole)}; folds: ${describe(row.heldOut)}, held-out not-found ${(100 * row.heldOut.heldOutNotFoundShare).toFixed(1)}%  ${label}`)
  }
  // The brief: held-out not-found at least 90% and answers of at most 35 words; among those, the most answers containing gold.
  const eligible = rows.filter((row) => row.heldOut.heldOutNotFoundShare >= 0.9 && row.whole.meanWords <= 35 && row.heldOut.meanWords <= 35)
  console.log('\nbest with held-out not-found ≥ 90% and ≤ 35 words (by contains gold, folds):')
  for (const row of eligible.sort((a, b) => b.heldOut.containsGoldShare - a.heldOut.containsGoldShare).slice(0, 8)) {
    console.log(`  folds ${(100 * row.heldOut.containsGoldShare).toFixed(1)}% / whole ${(100 * row.whole.containsGoldShare).toFixed(1)}%  ${row.label}`)
  }
}
