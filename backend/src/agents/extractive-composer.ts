import { composeCitedAnswer } from '../modules/ask/cited-answer'
import { tokenize } from '../retrieval/text'
import type { Composer, ComposeRequest } from './reasoning'

/** Composes by quoting: the sentences of the passages that best cover the question, each cited. Never invents. */
export class ExtractiveComposer implements Composer {
  readonly name = 'extractive'

  constructor(private readonly weightOf: (stem: string) => number) {}

  async composePart({ question, focus, chunks, citations }: ComposeRequest) {
    if (chunks.length === 0) return null
    if (!focus) return composeCitedAnswer(question, chunks, this.weightOf, citations)
    // Focus words count only where the passages use them: they steer the choice of sentences, while a word no
    // passage contains ("Recommendation") would only make every sentence look off-topic.
    const questionStems = new Set(tokenize(question))
    const passageStems = new Set(chunks.flatMap((chunk) => tokenize(`${chunk.title}\n${chunk.text}`)))
    const weightOf = (stem: string) => (questionStems.has(stem) || passageStems.has(stem) ? this.weightOf(stem) : 0)
    return composeCitedAnswer(`${question}\n${focus}`, chunks, weightOf, citations)
  }
}
