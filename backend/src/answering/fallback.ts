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
  error: 'error',
}

/** The note shown with an answer quoted because the model failed. */
export const modelFailureNote = (reason: FallbackReason) =>
  `The language model did not answer (${REASON_TEXT[reason]}); this answer quotes the sources directly.`

export const fallbackReasonOf = (error: unknown): FallbackReason => (error instanceof LlmError ? error.kind : 'error')
