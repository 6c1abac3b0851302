import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import {
  GroupCreate,
  GroupDeleted,
  GroupParams,
  GroupSaved,
  GroupUpdate,
  OrganizationDeleted,
  OrganizationInput,
  OrganizationParams,
  OrganizationSaved,
} from '../../../../contracts/organizations'
import { OrganizationIdParams } from '../../../../contracts/users'
import type { OrganizationsService } from './organizations.service'

/** Administrators create, rename and delete organisations and their groups (the lists are in the users module). */
export const organizationsRoutes =
  (organizations: OrganizationsService): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      '/admin/organizations',
      { config: { access: 'admin' }, schema: { tags: ['organizations'], body: OrganizationInput, response: { 200: OrganizationSaved } } },
      async (request) => {
        const saved = await organizations.create(request.body.name)
        return { success: true as const, message: `Organisation "${saved.organization.name}" created`, ...saved }
      },
    )

    app.put(
      '/admin/organizations/:id',
      { config: { access: 'admin' }, schema: { tags: ['organizations'], params: OrganizationParams, body: OrganizationInput, response: { 200: OrganizationSaved } } },
      async (request) => {
        const saved = await organizations.rename(request.params.id, request.body.name)
        return { success: true as const, message: `Organisation renamed to "${saved.organization.name}"`, ...saved }
      },
    )

    app.delete(
      '/admin/organizations/:id',
      { config: { access: 'admin' }, schema: { tags: ['organizations'], params: OrganizationParams, response: { 200: OrganizationDeleted } } },
      async (request) => {
        const deleted = await organizations.delete(request.params.id)
        return { success: true as const, message: `Organisation "${deleted.name}" deleted`, id: deleted.id }
      },
    )

    app.post(
      '/admin/groups/:organization_id',
      { config: { access: 'admin' }, schema: { tags: ['organizations'], params: OrganizationIdParams, body: GroupCreate, response: { 200: GroupSaved } } },
      async (request) => {
        const group = await organizations.createGroup(request.params.organization_id, request.body)
        return { success: true as const, message: `Group "${group.name}" created`, group }
      },
    )

    app.put(
      '/admin/groups/:organization_id/:group_id',
      { config: { access: 'admin' }, schema: { tags: ['organizations'], params: GroupParams, body: GroupUpdate, response: { 200: GroupSaved } } },
      async (request) => {
        const group = await organizations.updateGroup(request.params.organization_id, request.params.group_id, request.body)
        return { success: true as const, message: `Group "${group.name}" saved`, group }
      },
    )

    app.delete(
      '/admin/groups/:organization_id/:group_id',
      { config: { access: 'admin' }, schema: { tags: ['organizations'], params: GroupParams, response: { 200: GroupDeleted } } },
      async (request) => {
        const group = await organizations.deleteGroup(request.params.organization_id, request.params.group_id)
        return { success: true as const, message: `Group "${group.name}" deleted`, id: group.id }
      },
    )
  }
