import type { RelatedArticle, Source } from '../../../contracts/ask'
import type { LlmProvider } from '../llm/provider'
import { CitationList, type CitableChunk } from './citations'
import type { ComposedPart } from './composer'
import { ExtractiveComposer } from './extractive-composer'
import { onlyPlacesItself, readConversation } from './follow-up'
import { failureNoteOf, fallbackReasonOf, type FallbackReason } from './fallback'
import { splitGenerator } from './generator-result'
import { ModelComposer, type ModelRunReport, type PassageScreen } from './model-composer'
import { askAfterAnswer, NO_EARLIER_QUESTION_ANSWER, NOT_FOUND_ANSWER } from './not-found'
import type { PromptSettings, PromptTurn } from './prompt'
import { retrieveInConversation, type Retriever } from './retriever'
import { relatedArticles } from './related'
import { readRequest } from './request-frame'

/** Something to show while an answer is written. */
export type AnswerEvent =
  /** More text; concatenated, the deltas since the start (or the last reset) are the answer so far. */
  | { type: 'delta'; text: string }
  /** The sources cited so far ("[n]" is `sources[n - 1]`); sent whenever the list grows. */
  | { type: 'sources'; sources: Source[] }
  /** The model failed after it had begun: forget the text so far; the quoted answer follows. */
  | { type: 'reset'; note: string }

export interface AnsweredQuestion {
  text: string
  isFound: boolean
  sources: Source[]
  /** Sentences of `text` that cite nothing and that no source supports. */
  unsupported: string[]
  /** Shown with the answer: why it quotes the sources although a model is configured. */
  note: string | null
  composer: 'model' | 'extractive' | 'none'
  /** The model run, when a model was asked (also when it failed). */
  model: ModelRunReport | null
  fallback: FallbackReason | null
  /** With a not-found answer from passages that came close: the articles that may help (`relatedArticles`). */
  related?: RelatedArticle[]
}

export interface AnswerStream {
  readonly events: AsyncIterable<AnswerEvent>
  /** Settles once `events` has ended. */
  readonly result: Promise<AnsweredQuestion>
}

export type AnswerSettings = PromptSettings & { score_threshold: number }

export interface AnswerRequest {
  question: string
  settings: AnswerSettings
  /**
   * Chooses the model to write with (the asker's choice, llm_model, or the provider's default, which may need the
   * endpoint: a failure there is a model failure like any other). Undefined: quote the sources.
   */
  chooseModel?: () => Promise<string | undefined>
  signal?: AbortSignal
  /**
   * A follow-up's earlier turns in its thread, oldest first: their questions help find the passages (weighted
   * lower than the question's own words), and a model reads them as the conversation so far.
   */
  history?: PromptTurn[]
}

export interface QuestionAnswererOptions {
  retriever: Retriever
  /** The language model; without one every answer quotes the sources. */
  provider?: LlmProvider
  /** The firewall's screen for passages about to reach the model. */
  screenPassage?: PassageScreen
  now?: () => number
}

/**
 * Answers a question from the knowledge base: retrieve (num_sources_k passages clearing score_threshold), then
 * write with the model, checked as it streams, or quote. No passage: the fixed not-found answer, and no model is
 * asked. A model that fails (before or during its answer) is replaced by the quoted answer, with a note.
 */
export class QuestionAnswerer {
  constructor(private readonly options: QuestionAnswererOptions) {}

  get hasModel(): boolean {
    return this.options.provider !== undefined
  }

  answer(request: AnswerRequest): AnswerStream {
    const { items, result } = splitGenerator(this.run(request), 'answer')
    return { events: items, result }
  }

  /** The whole answer, without its events (the job path). */
  async complete(request: AnswerRequest): Promise<AnsweredQuestion> {
    const stream = this.answer(request)
    for await (const _event of stream.events) {
      // only the result matters here
    }
    return stream.result
  }

  private async *run(request: AnswerRequest): AsyncGenerator<AnswerEvent, AnsweredQuestion, undefined> {
    const { retriever, provider, screenPassage } = this.options
    const { settings } = request
    const history = request.history ?? []
    // "And how do I disable one?" after "How do I add a user?" asks how to disable a user, and "And how do I edit it
    // afterwards?" after "How do I add an article?" how to edit an article (a model reads the conversation itself;
    // search and the quoted answer read the question so, and search reads the earlier questions as they were read).
    // A follow-up that says only when it comes ("And afterwards?") asks nothing by itself: with no earlier question, or
    // no model to read the one there is, the asker is asked for the whole question rather than shown whatever passage
    // says "afterwards".
    if (onlyPlacesItself(request.question)) {
      const earlier = history.at(-1)?.question
      if (earlier === undefined || !provider) {
        const text = earlier === undefined ? NO_EARLIER_QUESTION_ANSWER : askAfterAnswer(earlier)
        yield { type: 'delta', text }
        return { text, isFound: false, sources: [], unsupported: [], note: null, composer: 'none', model: null, fallback: null }
      }
    }
    const conversation = readConversation(request.question, history.map((turn) => turn.question))
    const { question } = conversation
    const chunks = await retrieveInConversation(
      retriever,
      // A summary's framing words ("Summarise what the knowledge base says about …") are not what to find.
      readRequest(question).subject,
      conversation.earlierQuestions,
      { limit: settings.num_sources_k, scoreThreshold: settings.score_threshold },
    )
    if (chunks.length === 0) {
      yield { type: 'delta', text: NOT_FOUND_ANSWER }
      return { text: NOT_FOUND_ANSWER, isFound: false, sources: [], unsupported: [], note: null, composer: 'none', model: null, fallback: null }
    }

    let report: ModelRunReport | null = null
    let fallback: FallbackReason | null = null
    let note: string | null = null
    let model: string | undefined
    if (provider && request.chooseModel) {
      try {
        model = await request.chooseModel()
      } catch (error) {
        if (request.signal?.aborted) throw error
        fallback = fallbackReasonOf(error)
        note = failureNoteOf(error)
      }
    }
    if (provider && model) {
      const citations = new CitationList()
      const composer = new ModelComposer({ provider, model, settings, termWeight: retriever.termWeight, screenPassage, now: this.options.now, prompt: { history } })
      const composition = composer.streamPart({ question: request.question, chunks, citations, signal: request.signal })
      report = composition.report
      let hasShown = false
      let shownSources = 0
      try {
        for await (const text of composition.deltas) {
          hasShown = true
          yield { type: 'delta', text }
          if (citations.size > shownSources) {
            shownSources = citations.size
            yield { type: 'sources', sources: [...citations.sources] }
          }
        }
        const part = await composition.result
        if (part) return { ...this.modelAnswer(part, citations, report), ...this.relatedIfNotFound(part.citedChunkIds.length > 0, question, chunks) }
        // Every passage was screened out (before any text): nothing to answer from.
        yield { type: 'delta', text: NOT_FOUND_ANSWER }
        return { text: NOT_FOUND_ANSWER, isFound: false, sources: [], unsupported: [], note: null, composer: 'model', model: report, fallback: null }
      } catch (error) {
        // The asker left: nothing more to write.
        if (request.signal?.aborted) throw error
        fallback = fallbackReasonOf(error)
        note = failureNoteOf(error)
        if (hasShown) yield { type: 'reset', note }
      }
    }

    const citations = new CitationList()
    const quoted = await new ExtractiveComposer(retriever.termWeight, retriever.correctTerm).composePart({ question, chunks, citations })
    const text = quoted?.text ?? NOT_FOUND_ANSWER
    yield { type: 'delta', text }
    if (quoted && citations.size > 0) yield { type: 'sources', sources: [...citations.sources] }
    return { text, isFound: quoted !== null, sources: quoted ? citations.sources : [], unsupported: [], note, composer: 'extractive', model: report, fallback, ...this.relatedIfNotFound(quoted !== null, question, chunks) }
  }

  /** For a not-found answer, the articles of the passages that came close to the question, when there are any. */
  private relatedIfNotFound(isFound: boolean, question: string, chunks: readonly CitableChunk[]): Pick<AnsweredQuestion, 'related'> {
    if (isFound) return {}
    const { retriever } = this.options
    const related = relatedArticles(question, chunks, retriever.termWeight.bind(retriever), retriever.correctTerm?.bind(retriever))
    return related.length > 0 ? { related } : {}
  }

  private modelAnswer(part: ComposedPart, citations: CitationList, report: ModelRunReport): AnsweredQuestion {
    const isFound = part.citedChunkIds.length > 0
    return { text: part.text, isFound, sources: isFound ? citations.sources : [], unsupported: part.unsupported, note: null, composer: 'model', model: report, fallback: null }
  }
}
