import { LlmError, type LlmProvider } from '../llm/provider'
import type { CitableChunk } from './citations'
import { compositionOf, completeComposition, type ComposedPart, type ComposeRequest, type Composition, type StreamingComposer } from './composer'
import { CitationGrounder } from './grounding'
import { buildAnswerPrompt, type PromptOptions, type PromptSettings } from './prompt'

/**
 * Screens a passage before a model reads it: the text with any instructions to the model taken out, and what
 * was taken out. The semantic firewall provides it (modules/firewall); answering only calls it.
 */
export type PassageScreen = (text: string) => { text: string; removed: string[] }

/** What a model-written part cost and how it went; filled in as it happens, so it is complete after a failure too. */
export interface ModelRunReport {
  model: string
  tokensIn: number | null
  tokensOut: number | null
  /** From the request to the first word of the answer. */
  firstTokenMs: number | null
  /** From the request to the end of the answer (or its failure). */
  totalMs: number | null
  /** Passages the firewall changed (instructions taken out) or left out (nothing else in them). */
  screenedPassages: number
  /** Citation numbers that named no source and were dropped. */
  droppedCitations: number
  /** Citations added to sentences a source supports. */
  addedCitations: number
}

export interface ModelComposition extends Composition {
  readonly report: ModelRunReport
}

export interface ModelComposerOptions {
  provider: LlmProvider
  /** The model id to ask (already chosen from llm_model, multiple_model and the asker's choice). */
  model: string
  settings: PromptSettings
  /** The corpus weight of a stem, for the support check of uncited sentences. */
  termWeight: (stem: string) => number
  /** The firewall's passage screen; every passage goes through it before the model reads it. */
  screenPassage?: PassageScreen
  prompt?: PromptOptions
  temperature?: number
  /** The clock (milliseconds); performance.now by default. */
  now?: () => number
}

/**
 * Writes a part with a language model: the prompt from Bot settings and the screened passages, the answer
 * streamed through the citation grounder. A provider failure is thrown as it is (an LlmError): choosing what to
 * do then (the extractive answer, with a note) is the caller's part.
 */
export class ModelComposer implements StreamingComposer {
  readonly name = 'model'

  constructor(private readonly options: ModelComposerOptions) {}

  composePart(request: ComposeRequest): Promise<ComposedPart | null> {
    return completeComposition(this.streamPart(request))
  }

  streamPart(request: ComposeRequest): ModelComposition {
    const { provider, model, settings, termWeight, screenPassage, temperature } = this.options
    const now = this.options.now ?? (() => performance.now())
    const report: ModelRunReport = { model, tokensIn: null, tokensOut: null, firstTokenMs: null, totalMs: null, screenedPassages: 0, droppedCitations: 0, addedCitations: 0 }
    // A template section is written in the template agent's voice, whatever the composer was made for.
    const promptOptions = request.section ? { ...this.options.prompt, persona: 'template_agent' as const, section: request.section } : this.options.prompt
    const generator = async function* (): AsyncGenerator<string, ComposedPart | null, undefined> {
      const passages: { chunk: CitableChunk; text: string }[] = []
      for (const chunk of request.chunks) {
        if (!screenPassage) {
          passages.push({ chunk, text: chunk.text })
          continue
        }
        const screened = screenPassage(chunk.text)
        if (screened.removed.length > 0) report.screenedPassages++
        if (screened.text.trim()) passages.push({ chunk, text: screened.text })
      }
      // Nothing left to answer from: no model is asked.
      if (passages.length === 0) return null
      const question = request.focus ? `${request.question}\n${request.focus}` : request.question
      const prompt = buildAnswerPrompt(settings, question, passages, promptOptions)
      const screenedText = new Map(prompt.sources.map((source) => [source.chunk.chunkId, source.text]))
      const grounder = new CitationGrounder(
        prompt.sources.map((source) => source.chunk),
        request.citations,
        { weightOf: termWeight, textOf: (chunk) => screenedText.get(chunk.chunkId) ?? chunk.text },
      )
      const started = now()
      let sawText = false
      try {
        for await (const chunk of provider.stream({ model, messages: prompt.messages, maxTokens: prompt.maxTokens, temperature: temperature ?? 0.1, signal: request.signal })) {
          if (chunk.type === 'done') {
            report.model = chunk.result.model || model
            report.tokensIn = chunk.result.usage?.promptTokens ?? null
            report.tokensOut = chunk.result.usage?.completionTokens ?? null
            continue
          }
          if (!chunk.text) continue
          if (!sawText) {
            sawText = true
            report.firstTokenMs = Math.round(now() - started)
          }
          const checked = grounder.push(chunk.text)
          if (checked) yield checked
        }
        const rest = grounder.end()
        if (rest) yield rest
      } finally {
        report.totalMs = Math.round(now() - started)
        report.droppedCitations = grounder.droppedNumbers
        report.addedCitations = grounder.addedCitations
      }
      const text = grounder.text.trim()
      if (!text) throw new LlmError('The model gave an empty answer', 'bad_response', false)
      return { text, citedChunkIds: grounder.citedChunkIds, unsupported: [...grounder.unsupported] }
    }
    return { ...compositionOf(generator()), report }
  }
}
