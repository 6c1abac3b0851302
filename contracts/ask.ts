import { z } from 'zod'
import { AgentSection, AgentTraceEntry, AgentVariant } from './agents'
import { Id } from './common'

export const AskMode = z.enum(['expert', 'agent'])

/**
 * Body of POST /ask_qa. In agent mode, `variant` picks the agent (general by default) and the government agent
 * needs the `template_id` it fills; both are ignored in expert mode.
 */
export const AskBody = z
  .object({
    command: z.string({ error: 'command is required' }).trim().min(1, 'command is required').max(4000, 'command is at most 4000 characters'),
    timezone: z.string().max(100).optional(),
    mode: AskMode.optional(),
    variant: AgentVariant.optional(),
    template_id: Id('template_id').optional(),
    /** With Bot settings' multiple_model on: the model to answer with, one of GET /ask_models; ignored in agent mode. */
    model: z.string().trim().min(1, 'model is empty: leave it out to use the default model').max(200, 'model is at most 200 characters').optional(),
    /**
     * A follow-up: the thread of the question it follows (its `thread_id`), one of the caller's own. Its earlier
     * questions help find the passages, and a language model reads the earlier turns. Left out: a new thread.
     * Ignored in agent mode.
     */
    thread_id: Id('thread_id').optional(),
  })
  .superRefine((body, context) => {
    if (body.mode === 'agent' && body.variant === 'government' && body.template_id === undefined) {
      context.addIssue({ code: 'custom', path: ['template_id'], message: 'template_id is required for the government agent' })
    }
  })
export type AskBody = z.infer<typeof AskBody>

export const SourceMetadata = z.object({
  source: z.string(),
  id: z.number().int(),
  doc_id: z.number().int(),
  is_deleted: z.boolean(),
  title: z.string(),
  score: z.number(),
  /** What kind of source the article came from (absent in answers logged before it was recorded). */
  kind: z.enum(['article', 'web_page', 'file', 'video']).optional(),
})

export type SourceMetadata = z.infer<typeof SourceMetadata>
export const Source = z.object({ page_content: z.string(), metadata: SourceMetadata })
export type Source = z.infer<typeof Source>

/**
 * An article that may help where the answer was not found: its passages share the question's words without answering
 * it well enough to quote. Read it at GET /read_article/:id.
 */
export const RelatedArticle = z.object({ article_id: z.number().int(), title: z.string() })
export type RelatedArticle = z.infer<typeof RelatedArticle>

export const AnswerStatus = z.enum(['queued', 'running', 'finished', 'failed', 'cancelled', 'not found'])

/**
 * Answer of POST /ask_qa and POST /ask_qa_answer (SEED.md §7). Agent runs also carry `answer` (the same text as
 * `result`), their `variant`, and for the government agent the template and its filled sections;
 * `log_agent_ask_qa` is the step trace, present only while Agent settings' toggle_debug is on.
 */
export const AskAnswer = z.object({
  command: z.string().nullable(),
  result: z.string().nullable(),
  answer: z.string().nullable().optional(),
  success: z.boolean(),
  status: AnswerStatus,
  error: z.string().nullable(),
  log_agent_ask_qa: z.array(AgentTraceEntry).nullable(),
  task_id: z.string().nullable(),
  log_id: z.number().int().nullable(),
  source_list: z.array(Source),
  found: z.boolean(),
  /** With a not-found answer: up to three articles whose passages come close to the question (empty otherwise). */
  related_list: z.array(RelatedArticle).optional(),
  variant: AgentVariant.optional(),
  template_id: z.number().int().nullable().optional(),
  sections: z.array(AgentSection).nullable().optional(),
  /** Shown with the answer, e.g. "The language model did not answer (timeout); this answer quotes the sources directly." */
  note: z.string().nullable().optional(),
  /** Sentences of `result`, exactly as written in it, that cite nothing and that no source supports: show them marked. */
  unsupported: z.array(z.string()).optional(),
  /** The language model that wrote `result`; null when it quotes the sources. */
  model: z.string().nullable().optional(),
  /** The conversation this question belongs to (the log id of its first question); send it back to follow up. */
  thread_id: z.number().int().nullable().optional(),
  /** The asker's feedback on this answer so far, and the reason they gave. */
  feedback: z.enum(['like', 'dislike']).nullable().optional(),
  feedback_reason: z.string().nullable().optional(),
})
export type AskAnswer = z.infer<typeof AskAnswer>

/** GET /ask_models: whether a language model is configured, and which models an asker may choose (multiple_model). */
export const AskModels = z.object({
  /** A language model is configured (LLM_BASE_URL): answers are written by it, else they quote the sources. */
  enabled: z.boolean(),
  /** Bot settings' multiple_model: the asker may choose the model of each question. */
  multiple_model: z.boolean(),
  /** The model used when the asker chooses none (llm_model, or the provider's default); null without a model. */
  default_model: z.string().nullable(),
  /** The models an asker may choose; empty unless multiple_model is on and a model is configured. */
  models: z.array(z.string()),
})
export type AskModels = z.infer<typeof AskModels>

/**
 * The events of POST /ask_qa_stream (text/event-stream), each `event: <type>` then `data: <JSON>`:
 * - `delta` {text}: more of the answer; the deltas since the start (or the last `reset`) are the answer so far, with
 *   its "[n]" already checked;
 * - `sources` {sources}: the sources cited so far ("[n]" is sources[n - 1]); sent whenever the list grows;
 * - `reset` {note}: the model failed after it had begun; drop the text so far, the quoted answer follows;
 * - `done`: the complete answer (the AskAnswer of POST /ask_qa: result, source_list, found, note, unsupported, log_id…);
 * - `error` {message}: the answer could not be produced; nothing else follows.
 * Lines starting with ":" are heartbeats.
 */
export const AskStreamDelta = z.object({ text: z.string() })
export const AskStreamSources = z.object({ sources: z.array(Source) })
export const AskStreamReset = z.object({ note: z.string() })
export const AskStreamError = z.object({ message: z.string() })
export const ASK_STREAM_EVENTS = ['delta', 'sources', 'reset', 'done', 'error'] as const

export const AskAnswerBody = z.object({ task_id: z.string().trim().min(1, 'task_id is required') })

/** GET /ask_thread: one of the caller's own threads. */
export const AskThreadQuery = z.object({ thread_id: Id('thread_id') })

/** A thread's questions and answers, oldest first (each as POST /ask_qa answers it). */
export const AskThread = z.object({ thread_id: z.number().int(), turns: z.array(AskAnswer) })
export type AskThread = z.infer<typeof AskThread>

/**
 * GET /ask_threads: the caller's own recent threads, newest first, each by its first question: `limit` of them after
 * the `offset` newest (for the older ones, a page at a time).
 */
export const AskThreadsQuery = z.object({
  limit: z.coerce.number().int().min(1).max(50).default(10),
  offset: z.coerce.number().int().min(0).max(10_000_000).default(0),
})
export const AskThreadSummary = z.object({
  thread_id: z.number().int(),
  /** The thread's first question. */
  command: z.string(),
  /** How many questions it holds. */
  turns: z.number().int(),
  /** When its latest question was asked (ISO 8601). */
  last_asked: z.string(),
})
export const AskThreads = z.object({ threads: z.array(AskThreadSummary) })
export type AskThreads = z.infer<typeof AskThreads>
