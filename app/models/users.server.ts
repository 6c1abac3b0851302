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
  type UserFilters,
  type UserSortField,
  type UserUpdate,
} from '../../contracts/users'
import { callApi, type ApiSession } from './api.server'

/**
 * A page of users (30 a page, SEED.md §9): `filter` matches username, email or name; `filters` are column filters
 * (contracts/users.ts: USER_FILTER_COLUMNS); sorted by `sortField` in `sortOrder` (1 ascending, -1 descending).
 */
export function listUsers(
  session: ApiSession,
  { filter, first, rows = PAGE_SIZE_USERS, filters, sortField = 'id', sortOrder = 1 }: { filter: string; first: number; rows?: number; filters?: UserFilters; sortField?: UserSortField; sortOrder?: 1 | -1 },
) {
  const query = { filter, limit: rows, offset: first, sortField, sortOrder, filters: filters && Object.keys(filters).length ? JSON.stringify(filters) : undefined }
  return callApi('/admin/users', { session, query, schema: UsersPage })
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
