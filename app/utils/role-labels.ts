import { z } from 'zod'
import type { Role } from './roles'

/** The roles in words, lowest first, for the administration screens' choices and tables. */
export const ROLE_LABELS: Record<Role, string> = { user: 'User', editor: 'Editor', admin: 'Administrator' }

export const ROLE_OPTIONS = (Object.keys(ROLE_LABELS) as Role[]).map((role) => ({ value: role, label: ROLE_LABELS[role] }))

const HIGHEST_FIRST = (['admin', 'editor', 'user'] as const).map((role) => ROLE_LABELS[role].toLowerCase())

/** What a form says of a role it does not know (a crafted post), in the words of its choices. */
export const CHOOSE_A_ROLE = `Choose a role: ${HIGHEST_FIRST.slice(0, -1).join(', ')} or ${HIGHEST_FIRST[HIGHEST_FIRST.length - 1]}`

/** A role chosen in a form: one of the roles, else the plain refusal above. */
export const RoleChoice = z.enum(['admin', 'editor', 'user'], { error: CHOOSE_A_ROLE })
