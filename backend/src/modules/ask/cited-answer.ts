import type { Source } from '../../../../contracts/ask'
import { composeExtractiveAnswer, type ExtractiveAnswerOptions } from '../../retrieval/extractive-answer'
import type { RetrievedChunk } from '../knowledge/knowledge.service'

/** What the assistant says when the knowledge base has nothing on a question; the agents say the same. */
export const NOT_FOUND_ANSWER =
  'I could not find an answer to that in the knowledge base. Try other words, or ask an administrator to add an article about it.'

/** A passage that can be quoted and cited: what an answer's sources are made of. */
export interface CitableChunk {
  chunkId: number
  articleId: number
  title: string
  text: string
  /** Where the article came from (its URL or file name), else its title. */
  source: string
  score: number
}

export const toCitableChunk = (chunk: RetrievedChunk): CitableChunk => ({
  chunkId: chunk.chunkId,
  articleId: chunk.articleId,
  title: chunk.title,
  text: chunk.text,
  source: typeof chunk.metadata.source === 'string' ? chunk.metadata.source : chunk.title,
  score: Number(chunk.score.toFixed(4)),
})

export const toSource = (chunk: CitableChunk): Source => ({
  page_content: chunk.text,
  metadata: { source: chunk.source, id: chunk.chunkId, doc_id: chunk.articleId, is_deleted: false, title: chunk.title, score: chunk.score },
})

/**
 * The sources of one answer, numbered in the order they are first cited, so that "[n]" in the text points at
 * the n-th source. Several parts of one answer (an agent's sub-questions or template sections) share one list.
 */
export class CitationList {
  private readonly numbers = new Map<number, number>()
  readonly sources: Source[] = []

  /** The number of a passage in this list, adding it when it is cited for the first time. */
  cite(chunk: CitableChunk): number {
    const known = this.numbers.get(chunk.chunkId)
    if (known !== undefined) return known
    this.sources.push(toSource(chunk))
    this.numbers.set(chunk.chunkId, this.sources.length)
    return this.sources.length
  }

  numberOf(chunkId: number): number | undefined {
    return this.numbers.get(chunkId)
  }
}

/**
 * An extractive answer to `question` from `chunks` (best first): the sentences that best cover it, each followed
 * by "[n]" numbered into `citations`. Null when no sentence covers enough of the question.
 */
export function composeCitedAnswer(
  question: string,
  chunks: CitableChunk[],
  weightOf: (term: string) => number,
  citations: CitationList,
  options: ExtractiveAnswerOptions = {},
): { text: string; citedChunkIds: number[] } | null {
  const extract = composeExtractiveAnswer(
    question,
    chunks.map((chunk) => ({ articleId: chunk.articleId, title: chunk.title, text: chunk.text })),
    weightOf,
    options,
  )
  if (!extract) return null
  // Cite in source order so that, in a fresh list, the best-ranked cited passage is [1].
  for (const sourceIndex of extract.citedSourceIndexes) citations.cite(chunks[sourceIndex])
  const text = extract.sentences.map((sentence) => `${sentence.text} [${citations.cite(chunks[sentence.sourceIndex])}]`).join(' ')
  return { text, citedChunkIds: extract.citedSourceIndexes.map((sourceIndex) => chunks[sourceIndex].chunkId) }
}
