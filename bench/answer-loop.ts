/**
 * The fast inner loop for the extractive answer (ADR 110): the answer figures of `npm run eval` on an in-memory
 * index built like the product's, without PGlite or the peers, in about a minute. Tuning data only.
 *
 *   npx tsx bench/answer-loop.ts [--squad ../shared/datasets/squad-dev-even] [--options '{"minEvidence":0.3}']
 *
 * Prints the figures with every article in the knowledge base and with four folds held out in turn, for the
 * answerer's defaults and, when given, for the defaults overridden by --options.
 */
import { parseArgs } from 'node:util'
import { loadBeirDataset } from './lib/beir-dataset'
import { heldOutFolds, prepareAnswerCases, scoreAnswerCases, type AnswerFigures } from './lib/answer-evaluation'
import { defaultExtractiveAnswerOptions, type ExtractiveAnswerOptions } from '../backend/src/retrieval/extractive-answer'

const { values } = parseArgs({
  options: {
    squad: { type: 'string', default: '../shared/datasets/squad-dev-even' },
    options: { type: 'string' },
  },
})

const squad = await loadBeirDataset(values.squad as string, 'test')
const whole = prepareAnswerCases(squad, [])
const heldOut = prepareAnswerCases(squad, heldOutFolds(squad, 4))
const describe = (figures: AnswerFigures) =>
  `contains gold ${(100 * figures.containsGoldShare).toFixed(1)}% at ${figures.meanWords.toFixed(1)} words (not-found ${(100 * (1 - figures.answered / figures.answerable)).toFixed(1)}%)`
const settings: [string, ExtractiveAnswerOptions][] = [['defaults', defaultExtractiveAnswerOptions]]
if (values.options) settings.push([values.options, { ...defaultExtractiveAnswerOptions, ...(JSON.parse(values.options) as ExtractiveAnswerOptions) }])
for (const [label, options] of settings) {
  const folds = scoreAnswerCases(heldOut, options)
  console.log(`whole: ${describe(scoreAnswerCases(whole, options))}; folds: ${describe(folds)}, held-out not-found ${(100 * folds.heldOutNotFoundShare).toFixed(1)}%  ${label}`)
}
