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
})

export const Source = z.object({ page_content: z.string(), metadata: SourceMetadata })
export type Source = z.infer<typeof Source>

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
  variant: AgentVariant.optional(),
  template_id: z.number().int().nullable().optional(),
  sections: z.array(AgentSection).nullable().optional(),
})
export type AskAnswer = z.infer<typeof AskAnswer>

export const AskAnswerBody = z.object({ task_id: z.string().trim().min(1, 'task_id is required') })
