import type { SubmissionResult } from '@conform-to/react'
import { z } from 'zod'

const Id = z.coerce.number({ error: 'An id is a number' }).int().positive().max(2_147_483_647)
const CommentText = z
  .string({ error: 'Please enter a comment' })
  .trim()
  .min(1, 'Please enter a comment')
  .max(5000, 'A comment is at most 5000 characters')

/** One zod schema per form of the log detail screen, used by conform on the client and by the action. */
export const LogForms = {
  'main-save': z.object({ intent: z.literal('main-save'), comment: CommentText }),
  'main-delete': z.object({ intent: z.literal('main-delete') }),
  'comment-add': z.object({ intent: z.literal('comment-add'), comment: CommentText }),
  'comment-update': z.object({ intent: z.literal('comment-update'), comment_id: Id, comment: CommentText }),
  'comment-delete': z.object({ intent: z.literal('comment-delete'), comment_id: Id }),
  favorite: z.object({
    intent: z.literal('favorite'),
    comment: z.string().trim().max(5000, 'A comment is at most 5000 characters').optional().default(''),
  }),
  draft: z.object({
    intent: z.literal('draft'),
    question: z.string({ error: 'Please enter the question' }).trim().min(1, 'Please enter the question').max(500, 'A question is at most 500 characters'),
    answer: z.string({ error: 'Please enter the corrected answer' }).trim().min(1, 'Please enter the corrected answer'),
  }),
} as const
export type LogFormIntent = keyof typeof LogForms

/** What the log detail action answers a form: its id (a page holds many forms), conform's result, and what it made. */
export interface LogFormData {
  formId: string
  result?: SubmissionResult<string[]>
  draftId?: number
}
