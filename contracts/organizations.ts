import { z } from 'zod'
import { Role } from './identity'
import { Group, Organization } from './users'

const MAX_ID = 2_147_483_647 // PostgreSQL integer
const Id = z.coerce.number().int().positive().max(MAX_ID, 'is not an id')
const NO_NUL = /^[^\u0000]*$/

const Name = (what: string) =>
  z
    .string()
    .trim()
    .min(1, `${what} name is required`)
    .max(100, `${what} name is at most 100 characters`)
    .regex(NO_NUL, `${what} name cannot contain NUL`)

/** Body of POST /admin/organizations and PUT /admin/organizations/{id}. */
export const OrganizationInput = z.object({ name: Name('organisation') })
export type OrganizationInput = z.infer<typeof OrganizationInput>

export const OrganizationParams = z.object({ id: Id })

/** An organisation just created or renamed, with its groups (three role groups when new). */
export const OrganizationSaved = z.object({ success: z.literal(true), message: z.string(), organization: Organization, groups: z.array(Group) })

export const OrganizationDeleted = z.object({ success: z.literal(true), message: z.string(), id: z.number().int() })

/** Body of POST /admin/groups/{organization_id}. */
export const GroupCreate = z.object({ name: Name('group'), role: Role })
export type GroupCreate = z.infer<typeof GroupCreate>

/** Body of PUT /admin/groups/{organization_id}/{group_id}: a new name, a new role, or both. */
export const GroupUpdate = z
  .object({ name: Name('group').optional(), role: Role.optional() })
  .refine((body) => body.name !== undefined || body.role !== undefined, 'send a name, a role or both')
export type GroupUpdate = z.infer<typeof GroupUpdate>

export const GroupParams = z.object({ organization_id: Id, group_id: Id })

export const GroupSaved = z.object({ success: z.literal(true), message: z.string(), group: Group })
export const GroupDeleted = z.object({ success: z.literal(true), message: z.string(), id: z.number().int() })
