import { z } from 'zod'

/**
 * Vectors of the knowledge base's passages, as check_embeddings reports them beside the publish: `off` without an
 * embeddings model (keyword search only), `idle` before the first pass, else the status of the latest pass.
 */
export const EmbeddingsProgress = z.object({
  status: z.enum(['off', 'idle', 'queued', 'running', 'finished', 'failed', 'cancelled']),
  model: z.string().nullable(),
  task_id: z.string().nullable(),
  /** The latest pass: passages embedded so far, of how many. */
  progress: z.number().int(),
  total: z.number().int(),
  /** The whole knowledge base: passages with a vector of the model, of all passages. */
  embedded: z.number().int(),
  chunks: z.number().int(),
  /** Passages the endpoint refused to embed: found by keyword search only. */
  refused: z.number().int(),
  message: z.string(),
})
export type EmbeddingsProgress = z.infer<typeof EmbeddingsProgress>

export const EMBEDDINGS_OFF: EmbeddingsProgress = {
  status: 'off',
  model: null,
  task_id: null,
  progress: 0,
  total: 0,
  embedded: 0,
  chunks: 0,
  refused: 0,
  message: 'No embeddings model is configured (EMBEDDINGS_MODEL): search is by keyword only',
}
