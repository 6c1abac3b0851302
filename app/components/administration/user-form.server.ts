import type { Organization } from '../../../contracts/users'
import { ApiError, type ApiSession } from '~/models/api.server'
import { getOwnAccount } from '~/models/identity.server'
import { listOrganizations } from '~/models/users.server'

/**
 * An organisation's name, for a refusal the backend words with its id; without it (the list cannot be had, or it is
 * gone) the form says "this organisation" rather than a number the person cannot act on.
 */
export async function organizationName(id: number) {
  const organizations = await listOrganizations().catch((): Organization[] => [])
  return organizations.find((organization) => organization.id === id)?.name ?? 'this organisation'
}

/**
 * The organisation a new user, API key or invitation code starts in: the signed-in administrator's own, else the
 * default organisation (the first one made, which the others are added after); null when none is offered.
 */
export async function startingOrganizationId(session: ApiSession, organizations: Organization[]): Promise<number | null> {
  const own = await getOwnAccount(session).then(
    (account) => account.organization_id,
    (error) => {
      if (!(error instanceof ApiError)) throw error
      return null
    },
  )
  return chooseStartingOrganization(own, organizations)
}

export function chooseStartingOrganization(own: number | null, organizations: Organization[]): number | null {
  if (own !== null && organizations.some((organization) => organization.id === own)) return own
  return organizations.reduce<number | null>((first, organization) => (first === null || organization.id < first ? organization.id : first), null)
}
