import type { Organization } from '../../../contracts/users'
import { listOrganizations } from '~/models/users.server'

/**
 * An organisation's name, for a refusal the backend words with its id; without it (the list cannot be had, or it is
 * gone) the form says "this organisation" rather than a number the person cannot act on.
 */
export async function organizationName(id: number) {
  const organizations = await listOrganizations().catch((): Organization[] => [])
  return organizations.find((organization) => organization.id === id)?.name ?? 'this organisation'
}
