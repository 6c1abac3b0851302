/**
 * The product's model answers, scored like its extractive answers when a language model endpoint is given (the
 * backend's own variables: LLM_BASE_URL, LLM_MODELS, LLM_API_KEY, LLM_API_VERSION, LLM_TIMEOUT_MS):
 *
 *   LLM_BASE_URL=http://127.0.0.1:11434/v1 LLM_MODELS=llama3.1 npm run eval -- --dataset ../shared/datasets/squad-dev-even
 *
 * Each question goes through QuestionAnswerer as /ask_qa runs it with a model: KeywordRetriever over the evaluation's
 * KnowledgeService (num_sources_k passages, score_threshold), the prompt of the default Bot settings, the provider,
 * and the citation checks. The answer is scored without its citation markers; the not-found answer counts as
 * not-found. A model that fails is replaced by the quoted answer, as in the product; such answers are counted, so
 * that the figures say how many were the model's.
 */
import { QuestionAnswerer, type AnswerSettings } from '../../backend/src/answering/answerer'
import { KeywordRetriever } from '../../backend/src/answering/retriever'
import { createLlmProvider } from '../../backend/src/llm'
import { defaultBotSettings } from '../../backend/src/modules/settings/settings.defaults'
import { ANSWER_SOURCES } from './answer-evaluation'
import type { ProductKnowledgeBase } from './product-engine'

export interface ModelAnswerConfig {
  LLM_BASE_URL: string
  LLM_API_KEY?: string
  LLM_API_VERSION?: string
  /** The first is asked; none: the endpoint's default model. */
  LLM_MODELS: string[]
  LLM_TIMEOUT_MS: number
}

/** The endpoint from the environment, or undefined when none is given (model answers are then not scored). */
export function modelAnswerConfig(environment: Record<string, string | undefined>): ModelAnswerConfig | undefined {
  const baseUrl = environment.LLM_BASE_URL
  if (!baseUrl) return undefined
  const timeout = Number(environment.LLM_TIMEOUT_MS ?? 60_000)
  return {
    LLM_BASE_URL: baseUrl,
    LLM_API_KEY: environment.LLM_API_KEY || undefined,
    LLM_API_VERSION: environment.LLM_API_VERSION || undefined,
    LLM_MODELS: (environment.LLM_MODELS ?? '').split(',').map((model) => model.trim()).filter(Boolean),
    LLM_TIMEOUT_MS: Number.isInteger(timeout) && timeout >= 100 ? timeout : 60_000,
  }
}

/** One way of answering a question for the answer figures: the answer as the user reads it, or null for not-found. */
export interface EvalAnswerer {
  label: string
  /** How it answers, for the report. */
  description: string
  answer(question: string): Promise<string | null>
  /** Notes for the report once the run is over (failures, fallbacks). */
  notes(): string[]
}

/** "[1]", "[2, 3]" and the space before them. */
const CITATION_MARKERS = /\s*\[\d+(?:\s*,\s*\d+)*\]/g

/** The product's model answers through the given endpoint. */
export async function createModelAnswerer(base: ProductKnowledgeBase, config: ModelAnswerConfig): Promise<EvalAnswerer> {
  const provider = createLlmProvider(config)
  if (!provider) throw new Error('LLM_BASE_URL is needed for model answers')
  const model = config.LLM_MODELS[0] ?? (await provider.defaultModel())
  const answerer = new QuestionAnswerer({ retriever: new KeywordRetriever(base.knowledge), provider })
  const settings: AnswerSettings = { ...defaultBotSettings, num_sources_k: ANSWER_SOURCES }
  let asked = 0
  const fallbacks = new Map<string, number>()
  return {
    label: `model answers (${model})`,
    description:
      `Model answers (QuestionAnswerer with ${model} at the given endpoint, the default Bot settings' prompt, the top ${ANSWER_SOURCES} chunks of ` +
      'KnowledgeService.search, as /ask_qa does with a model; citation markers left out).',
    async answer(question) {
      asked += 1
      const result = await answerer.complete({ question, settings, chooseModel: async () => model })
      if (result.fallback) fallbacks.set(result.fallback, (fallbacks.get(result.fallback) ?? 0) + 1)
      if (!result.isFound) return null
      return result.text.replace(CITATION_MARKERS, '').trim()
    },
    notes() {
      const failed = [...fallbacks.values()].reduce((sum, count) => sum + count, 0)
      if (failed === 0) return []
      const reasons = [...fallbacks].map(([reason, count]) => `${reason} ${count}`).join(', ')
      return [`model answers: the model failed on ${failed} of ${asked} questions (${reasons}); those got the quoted answer, as the product gives them.`]
    },
  }
}
