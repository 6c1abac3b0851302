import { fallbackReasonOf, type FallbackReason } from './fallback'
import type { ComposedPart, Composer, ComposeRequest } from './composer'

/** Why a part was written by the fallback composer. */
export interface CompositionFailure {
  reason: FallbackReason
  message: string
}

/**
 * Writes each part with `primary` (a model) and, when it fails, with `fallback` (the quotes), taking back whatever
 * the failed attempt had cited into the shared list. For answers written part by part (an agent's sub-questions,
 * a template's sections); `failures` says which parts fell back and why.
 */
export class FallbackComposer implements Composer {
  readonly name: string
  readonly failures: CompositionFailure[] = []

  constructor(
    private readonly primary: Composer,
    private readonly fallback: Composer,
  ) {
    this.name = primary.name
  }

  async composePart(request: ComposeRequest): Promise<ComposedPart | null> {
    const mark = request.citations.size
    try {
      return await this.primary.composePart(request)
    } catch (error) {
      if (request.signal?.aborted) throw error
      request.citations.rollback(mark)
      this.failures.push({ reason: fallbackReasonOf(error), message: error instanceof Error ? error.message : String(error) })
      return this.fallback.composePart(request)
    }
  }
}
