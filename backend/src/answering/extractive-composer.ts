import { analyzeSentences } from '../retrieval/chunker'
import { composeExtractiveAnswer, layOutAnswer, type ExtractiveAnswerOptions } from '../retrieval/extractive-answer'
import { tokenize } from '../retrieval/text'
import { readRequest } from './request-frame'
import type { CitableChunk, CitationList } from './citations'
import { compositionOf, type ComposedPart, type ComposeRequest, type Composition, type StreamingComposer } from './composer'

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
  correctTerm?: (stem: string) => string | undefined,
): ComposedPart | null {
  // Each passage's retrieval score goes with it: a sentence of a passage that matched far better weighs more than one
  // of the next passage down, which its rank alone would not tell.
  const extract = composeExtractiveAnswer(
    question,
    chunks.map((chunk) => ({ articleId: chunk.articleId, title: chunk.title, text: chunk.text, score: chunk.score })),
    weightOf,
    options,
    correctTerm,
  )
  if (!extract) return null
  // Cite in source order so that, in a fresh list, the best-ranked cited passage is [1].
  for (const sourceIndex of extract.citedSourceIndexes) citations.cite(chunks[sourceIndex])
  const sentences = extract.sentences.map((sentence) => ({ ...sentence, text: quotedFormOf(sentence.text, chunks[sentence.sourceIndex].text) }))
  const text = layOutAnswer(sentences, (index) => `[${citations.cite(chunks[extract.sentences[index].sourceIndex])}]`, extract.numbered)
  return { text, citedChunkIds: extract.citedSourceIndexes.map((sourceIndex) => chunks[sourceIndex].chunkId), unsupported: [] }
}

/**
 * A chosen sentence as the answer shows it: its passage's sentence with the code spans the answerer's reading leaves
 * out kept ("use `##` for subheadings", not a bare "##" that reads as a stray Markdown mark).
 */
function quotedFormOf(sentence: string, passage: string): string {
  return analyzeSentences(passage).find((candidate) => candidate.text === sentence)?.quoted ?? sentence
}

/**
 * A summary quotes up to four sentences (120 words) that score within 0.5 of the best: the subject's main points
 * rather than the one sentence that answers a question. Sentences that repeat one another are still left out.
 */
export const SUMMARY_OPTIONS: ExtractiveAnswerOptions = Object.freeze({ maxSentences: 4, maxWords: 120, maxScoreGap: 0.5 })

/** Composes by quoting: the sentences of the passages that best cover the question, each cited. Never invents. */
export class ExtractiveComposer implements StreamingComposer {
  readonly name = 'extractive'

  constructor(
    private readonly weightOf: (stem: string) => number,
    /** The index's reading of a misspelt word (`Bm25Index.correction`), so that the answer reads the question as the search did. */
    private readonly correctTerm?: (stem: string) => string | undefined,
  ) {}

  async composePart({ question: request, focus, chunks, citations }: ComposeRequest): Promise<ComposedPart | null> {
    if (chunks.length === 0) return null
    // "Summarise what the knowledge base says about publishing drafts": quote on "publishing drafts", more broadly.
    const { subject: question, isSummary } = readRequest(request)
    if (!focus) return composeCitedAnswer(question, chunks, this.weightOf, citations, isSummary ? SUMMARY_OPTIONS : {}, this.correctTerm)
    // Focus words count only where the passages use them: they steer the choice of sentences, while a word no
    // passage contains ("Recommendation") would only make every sentence look off-topic.
    const questionStems = new Set(tokenize(question))
    const passageStems = new Set(chunks.flatMap((chunk) => tokenize(`${chunk.title}\n${chunk.text}`)))
    const weightOf = (stem: string) => (questionStems.has(stem) || passageStems.has(stem) ? this.weightOf(stem) : 0)
    return composeCitedAnswer(`${question}\n${focus}`, chunks, weightOf, citations, {}, this.correctTerm)
  }

  /** The quoted answer comes whole: choosing sentences needs all of them. */
  streamPart(request: ComposeRequest): Composition {
    const compose = () => this.composePart(request)
    return compositionOf(
      (async function* () {
        const part = await compose()
        if (part) yield part.text
        return part
      })(),
    )
  }
}
