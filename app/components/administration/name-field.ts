import { z } from 'zod'
import type { FieldLabels } from '~/utils/form-words'

const ENTER_A_NAME = 'Please enter a name'

/** The contracts' name rules word their field as the API does ('organisation name is at most 100 characters'). */
export const NAME_LABELS: FieldLabels = { 'organisation name': 'Organisation name', 'group name': 'Group name' }

/**
 * The name of an organisation or a group: a blank one, or one of spaces only, is asked for in the same words; the rest
 * is the backend's own rule (its length, no NUL).
 */
export const nameField = (rule: z.ZodType<string, string>) => z.string({ error: ENTER_A_NAME }).trim().min(1, ENTER_A_NAME).pipe(rule)
