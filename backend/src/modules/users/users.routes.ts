import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import {
  AdminPasswordSet,
  AdminUserCreate,
  AdminUserCreated,
  GroupList,
  InvitationCreate,
  InvitationCreated,
  InvitationIdParams,
  InvitationList,
  InvitationRevoked,
  OrganizationIdParams,
  OrganizationList,
  PasswordLinkCreate,
  PasswordLinkCreated,
  PasswordLinkUse,
  PasswordLinkUsed,
  Registered,
  Registration,
  RegistrationInfo,
  User,
  UserIdParams,
  UsersPage,
  UsersQuery,
  UserUpdate,
  UserUpdated,
} from '../../../../contracts/users'
import { currentUser } from '../../plugins/access'
import { perAddressLimit } from '../identity/identity.routes'
import type { UsersService } from './users.service'

export interface UsersRouteOptions {
  /** Registrations per hour from one client address. */
  registrationsPerHour: number
}

export const usersRoutes =
  (users: UsersService, options: UsersRouteOptions): FastifyPluginAsyncZod =>
  async (app) => {
    // Public: the registration form lists the organisations before anyone has an account.
    app.get('/organizations', { config: { access: 'public' }, schema: { tags: ['users'], response: { 200: OrganizationList } } }, () => users.listOrganizations())

    // Who may register, for the registration page: closed, open into one organisation, or by invitation.
    app.get('/auth/registration', { config: { access: 'public' }, schema: { tags: ['users'], response: { 200: RegistrationInfo } } }, () =>
      users.registrationInfo(),
    )

    app.post(
      '/users',
      {
        config: { access: 'public', rateLimit: perAddressLimit(options.registrationsPerHour, 3_600_000, 'registrations') },
        schema: { tags: ['users'], body: Registration, response: { 200: Registered } },
      },
      (request) => users.register(request.body, request.user),
    )

    app.get('/admin/invitations', { config: { access: 'admin' }, schema: { tags: ['users'], response: { 200: InvitationList } } }, () =>
      users.listInvitations(),
    )

    app.post(
      '/admin/invitations',
      { config: { access: 'admin' }, schema: { tags: ['users'], body: InvitationCreate, response: { 200: InvitationCreated } } },
      (request) => users.createInvitation(currentUser(request), request.body),
    )

    app.delete(
      '/admin/invitations/:id',
      { config: { access: 'admin' }, schema: { tags: ['users'], params: InvitationIdParams, response: { 200: InvitationRevoked } } },
      (request) => users.revokeInvitation(request.params.id),
    )

    app.get('/admin/users', { config: { access: 'admin' }, schema: { tags: ['users'], querystring: UsersQuery, response: { 200: UsersPage } } }, (request) =>
      users.listUsers(request.query),
    )

    app.get('/admin/users/:id', { config: { access: 'admin' }, schema: { tags: ['users'], params: UserIdParams, response: { 200: User } } }, (request) =>
      users.getUser(request.params.id),
    )

    app.put(
      '/admin/users/:id',
      { config: { access: 'admin' }, schema: { tags: ['users'], params: UserIdParams, body: UserUpdate, response: { 200: UserUpdated } } },
      (request) => users.updateUser(currentUser(request), request.params.id, request.body),
    )

    // Administrators create accounts whatever the registration policy: with a password, or invited to set their own.
    app.post(
      '/admin/users',
      { config: { access: 'admin' }, schema: { tags: ['users'], body: AdminUserCreate, response: { 200: AdminUserCreated } } },
      (request) => users.createUser(currentUser(request), request.body),
    )

    app.post(
      '/admin/users/:id/disable',
      { config: { access: 'admin' }, schema: { tags: ['users'], params: UserIdParams, response: { 200: UserUpdated } } },
      (request) => users.setEnabled(currentUser(request), request.params.id, false),
    )

    app.post(
      '/admin/users/:id/enable',
      { config: { access: 'admin' }, schema: { tags: ['users'], params: UserIdParams, response: { 200: UserUpdated } } },
      (request) => users.setEnabled(currentUser(request), request.params.id, true),
    )

    app.post(
      '/admin/users/:id/password',
      { config: { access: 'admin' }, schema: { tags: ['users'], params: UserIdParams, body: AdminPasswordSet, response: { 200: UserUpdated } } },
      (request) => users.setPassword(currentUser(request), request.params.id, request.body.password),
    )

    app.post(
      '/admin/users/:id/password_link',
      { config: { access: 'admin' }, schema: { tags: ['users'], params: UserIdParams, body: PasswordLinkCreate, response: { 200: PasswordLinkCreated } } },
      (request) => users.createPasswordLink(currentUser(request), request.params.id, request.body.expires_in_days),
    )

    // Public: whoever holds an account's one-time code (an invitation or a reset) sets its password.
    app.post(
      '/auth/password_link',
      {
        config: { access: 'public', rateLimit: perAddressLimit(options.registrationsPerHour, 3_600_000, 'password links') },
        schema: { tags: ['users'], body: PasswordLinkUse, response: { 200: PasswordLinkUsed } },
      },
      (request) => users.usePasswordLink(request.body),
    )

    app.get(
      '/admin/groups/:organization_id',
      { config: { access: 'admin' }, schema: { tags: ['users'], params: OrganizationIdParams, response: { 200: GroupList } } },
      (request) => users.listGroups(request.params.organization_id),
    )
  }
