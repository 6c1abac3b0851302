/**
 * Parameter sweep for the product's BM25 on the TRAIN split of a BEIR dataset (never the test split):
 * k1, b and the RM3 query expansion settings. Prints one line per setting, best train nDCG@10 first.
 * Usage: npx tsx bench/tune.ts --dataset ../shared/datasets/scifact [--quick]
 */
import { parseArgs } from 'node:util'
import { loadBeirDataset } from './lib/beir-dataset'
import { buildIndex, chunkCorpusLikeIndexArticle, searchDocuments } from './lib/in-memory-product'
import { scoreRun } from './lib/metrics'
import { defaultBm25Parameters } from '../backend/src/retrieval/bm25-index'
import { defaultQueryExpansion, type QueryExpansionOptions } from '../backend/src/retrieval/bm25-index'

const { values } = parseArgs({ options: { dataset: { type: 'string', default: '../shared/datasets/scifact' }, quick: { type: 'boolean', default: false } } })
const train = await loadBeirDataset(values.dataset as string, 'train')
const chunks = chunkCorpusLikeIndexArticle(train.corpus)
console.log(`${train.name} train: ${train.queries.length} queries, ${train.corpus.length} documents, ${chunks.length} chunks`)

interface Setting {
  k1: number
  b: number
  expansion: QueryExpansionOptions | false
}

function evaluateSetting(setting: Setting): number {
  const index = buildIndex(chunks, { k1: setting.k1, b: setting.b }, setting.expansion)
  const rankings = new Map(train.queries.map((query) => [query.id, searchDocuments(index, train.corpus, query.text, 100)]))
  return scoreRun(rankings, train.qrels).ndcgAt10
}

const settings: Setting[] = [{ ...defaultBm25Parameters, expansion: false }, { ...defaultBm25Parameters, expansion: defaultQueryExpansion }]
if (!values.quick) {
  for (const k1 of [0.9, 1.2]) {
    for (const b of [0.4, 0.5, 0.7]) {
      settings.push({ k1, b, expansion: false })
      for (const expansionTerms of [10, 20, 30]) {
        for (const originalQueryWeight of [0.6, 0.7, 0.8]) settings.push({ k1, b, expansion: { ...defaultQueryExpansion, expansionTerms, originalQueryWeight } })
      }
    }
  }
}
const results: [number, Setting][] = []
for (const setting of settings) {
  const ndcg = evaluateSetting(setting)
  results.push([ndcg, setting])
  console.log(`train nDCG@10 ${ndcg.toFixed(4)}  ${JSON.stringify(setting)}`)
}
console.log('\nbest on train:')
for (const [ndcg, setting] of results.sort((a, b) => b[0] - a[0]).slice(0, 5)) console.log(`  ${ndcg.toFixed(4)}  ${JSON.stringify(setting)}`)
