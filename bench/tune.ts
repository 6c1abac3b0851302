/**
 * Parameter sweep for the product's BM25 on the TRAIN split of a BEIR dataset (never the test split), in two
 * stages: first the title weight, k1 and b (with the default RM3 expansion), then the RM3 settings at the best
 * of those. Prints one line per setting and the best train nDCG@10 first.
 * Usage: npx tsx bench/tune.ts --dataset ../shared/datasets/scifact [--quick]
 */
import { parseArgs } from 'node:util'
import { loadBeirDataset } from './lib/beir-dataset'
import { buildIndex, chunkCorpusLikeIndexArticle, searchDocuments, type CorpusChunk } from './lib/in-memory-product'
import { scoreRun } from './lib/metrics'
import { defaultQueryExpansion, knowledgeBaseBm25Parameters, TITLE_WEIGHT, type QueryExpansionOptions } from '../backend/src/retrieval/bm25-index'

const { values } = parseArgs({ options: { dataset: { type: 'string', default: '../shared/datasets/scifact' }, quick: { type: 'boolean', default: false } } })
const train = await loadBeirDataset(values.dataset as string, 'train')
const chunksByTitleWeight = new Map<number, CorpusChunk[]>()
const chunksOf = (titleWeight: number) => {
  let chunks = chunksByTitleWeight.get(titleWeight)
  if (!chunks) chunksByTitleWeight.set(titleWeight, (chunks = chunkCorpusLikeIndexArticle(train.corpus, titleWeight)))
  return chunks
}
console.log(`${train.name} train: ${train.queries.length} queries, ${train.corpus.length} documents, ${chunksOf(TITLE_WEIGHT).length} chunks`)

interface Setting {
  titleWeight: number
  k1: number
  b: number
  expansion: QueryExpansionOptions | false
}

const results: [number, Setting][] = []
function evaluate(setting: Setting): number {
  const index = buildIndex(chunksOf(setting.titleWeight), { k1: setting.k1, b: setting.b }, setting.expansion)
  const rankings = new Map(train.queries.map((query) => [query.id, searchDocuments(index, train.corpus, query.text, 100)]))
  const ndcg = scoreRun(rankings, train.qrels).ndcgAt10
  results.push([ndcg, setting])
  console.log(`train nDCG@10 ${ndcg.toFixed(4)}  ${JSON.stringify(setting)}`)
  return ndcg
}
const best = () => [...results].sort((a, b) => b[0] - a[0])[0] as [number, Setting]

const defaults: Setting = { titleWeight: TITLE_WEIGHT, ...knowledgeBaseBm25Parameters, expansion: defaultQueryExpansion }
evaluate({ ...defaults, expansion: false })
evaluate(defaults)
if (!values.quick) {
  console.log('\nstage 1: title weight, k1, b (default RM3)')
  for (const titleWeight of [1, 2, 3]) {
    for (const [k1, b] of [[0.9, 0.4], [0.9, 0.5], [1.2, 0.4], [1.2, 0.5], [1.2, 0.75]] as const) {
      if (titleWeight === defaults.titleWeight && k1 === defaults.k1 && b === defaults.b) continue
      evaluate({ titleWeight, k1, b, expansion: defaultQueryExpansion })
    }
  }
  const [, stageOne] = best()
  console.log(`\nstage 2: RM3 at ${JSON.stringify({ ...stageOne, expansion: undefined })}`)
  evaluate({ ...stageOne, expansion: false })
  for (const feedbackChunks of [5, 10, 20]) {
    for (const expansionTerms of [10, 20, 30]) {
      for (const originalQueryWeight of [0.6, 0.7, 0.8]) {
        const expansion = { ...defaultQueryExpansion, feedbackChunks, expansionTerms, originalQueryWeight }
        if (JSON.stringify(expansion) !== JSON.stringify(stageOne.expansion)) evaluate({ ...stageOne, expansion })
      }
    }
  }
}
console.log('\nbest on train:')
for (const [ndcg, setting] of [...results].sort((a, b) => b[0] - a[0]).slice(0, 5)) console.log(`  ${ndcg.toFixed(4)}  ${JSON.stringify(setting)}`)
