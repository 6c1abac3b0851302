import {
  GroupList,
  OrganizationList,
  PAGE_SIZE_USERS,
  Registered,
  RegistrationInfo,
  User,
  UsersPage,
  UserUpdated,
  type Registration,
  type UserUpdate,
} from '../../contracts/users'
import { callApi, type ApiSession } from './api.server'

/** A page of users whose username, email or name matches the filter (30 a page, SEED.md §9). */
export function listUsers(session: ApiSession, { filter, first }: { filter: string; first: number }) {
  return callApi('/admin/users', { session, query: { filter, limit: PAGE_SIZE_USERS, offset: first }, schema: UsersPage })
}

export function getUser(session: ApiSession, id: number) {
  return callApi(`/admin/users/${id}`, { session, schema: User })
}

export function updateUser(session: ApiSession, update: UserUpdate) {
  return callApi(`/admin/users/${update.id}`, { session, method: 'PUT', body: update, schema: UserUpdated })
}

export function listGroups(session: ApiSession, organizationId: number) {
  return callApi(`/admin/groups/${organizationId}`, { session, schema: GroupList })
}

/** The organisations (public, so no session). */
export function listOrganizations() {
  return callApi('/organizations', { schema: OrganizationList })
}

/** Who may register (public): closed, open into one organisation, or by invitation. */
export function getRegistrationInfo() {
  return callApi('/auth/registration', { schema: RegistrationInfo })
}

/**
 * Registers a person: always enabled (SEED.md §5), with the invitation code when the policy asks for one. No
 * organisation: the backend puts an outsider where its registration policy says.
 */
export function registerUser(registration: Omit<Registration, 'enabled' | 'organizations'>) {
  return callApi('/users', { method: 'POST', body: { ...registration, enabled: true }, schema: Registered })
}
