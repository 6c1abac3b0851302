import { LlmError } from '../llm/provider'

/** Why a model's answer was replaced by the quoted one: the provider's failure kind, or `error` for anything else. */
export type FallbackReason = LlmError['kind'] | 'error'

const REASON_TEXT: Record<FallbackReason, string> = {
  timeout: 'timeout',
  rate_limited: 'too many requests',
  server: 'server error',
  connection: 'connection failed',
  bad_response: 'unusable response',
  refused: 'request refused',
  interrupted: 'the answer was cut off',
  model_not_found: 'the model is not available at the endpoint',
  error: 'error',
}

/** Why the model did not answer, in words: "timeout", "the model fixture-model is not available at the endpoint"… */
export const reasonText = (reason: FallbackReason, model?: string): string =>
  reason === 'model_not_found' && model ? `the model ${model} is not available at the endpoint` : REASON_TEXT[reason]

/** The note shown with an answer quoted because the model failed (`model`: the one asked for, when it is unknown). */
export const modelFailureNote = (reason: FallbackReason, model?: string) =>
  `The language model did not answer (${reasonText(reason, model)}); this answer quotes the sources directly.`

export const fallbackReasonOf = (error: unknown): FallbackReason => (error instanceof LlmError ? error.kind : 'error')

/** The note for an answer quoted because of `error`. */
export const failureNoteOf = (error: unknown): string =>
  modelFailureNote(fallbackReasonOf(error), error instanceof LlmError ? error.model : undefined)
