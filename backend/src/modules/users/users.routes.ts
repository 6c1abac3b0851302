import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import {
  GroupList,
  OrganizationIdParams,
  OrganizationList,
  Registered,
  Registration,
  User,
  UserIdParams,
  UsersPage,
  UsersQuery,
  UserUpdate,
  UserUpdated,
} from '../../../../contracts/users'
import { currentUser } from '../../plugins/access'
import type { UsersService } from './users.service'

export const usersRoutes =
  (users: UsersService): FastifyPluginAsyncZod =>
  async (app) => {
    // Public: the registration form lists the organisations before anyone has an account.
    app.get('/organizations', { config: { access: 'public' }, schema: { tags: ['users'], response: { 200: OrganizationList } } }, () => users.listOrganizations())

    app.post('/users', { config: { access: 'public' }, schema: { tags: ['users'], body: Registration, response: { 200: Registered } } }, (request) =>
      users.register(request.body),
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

    app.get(
      '/admin/groups/:organization_id',
      { config: { access: 'admin' }, schema: { tags: ['users'], params: OrganizationIdParams, response: { 200: GroupList } } },
      (request) => users.listGroups(request.params.organization_id),
    )
  }
