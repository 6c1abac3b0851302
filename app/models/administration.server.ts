import { ApiKeyCreated, ApiKeyList, ApiKeyRevoked, type ApiKeyCreate } from '../../contracts/api-keys'
import { GroupDeleted, GroupSaved, OrganizationDeleted, OrganizationSaved, type GroupCreate, type GroupUpdate } from '../../contracts/organizations'
import {
  AdminUserCreated,
  InvitationCreated,
  InvitationList,
  InvitationRevoked,
  PasswordLinkCreated,
  PasswordLinkUsed,
  UserUpdated,
  type AdminUserCreate,
  type InvitationCreate,
} from '../../contracts/users'
import { callApi, type ApiSession } from './api.server'

/** Organisations: create, rename, delete (refused with what still belongs to it). The lists are in users.server. */
export function createOrganization(session: ApiSession, name: string) {
  return callApi('/admin/organizations', { session, method: 'POST', body: { name }, schema: OrganizationSaved })
}

export function renameOrganization(session: ApiSession, id: number, name: string) {
  return callApi(`/admin/organizations/${id}`, { session, method: 'PUT', body: { name }, schema: OrganizationSaved })
}

export function deleteOrganization(session: ApiSession, id: number) {
  return callApi(`/admin/organizations/${id}`, { session, method: 'DELETE', schema: OrganizationDeleted })
}

export function createGroup(session: ApiSession, organizationId: number, group: GroupCreate) {
  return callApi(`/admin/groups/${organizationId}`, { session, method: 'POST', body: group, schema: GroupSaved })
}

export function updateGroup(session: ApiSession, organizationId: number, groupId: number, change: GroupUpdate) {
  return callApi(`/admin/groups/${organizationId}/${groupId}`, { session, method: 'PUT', body: change, schema: GroupSaved })
}

export function deleteGroup(session: ApiSession, organizationId: number, groupId: number) {
  return callApi(`/admin/groups/${organizationId}/${groupId}`, { session, method: 'DELETE', schema: GroupDeleted })
}

/** Keys for integrations: the list never holds a key, only its first characters. */
export function listApiKeys(session: ApiSession) {
  return callApi('/admin/api_keys', { session, schema: ApiKeyList })
}

/** A new key, answered this once. */
export function createApiKey(session: ApiSession, key: ApiKeyCreate) {
  return callApi('/admin/api_keys', { session, method: 'POST', body: key, schema: ApiKeyCreated })
}

export function revokeApiKey(session: ApiSession, id: number) {
  return callApi(`/admin/api_keys/${id}`, { session, method: 'DELETE', schema: ApiKeyRevoked })
}

/** Invitations to register (registration policy "invite"): the list never holds a code. */
export function listInvitations(session: ApiSession) {
  return callApi('/admin/invitations', { session, schema: InvitationList })
}

/** A new invitation, its code answered this once. */
export function createInvitation(session: ApiSession, invitation: Partial<InvitationCreate>) {
  return callApi('/admin/invitations', { session, method: 'POST', body: invitation, schema: InvitationCreated })
}

/** Deletes an invitation not used yet (a used one is refused with 409: it stays as the record of that registration). */
export function revokeInvitation(session: ApiSession, id: number) {
  return callApi(`/admin/invitations/${id}`, { session, method: 'DELETE', schema: InvitationRevoked })
}

/** An account made by an administrator: with a password, or (without one) with a one-time invitation code. */
export function createUserAccount(session: ApiSession, user: AdminUserCreate) {
  return callApi('/admin/users', { session, method: 'POST', body: user, schema: AdminUserCreated })
}

export function setUserEnabled(session: ApiSession, id: number, enabled: boolean) {
  return callApi(`/admin/users/${id}/${enabled ? 'enable' : 'disable'}`, { session, method: 'POST', body: {}, schema: UserUpdated })
}

export function setUserPassword(session: ApiSession, id: number, password: string) {
  return callApi(`/admin/users/${id}/password`, { session, method: 'POST', body: { password }, schema: UserUpdated })
}

/** A one-time code with which the user sets a new password themselves. */
export function createPasswordLink(session: ApiSession, id: number) {
  return callApi(`/admin/users/${id}/password_link`, { session, method: 'POST', body: {}, schema: PasswordLinkCreated })
}

/** Sets an account's password with its one-time code (public: the person is not signed in). */
export function setPasswordWithCode(code: string, password: string) {
  return callApi('/auth/password_link', { method: 'POST', body: { code, password }, schema: PasswordLinkUsed })
}

/** The address a person opens to set their password with a code, on this web server. */
export function passwordLinkUrl(request: Request, code: string): string {
  const url = new URL('/password', request.url)
  url.searchParams.set('code', code)
  return url.toString()
}
