export type Role = 'admin' | 'editor' | 'user'

/** Who is calling: resolved from a verified bearer token on every request. */
export interface CurrentUser {
  id: number
  username: string
  role: Role
  organizationId: number
  groupId: number
  /** The session a local token belongs to; absent for the sign-in provider's tokens. */
  sessionId?: string
}

/** What a route requires; `public` needs only the apikey. */
export type Access = 'public' | Role

const RANK: Record<Role, number> = { user: 1, editor: 2, admin: 3 }

export function hasRole(user: CurrentUser, required: Role): boolean {
  return RANK[user.role] >= RANK[required]
}
