import type { Database } from '../../db/database'
import { ConflictError, NotFoundError } from '../../errors'
import type { Role } from '../identity/identity.types'
import { isDuplicateName, organizationsRepository as repository, ROLE_GROUPS, type GroupRow, type OrganizationContents, type OrganizationRow } from './organizations.repository'

export interface GroupView {
  id: number
  name: string
  role: Role
  organization_id: number
}

const toGroup = (row: GroupRow): GroupView => ({ id: row.id, name: row.name, role: row.role, organization_id: row.organization_id })

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`

/** "3 users, 1 API key and 12 query logs": what still belongs to an organisation, or undefined when nothing does. */
export function describeContents(contents: OrganizationContents): string | undefined {
  const parts = [
    contents.users > 0 ? plural(contents.users, 'user', 'users') : undefined,
    contents.groups > 0 ? plural(contents.groups, 'group besides its role groups', 'groups besides its role groups') : undefined,
    contents.apiKeys > 0 ? plural(contents.apiKeys, 'API key', 'API keys') : undefined,
    contents.queryLogs > 0 ? plural(contents.queryLogs, 'query log', 'query logs') : undefined,
  ].filter((part): part is string => part !== undefined)
  if (parts.length === 0) return undefined
  return parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`
}

/** Organisations and the groups in them, for administrators. Listing stays with the users module. */
export class OrganizationsService {
  constructor(private readonly db: Database) {}

  /** A new organisation with its three role groups (administrators, editors, users). */
  async create(name: string): Promise<{ organization: OrganizationRow; groups: GroupView[] }> {
    return this.writeName(name, async () =>
      this.db.transaction(async (tx) => {
        const organization = await repository.insert(tx, name)
        const groups: GroupView[] = []
        for (const group of ROLE_GROUPS) groups.push(toGroup(await repository.insertGroup(tx, { organizationId: organization.id, ...group, builtin: true })))
        return { organization, groups }
      }),
    )
  }

  async rename(id: number, name: string): Promise<{ organization: OrganizationRow; groups: GroupView[] }> {
    return this.writeName(name, async () => {
      const organization = await repository.rename(this.db, id, name)
      if (!organization) throw new NotFoundError(`No organisation with id ${id}`)
      return { organization, groups: (await repository.listGroups(this.db, id)).map(toGroup) }
    }, id)
  }

  /**
   * Deletes an organisation that holds nothing but its role groups (and keys already revoked); otherwise 409, saying
   * what would have to move first. Articles and drafts are shared by all organisations, so they never hold one back.
   */
  async delete(id: number): Promise<OrganizationRow> {
    return this.db.transaction(async (tx) => {
      const organization = await repository.find(tx, id, true)
      if (!organization) throw new NotFoundError(`No organisation with id ${id}`)
      const remaining = describeContents(await repository.contents(tx, id))
      if (remaining) {
        throw new ConflictError(`Organisation "${organization.name}" still has ${remaining}: move or delete them before deleting the organisation`)
      }
      await repository.delete(tx, id)
      return organization
    })
  }

  async createGroup(organizationId: number, group: { name: string; role: Role }): Promise<GroupView> {
    await this.requireOrganization(organizationId)
    return this.writeGroupName(organizationId, group.name, undefined, async () =>
      toGroup(await repository.insertGroup(this.db, { organizationId, name: group.name, role: group.role, builtin: false })),
    )
  }

  /** Renames a group or changes its role; the role of a built-in role group stays, since sign-up and keys rely on it. */
  async updateGroup(organizationId: number, groupId: number, change: { name?: string; role?: Role }): Promise<GroupView> {
    await this.requireOrganization(organizationId)
    // The group is read and written under its row's lock: a rename and a role change saved at once both hold.
    const write = () =>
      this.db.transaction(async (tx) => {
        const group = await repository.findGroup(tx, organizationId, groupId, true)
        if (!group) throw new NotFoundError(`No group with id ${groupId} in organisation ${organizationId}`)
        if (group.builtin && change.role !== undefined && change.role !== group.role) {
          throw new ConflictError(`"${group.name}" is this organisation's built-in ${group.role} group: its role cannot change (rename it, or create another group)`, 'role')
        }
        return toGroup(await repository.updateGroup(tx, groupId, { name: change.name ?? group.name, role: change.role ?? group.role }))
      })
    return change.name === undefined ? write() : this.writeGroupName(organizationId, change.name, groupId, write)
  }

  /** Deletes an empty group that is not one of the organisation's built-in role groups. */
  async deleteGroup(organizationId: number, groupId: number): Promise<GroupView> {
    await this.requireOrganization(organizationId)
    return this.db.transaction(async (tx) => {
      const group = await repository.findGroup(tx, organizationId, groupId, true)
      if (!group) throw new NotFoundError(`No group with id ${groupId} in organisation ${organizationId}`)
      if (group.builtin) throw new ConflictError(`"${group.name}" is this organisation's built-in ${group.role} group and cannot be deleted`)
      const members = await repository.groupMembers(tx, groupId)
      if (members > 0) throw new ConflictError(`Group "${group.name}" still has ${plural(members, 'user', 'users')}: move them to another group first`)
      await repository.deleteGroup(tx, groupId)
      return toGroup(group)
    })
  }

  private async requireOrganization(id: number): Promise<OrganizationRow> {
    const organization = await repository.find(this.db, id)
    if (!organization) throw new NotFoundError(`No organisation with id ${id}`)
    return organization
  }

  /** Runs a write that sets an organisation's name, answering 409 when another organisation has it (case ignored). */
  private async writeName<T>(name: string, write: () => Promise<T>, ownId?: number): Promise<T> {
    const existing = await repository.findByName(this.db, name)
    if (existing && existing.id !== ownId) throw new ConflictError(`An organisation named "${existing.name}" already exists`, 'name')
    try {
      return await write()
    } catch (error) {
      // Two administrators creating the same name at once: the unique index decides.
      if (isDuplicateName(error)) throw new ConflictError(`An organisation named "${name}" already exists`, 'name')
      throw error
    }
  }

  private async writeGroupName<T>(organizationId: number, name: string, ownId: number | undefined, write: () => Promise<T>): Promise<T> {
    const existing = await repository.findGroupByName(this.db, organizationId, name)
    if (existing && existing.id !== ownId) throw new ConflictError(`This organisation already has a group named "${existing.name}"`, 'name')
    try {
      return await write()
    } catch (error) {
      if (isDuplicateName(error)) throw new ConflictError(`This organisation already has a group named "${name}"`, 'name')
      throw error
    }
  }
}
