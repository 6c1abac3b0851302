import { composeExtractiveAnswer, rankAnswerSentences, selectAnswerSentences, type AnswerSource, type ExtractiveAnswerOptions, type RankedSentences } from '../../backend/src/retrieval/extractive-answer'
import { parseQuery } from '../../backend/src/retrieval/query'
import { containsGoldAnswer, countWords } from './answer-scoring'
import type { BeirDataset, BenchmarkQuery, CorpusDocument } from './beir-dataset'
import { buildIndex, chunkCorpusLikeIndexArticle, type CorpusChunk } from './in-memory-product'

/** Sources the ask endpoint composes an answer from (bot setting num_sources_k's default). */
export const ANSWER_SOURCES = 4

/**
 * The answer figures, always together: the share of answerable questions whose answer contains a gold answer
 * (a not-found answer counts as a miss), the mean length of the answers given, and the share of questions about
 * articles missing from the knowledge base that get the not-found answer.
 */
export interface AnswerFigures {
  /** Questions asked with their article in the knowledge base (summed over folds when there are several). */
  answerable: number
  answered: number
  containingGold: number
  containsGoldShare: number
  /** Mean words of the answers given (citation markers left out). */
  meanWords: number
  /** Questions asked with their article held out of the knowledge base. */
  heldOut: number
  heldOutNotFound: number
  heldOutNotFoundShare: number
}

/** What one answered question contributes. */
export interface AnswerOutcome {
  text: string | null
}

/** Accumulates outcomes into figures. */
export class AnswerTally {
  private answerable = 0
  private answered = 0
  private containingGold = 0
  private words = 0
  private heldOut = 0
  private heldOutNotFound = 0

  addAnswerable(query: BenchmarkQuery, answer: string | null): void {
    this.answerable += 1
    if (answer === null) return
    this.answered += 1
    this.words += countWords(answer)
    if (containsGoldAnswer(answer, query.answers ?? [])) this.containingGold += 1
  }

  addHeldOut(answer: string | null): void {
    this.heldOut += 1
    if (answer === null) this.heldOutNotFound += 1
  }

  figures(): AnswerFigures {
    return {
      answerable: this.answerable,
      answered: this.answered,
      containingGold: this.containingGold,
      containsGoldShare: this.answerable === 0 ? 0 : this.containingGold / this.answerable,
      meanWords: this.answered === 0 ? 0 : this.words / this.answered,
      heldOut: this.heldOut,
      heldOutNotFound: this.heldOutNotFound,
      heldOutNotFoundShare: this.heldOut === 0 ? 0 : this.heldOutNotFound / this.heldOut,
    }
  }
}

/** The article a document belongs to: documents sharing a title are paragraphs of one article (SQuAD). */
export const articleOf = (document: CorpusDocument): string => document.title || document.id

/**
 * Splits the dataset's articles into `count` folds, round-robin in corpus order; each fold is held out of the
 * knowledge base in turn while its questions are asked.
 */
export function heldOutFolds(dataset: BeirDataset, count: number): string[][] {
  const articles = [...new Set(dataset.corpus.map(articleOf))]
  const folds: string[][] = Array.from({ length: count }, () => [])
  articles.forEach((article, position) => folds[position % count]?.push(article))
  return folds.filter((fold) => fold.length > 0)
}

/** The articles of a question's relevant documents. */
export function articlesOfQuery(dataset: BeirDataset, query: BenchmarkQuery, documentsById: Map<string, CorpusDocument>): Set<string> {
  const articles = new Set<string>()
  for (const [documentId, grade] of dataset.qrels.get(query.id) ?? []) {
    const document = documentsById.get(documentId)
    if (document && grade > 0) articles.add(articleOf(document))
  }
  return articles
}

/** The answer text as the user reads it, without citation markers; null for the not-found answer. */
export function answerText(
  question: string,
  sources: AnswerSource[],
  weightOf: (term: string) => number,
  options: ExtractiveAnswerOptions,
  correctTerm?: (term: string) => string | undefined,
): string | null {
  const answer = composeExtractiveAnswer(question, sources, weightOf, options, correctTerm)
  return answer ? answer.sentences.map((sentence) => sentence.text).join(' ') : null
}

/** One question asked of one knowledge base: its sentences as the answerer ranks them, and whether its article was held out. */
export interface AnswerCase {
  query: BenchmarkQuery
  ranked: RankedSentences | null
  isHeldOut: boolean
}

/**
 * Retrieves the sources of every question on an in-memory index built like the product's (for tuning sweeps):
 * with every fold's articles held out in turn, or with every article when there are no folds. Retrieval does not
 * depend on the answerer's options, so a sweep retrieves once and composes many times.
 */
export function prepareAnswerCases(dataset: BeirDataset, folds: string[][]): AnswerCase[] {
  const allChunks = chunkCorpusLikeIndexArticle(dataset.corpus)
  const byId = new Map(allChunks.map((chunk) => [chunk.chunkId, chunk]))
  const documentsById = new Map(dataset.corpus.map((document) => [document.id, document]))
  const questions = dataset.queries.filter((query) => query.answers && query.answers.length > 0)
  const cases: AnswerCase[] = []
  for (const fold of folds.length > 0 ? folds : [[]]) {
    const heldOut = new Set(fold)
    const index = buildIndex(allChunks.filter((chunk) => !heldOut.has(articleOf(dataset.corpus[chunk.articleId - 1] as CorpusDocument))))
    const weightOf = (term: string) => index.idf(term)
    const correctTerm = (term: string) => index.correction(term)
    for (const query of questions) {
      const sources = index.search(parseQuery(query.text, { correctTerm }), ANSWER_SOURCES).map((hit) => {
        const document = dataset.corpus[hit.articleId - 1] as CorpusDocument
        return { articleId: hit.articleId, title: document.title, text: (byId.get(hit.chunkId) as CorpusChunk).text, score: hit.score }
      })
      const isHeldOut = [...articlesOfQuery(dataset, query, documentsById)].some((article) => heldOut.has(article))
      cases.push({ query, ranked: rankAnswerSentences(query.text, sources, weightOf, correctTerm), isHeldOut })
    }
  }
  return cases
}

/**
 * The answer figures of prepared cases with the given answerer options: composeExtractiveAnswer's selection on
 * sentences ranked once (the options do not change the ranking).
 */
export function scoreAnswerCases(cases: readonly AnswerCase[], options: ExtractiveAnswerOptions): AnswerFigures {
  const tally = new AnswerTally()
  for (const { query, ranked, isHeldOut } of cases) {
    const selected = ranked ? selectAnswerSentences(ranked, options) : null
    const answer = selected ? selected.sentences.map((sentence) => sentence.text).join(' ') : null
    if (isHeldOut) tally.addHeldOut(answer)
    else tally.addAnswerable(query, answer)
  }
  return tally.figures()
}
