import { z } from 'zod'

/** The two agents of SEED.md: the general one answers a command, the government one fills a template. */
export const AgentVariant = z.enum(['general', 'government'])
export type AgentVariant = z.infer<typeof AgentVariant>

/**
 * One entry of an agent run's step trace (log_agent_ask_qa): a workflow step, or one tool call made by the
 * retrieve step. `status` is failed when the step or tool failed (the run goes on with what it has) and
 * resumed on the entry that marks where a run picked up again after a restart; blocked on the one entry of a command
 * the semantic firewall refused.
 */
export const AgentTraceEntry = z.object({
  step: z.string(),
  iteration: z.number().int(),
  status: z.enum(['done', 'failed', 'resumed', 'blocked']),
  tool: z.string().nullable(),
  input: z.string().nullable(),
  detail: z.string(),
  error: z.string().nullable(),
  duration_ms: z.number().int(),
  at: z.string(),
})
export type AgentTraceEntry = z.infer<typeof AgentTraceEntry>

/** A filled template section of the government agent; source_numbers are the [n] it cites, 1-based into source_list. */
export const AgentSection = z.object({
  title: z.string(),
  answer: z.string(),
  source_numbers: z.array(z.number().int()),
})
export type AgentSection = z.infer<typeof AgentSection>

/** Body of POST /ask_qa_cancel. */
export const CancelBody = z.object({ task_id: z.string().trim().min(1, 'task_id is required').max(200, 'task_id is at most 200 characters') })

/** Answer of POST /ask_qa_cancel. */
export const CancelAnswer = z.object({
  success: z.literal(true),
  message: z.string(),
  task_id: z.string(),
  log_id: z.number().int(),
  status: z.literal('cancelled'),
})
export type CancelAnswer = z.infer<typeof CancelAnswer>
