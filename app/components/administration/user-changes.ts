import { z } from 'zod'
import type { User } from '../../../contracts/users'

/** The fields of Edit user as the form shows them (strings, as they are posted). */
export const SavedUser = z.object({
  username: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  cellphone: z.string(),
  organization_id: z.string(),
  group_id: z.string(),
  enabled: z.enum(['true', 'false']),
})
export type SavedUser = z.infer<typeof SavedUser>

/** What the edit form starts from: the user as saved. */
export function savedUser(user: Pick<User, keyof SavedUser>): SavedUser {
  return {
    username: user.username,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    cellphone: user.cellphone,
    organization_id: String(user.organization_id),
    group_id: String(user.group_id),
    enabled: user.enabled ? 'true' : 'false',
  }
}

/** The values the form was shown with, as posted in its hidden field; null when the post has none (or a broken one). */
export function shownValues(posted: FormDataEntryValue | null): SavedUser | null {
  if (typeof posted !== 'string' || posted.length > 10_000) return null
  try {
    const parsed = SavedUser.safeParse(JSON.parse(posted))
    return parsed.success ? parsed.data : null
  } catch {
    return null
  }
}

export interface UserChoices {
  username: string
  email: string
  firstName: string
  lastName: string
  cellphone: string
  organization_id: number
  group_id: number
  enabled: 'true' | 'false'
}

/**
 * A save changes only what the person changed in the form: a field posted as it was shown keeps the value saved now,
 * which another form of the page (Disable user), another administrator or another tab may have changed since the form
 * was shown. The organisation and its group go together: unless either was changed, both stay as saved.
 */
export function changesOnly<Choices extends UserChoices>(posted: Choices, shown: SavedUser | null, current: User | null): Choices {
  if (!shown || !current) return posted
  const now = savedUser(current)
  const text = (field: 'username' | 'email' | 'firstName' | 'lastName' | 'cellphone') => (posted[field] === shown[field] ? now[field] : posted[field])
  const placeUnchanged = String(posted.organization_id) === shown.organization_id && String(posted.group_id) === shown.group_id
  return {
    ...posted,
    username: text('username'),
    email: text('email'),
    firstName: text('firstName'),
    lastName: text('lastName'),
    cellphone: text('cellphone'),
    organization_id: placeUnchanged ? current.organization_id : posted.organization_id,
    group_id: placeUnchanged ? current.group_id : posted.group_id,
    enabled: posted.enabled === shown.enabled ? now.enabled : posted.enabled,
  }
}
