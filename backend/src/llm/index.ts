import type { Config } from '../config'
import { OpenAiCompatibleEmbeddings, OpenAiCompatibleProvider } from './openai-compatible'
import type { EmbeddingsProvider, LlmProvider } from './provider'

export * from './provider'
export { OpenAiCompatibleEmbeddings, OpenAiCompatibleProvider } from './openai-compatible'

type LlmConfig = Pick<Config, 'LLM_BASE_URL' | 'LLM_API_KEY' | 'LLM_API_VERSION' | 'LLM_MODELS' | 'LLM_TIMEOUT_MS'>
type EmbeddingsConfig = LlmConfig & Pick<Config, 'EMBEDDINGS_BASE_URL' | 'EMBEDDINGS_API_KEY' | 'EMBEDDINGS_MODEL'>

/** The configured language model, or undefined without LLM_BASE_URL (answers stay extractive). */
export function createLlmProvider(config: LlmConfig): LlmProvider | undefined {
  if (!config.LLM_BASE_URL) return undefined
  if (config.LLM_API_VERSION !== undefined) {
    // Azure deployments are addressed by name and cannot be listed through the endpoint.
    if (!config.LLM_API_KEY) throw new Error('Invalid backend configuration: LLM_API_VERSION (Azure OpenAI) needs LLM_API_KEY')
    if (config.LLM_MODELS.length === 0) {
      throw new Error('Invalid backend configuration: LLM_API_VERSION (Azure OpenAI) needs LLM_MODELS, the deployment names')
    }
  }
  return new OpenAiCompatibleProvider({
    baseUrl: config.LLM_BASE_URL,
    apiKey: config.LLM_API_KEY,
    apiVersion: config.LLM_API_VERSION,
    models: config.LLM_MODELS,
    timeoutMs: config.LLM_TIMEOUT_MS,
  })
}

/**
 * The configured embeddings model, or undefined without EMBEDDINGS_MODEL. The endpoint is EMBEDDINGS_BASE_URL, or
 * the language model's (with its key and api-version) when that is unset; LLM_API_KEY never goes to another host.
 */
export function createEmbeddingsProvider(config: EmbeddingsConfig): EmbeddingsProvider | undefined {
  if (!config.EMBEDDINGS_MODEL) {
    if (config.EMBEDDINGS_BASE_URL) throw new Error('Invalid backend configuration: EMBEDDINGS_BASE_URL needs EMBEDDINGS_MODEL')
    return undefined
  }
  const sharesEndpoint = !config.EMBEDDINGS_BASE_URL
  const baseUrl = config.EMBEDDINGS_BASE_URL ?? config.LLM_BASE_URL
  if (!baseUrl) throw new Error('Invalid backend configuration: EMBEDDINGS_MODEL needs EMBEDDINGS_BASE_URL (or LLM_BASE_URL)')
  const apiVersion = sharesEndpoint ? config.LLM_API_VERSION : undefined
  const apiKey = config.EMBEDDINGS_API_KEY ?? (sharesEndpoint ? config.LLM_API_KEY : undefined)
  if (apiVersion !== undefined && !apiKey) throw new Error('Invalid backend configuration: LLM_API_VERSION (Azure OpenAI) needs LLM_API_KEY')
  return new OpenAiCompatibleEmbeddings({
    baseUrl,
    apiKey,
    apiVersion,
    model: config.EMBEDDINGS_MODEL,
    timeoutMs: config.LLM_TIMEOUT_MS,
  })
}
