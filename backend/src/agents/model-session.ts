import { USE_DEFAULT_MODEL } from '../../../contracts/settings'
import type { ComposedPart, Composer, ComposeRequest } from '../answering/composer'
import { fallbackReasonOf, modelFailureNote, reasonText, type FallbackReason } from '../answering/fallback'
import { ModelComposer, type PassageScreen } from '../answering/model-composer'
import type { PromptSettings } from '../answering/prompt'
import { LlmError, type LlmProvider } from '../llm/provider'

/** A sentence for the run's trace, written by the planner or the composer as it goes. */
export interface ReasoningNote {
  status: 'done' | 'failed'
  detail: string
  error?: string | null
}

const REASON_TEXT: Record<FallbackReason, string> = {
  timeout: 'it timed out',
  rate_limited: 'too many requests',
  server: 'server error',
  connection: 'the connection failed',
  bad_response: 'unusable response',
  refused: 'the request was refused',
  interrupted: 'its answer was cut off',
  model_not_found: 'the model is not available at the endpoint',
  error: 'error',
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error))

/**
 * How a run's answer was written, for its asker (the answer's note and model, as on the Ask screen) and its log:
 * `model` wrote at least one part; `note` says that parts quote the sources because the model failed, and why.
 */
export interface WritingReport {
  model: string | null
  fallback: FallbackReason | null
  note: string | null
}

/**
 * One run's use of the language model: which model it asks (Agent settings' llm_model, or the provider's default),
 * whether the model has failed (after which the run plans from the words alone), and the trace sentences about it.
 */
export class ModelSession {
  /** The first failure that made the run plan (and, for the general agent, write) without the model. */
  failure: { reason: FallbackReason; message: string; model?: string } | null = null
  private readonly notes: ReasoningNote[] = []
  private chosen: Promise<string> | undefined
  /** Parts the model wrote, by model; and parts quoted because it failed, with the first failure. */
  private readonly writers = new Set<string>()
  private quotedParts = 0
  private quotedPart: 'part' | 'section' = 'part'
  private quotedBecause: { reason: FallbackReason; model?: string } | null = null

  constructor(
    readonly provider: LlmProvider,
    private readonly llmModel: string,
    /** Aborted when the run is cancelled or the backend stops: not a model failure. */
    readonly signal?: AbortSignal,
  ) {}

  /** The model to ask; choosing the default may need the endpoint, and a failure there is a model failure. */
  model(): Promise<string> {
    const configured = this.llmModel.trim()
    this.chosen ??= configured && configured !== USE_DEFAULT_MODEL ? Promise.resolve(configured) : this.provider.defaultModel()
    return this.chosen
  }

  note(note: ReasoningNote): void {
    this.notes.push(note)
  }

  /**
   * Records that the model failed and what was done instead: "The model did not answer (timeout); …". With
   * `forTheRun`, the rest of the run does without the model.
   */
  recordFailure(error: unknown, instead: string, forTheRun: boolean): void {
    const reason = fallbackReasonOf(error)
    const model = error instanceof LlmError ? error.model : undefined
    if (forTheRun) this.failure ??= { reason, message: messageOf(error), model }
    const why = reason === 'model_not_found' && model ? `the model ${model} is not available at the endpoint` : REASON_TEXT[reason]
    this.notes.push({ status: 'failed', detail: `The model did not answer (${why}); ${instead}.`, error: messageOf(error) })
  }

  /** A part the model wrote. */
  wrote(model: string): void {
    this.writers.add(model)
  }

  /** A part quoted instead of written, because the model failed (`error`, or the run's failure before it). */
  quoted(part: 'part' | 'section', error?: unknown): void {
    this.quotedParts++
    this.quotedPart = part
    if (this.quotedBecause) return
    if (error !== undefined) this.quotedBecause = { reason: fallbackReasonOf(error), model: error instanceof LlmError ? error.model : undefined }
    else if (this.failure) this.quotedBecause = { reason: this.failure.reason, model: this.failure.model }
  }

  /**
   * How the parts were written so far: by which model, and why any were quoted (the Ask screen's note when all of them
   * were; "for 1 of 3 sections" when only some).
   */
  report(): WritingReport {
    const [model = null] = this.writers
    const because = this.quotedBecause
    if (!because || this.quotedParts === 0) return { model, fallback: null, note: null }
    const note =
      model === null
        ? modelFailureNote(because.reason, because.model)
        : `The language model did not answer (${reasonText(because.reason, because.model)}) for ${this.quotedParts === 1 ? `one ${this.quotedPart}` : `${this.quotedParts} ${this.quotedPart}s`} of this answer; ${this.quotedParts === 1 ? 'it quotes' : 'they quote'} the sources directly.`
    return { model, fallback: because.reason, note }
  }

  /** The notes since the last call, oldest first. */
  takeNotes(): ReasoningNote[] {
    return this.notes.splice(0)
  }
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`

export interface SessionComposerOptions {
  session: ModelSession
  /** Bot settings: the voice and rules of the prompt (template_bot_* for template sections). */
  settings: PromptSettings
  termWeight: (stem: string) => number
  screenPassage?: PassageScreen
  /** The deterministic composer, for when the model fails or is not used any more. */
  fallback: Composer
  /**
   * True for the general agent: after a failure, the rest of the run quotes. False for the template sections: each
   * section is tried with the model and falls back on its own.
   */
  isFailureForTheRun: boolean
}

/**
 * Writes each part with the model (grounded citations, as for answers on the Ask screen) and, when the model fails,
 * with the deterministic composer, taking back whatever the failed attempt had cited.
 */
export class SessionComposer implements Composer {
  constructor(private readonly options: SessionComposerOptions) {}

  get name(): string {
    return this.options.isFailureForTheRun && this.options.session.failure ? this.options.fallback.name : 'model'
  }

  async composePart(request: ComposeRequest): Promise<ComposedPart | null> {
    const { session, fallback, isFailureForTheRun } = this.options
    if (isFailureForTheRun && session.failure) {
      // Nothing to quote is no answer quoted instead of written.
      if (request.chunks.length > 0) session.quoted(request.section ? 'section' : 'part')
      return fallback.composePart(request)
    }
    const mark = request.citations.size
    const what = request.section ? `the section “${request.section.title}”` : 'the answer'
    try {
      const model = await session.model()
      const composer = new ModelComposer({ provider: session.provider, model, settings: this.options.settings, termWeight: this.options.termWeight, screenPassage: this.options.screenPassage })
      const part = await composer.composePart({ ...request, signal: request.signal ?? session.signal })
      // A part that cites none of the passages found ("The sources do not answer this question."), or none left once
      // the firewall screened them, is no answer: the passages are quoted instead, as on the Ask screen.
      if (request.chunks.length > 0 && (!part || part.citedChunkIds.length === 0)) {
        request.citations.rollback(mark)
        const why = part ? `wrote ${what} without citing any of the passages found` : `was given none of the passages found for ${what} (the firewall took them out)`
        session.note({ status: 'done', detail: `The model (${model}) ${why}, so it quotes them instead.` })
        return fallback.composePart(request)
      }
      if (part) {
        const cited = new Set(part.citedChunkIds).size
        // The prompt holds at most num_sources_k of the passages (buildAnswerPrompt).
        const read = Math.min(request.chunks.length, Math.max(1, this.options.settings.num_sources_k))
        session.note({ status: 'done', detail: `The model (${model}) wrote ${what} from ${plural(read, 'passage')}, citing ${plural(cited, 'source')}.` })
        session.wrote(model)
      }
      return part
    } catch (error) {
      if (request.signal?.aborted || session.signal?.aborted) throw error
      request.citations.rollback(mark)
      session.recordFailure(error, `${what} quotes the passages instead`, isFailureForTheRun)
      session.quoted(request.section ? 'section' : 'part', error)
      return fallback.composePart(request)
    }
  }
}
