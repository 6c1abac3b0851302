import { splitGenerator } from './generator-result'
import type { CitableChunk, CitationList } from './citations'
import type { TemplateSection } from './prompt'

export interface ComposeRequest {
  question: string
  /** Words that say what to write (a template section's title and instructions), not what to find. */
  focus?: string
  /** The template section being written (the template agent): a model writes it in that voice, without its heading. */
  section?: TemplateSection
  /** Passages, most relevant first. */
  chunks: CitableChunk[]
  /** The answer's source list: what the part cites is numbered into it. */
  citations: CitationList
  /** Aborted when the asker leaves or the run is cancelled. */
  signal?: AbortSignal
}

/** One part of an answer: its text with "[n]" citations into the request's CitationList. */
export interface ComposedPart {
  text: string
  /** The passages it cites, in the order first cited. */
  citedChunkIds: number[]
  /** Sentences of `text`, exactly as they appear in it, that cite nothing and that no source supports. */
  unsupported: string[]
}

/** Writes one part of an answer from passages, citing them into the shared list; null when they say nothing about it. */
export interface Composer {
  readonly name: string
  composePart(request: ComposeRequest): Promise<ComposedPart | null>
}

/** A part being written: its text piece by piece (citations already checked), then the whole part. */
export interface Composition {
  /** Text to show as it comes; concatenated, it is the part's text. Iterate it once. */
  readonly deltas: AsyncIterable<string>
  /** Settles when `deltas` ends: the part (null when the passages say nothing), or the failure. */
  readonly result: Promise<ComposedPart | null>
}

/** A composer that can hand over its text while it writes. */
export interface StreamingComposer extends Composer {
  streamPart(request: ComposeRequest): Composition
}

/** Turns a generator that yields text and returns the part into a Composition. */
export function compositionOf(generator: AsyncGenerator<string, ComposedPart | null, undefined>): Composition {
  const { items, result } = splitGenerator(generator, 'composition')
  return { deltas: items, result }
}

/** Reads a whole composition: its part once every delta has come. */
export async function completeComposition(composition: Composition): Promise<ComposedPart | null> {
  for await (const _delta of composition.deltas) {
    // the text is in the result
  }
  return composition.result
}
