import type { RelatedArticle } from '../../../contracts/ask'
import { passageEvidence } from '../retrieval/extractive-answer'
import type { CitableChunk } from './citations'

/**
 * Evidence (`passageEvidence`: the share of the question's attainable BM25 score a passage reaches) from which a
 * passage's article may help with a question it does not answer (ADR 314). Measured on squad-dev-even with each quarter
 * of its articles held out in turn: of the answerable questions that got the not-found answer, 83% then list their own
 * article, and 29% of the questions about an article missing from the knowledge base get a list (at 0.15: 90% and 43%;
 * at 0.18: 77% and 24%). On the built-in guide it lists "How to use the query logs" for "Do ordinary users get access
 * to the Logs tab?" (0.17), and nothing for "What is the refund policy for the swimming pool?" (0.16).
 */
export const RELATED_MIN_EVIDENCE = 0.17

/** Articles listed at most under a not-found answer. */
export const MAX_RELATED_ARTICLES = 3

/**
 * The articles that may help with a question the answer did not find: those of the retrieved passages (best first)
 * whose evidence reaches RELATED_MIN_EVIDENCE, each once, at most MAX_RELATED_ARTICLES.
 */
export function relatedArticles(
  question: string,
  chunks: readonly CitableChunk[],
  weightOf: (term: string) => number,
  correctTerm?: (term: string) => string | undefined,
): RelatedArticle[] {
  if (chunks.length === 0) return []
  const evidence = passageEvidence(question, chunks, weightOf, correctTerm)
  const related: RelatedArticle[] = []
  chunks.forEach((chunk, position) => {
    if (related.length >= MAX_RELATED_ARTICLES || (evidence[position] ?? 0) < RELATED_MIN_EVIDENCE) return
    if (!related.some((article) => article.article_id === chunk.articleId)) related.push({ article_id: chunk.articleId, title: chunk.title })
  })
  return related
}
