import type { Role } from './roles'

/** The roles in words, lowest first, for the administration screens' choices and tables. */
export const ROLE_LABELS: Record<Role, string> = { user: 'User', editor: 'Editor', admin: 'Administrator' }

export const ROLE_OPTIONS = (Object.keys(ROLE_LABELS) as Role[]).map((role) => ({ value: role, label: ROLE_LABELS[role] }))
