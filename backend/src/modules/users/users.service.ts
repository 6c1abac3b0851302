import type { Group, Organization, Registered, Registration, User, UsersPage, UsersQuery, UserUpdate, UserUpdated } from '../../../../contracts/users'
import type { Database } from '../../db/database'
import { AppError, InvalidInputError, NotFoundError } from '../../errors'
import { hashPassword } from '../identity/identity.service'
import type { CurrentUser } from '../identity/identity.types'
import { usersRepository as repository, type GroupRecord, type UniqueField, type UserRecord } from './users.repository'

/** A username or email that already belongs to another account; names the field so forms can show it there. */
export class TakenError extends AppError {
  constructor(field: UniqueField, value: string) {
    super(409, 'Conflict', `The ${field} "${value}" is already taken`, field)
  }
}

const toUser = (user: UserRecord): User => ({
  id: user.id,
  username: user.username,
  email: user.email,
  firstName: user.firstName,
  lastName: user.lastName,
  cellphone: user.cellphone,
  enabled: user.enabled,
  group_id: user.groupId,
  group_name: user.groupName,
  role: user.role,
  organization_id: user.organizationId,
  organization_name: user.organizationName,
  organizations: [user.organizationId],
  created_at: user.createdAt.toISOString(),
  updated_at: user.updatedAt.toISOString(),
})

const toGroup = (group: GroupRecord): Group => ({ id: group.id, name: group.name, role: group.role, organization_id: group.organizationId })

/** Registration, and the accounts, organisations and groups administrators manage. */
export class UsersService {
  constructor(private readonly db: Database) {}

  listOrganizations(): Promise<Organization[]> {
    return repository.listOrganizations(this.db)
  }

  async listGroups(organizationId: number): Promise<Group[]> {
    if (!(await repository.organizationExists(this.db, organizationId))) throw new NotFoundError(`No organisation with id ${organizationId}`)
    return (await repository.listGroups(this.db, organizationId)).map(toGroup)
  }

  /** Creates an enabled account in the chosen organisation's group for users. */
  async register(registration: Registration): Promise<Registered> {
    const [organizationId] = registration.organizations
    if (!(await repository.organizationExists(this.db, organizationId))) {
      throw new InvalidInputError('organizations', `No organisation with id ${organizationId}`)
    }
    const group = await repository.findGroupOfRole(this.db, organizationId, 'user')
    if (!group) throw new InvalidInputError('organizations', `Organisation ${organizationId} takes no registrations: it has no group for users`)
    const created = await repository.insertUser(this.db, {
      username: registration.username,
      email: registration.email,
      firstName: registration.firstName,
      lastName: registration.lastName,
      cellphone: registration.cellphone,
      // SEED.md: registration always sends enabled true; an account that cannot sign in would be no registration.
      enabled: true,
      organizationId,
      groupId: group.id,
      passwordHash: await hashPassword(registration.password),
    })
    if ('taken' in created) throw new TakenError(created.taken, registration[created.taken])
    return { success: true, message: 'User registered', id: created.id }
  }

  async listUsers(query: UsersQuery): Promise<UsersPage> {
    const page = await repository.listUsers(this.db, query)
    return { success: true, users: page.rows.map(toUser), count: page.total }
  }

  async getUser(id: number): Promise<User> {
    const user = await repository.findUser(this.db, id)
    if (!user) throw new NotFoundError(`No user with id ${id}`)
    return toUser(user)
  }

  /** Rewrites an account as an administrator edited it; refuses edits that would lock the caller out. */
  async updateUser(caller: CurrentUser, id: number, update: UserUpdate): Promise<UserUpdated> {
    if (update.id !== id) throw new InvalidInputError('id', `The id in the body (${update.id}) is not the id in the path (${id})`)
    if (!(await repository.findUser(this.db, id))) throw new NotFoundError(`No user with id ${id}`)
    if (!(await repository.organizationExists(this.db, update.organization_id))) {
      throw new InvalidInputError('organization_id', `No organisation with id ${update.organization_id}`)
    }
    const group = await repository.findGroup(this.db, update.group_id)
    if (!group || group.organizationId !== update.organization_id) {
      throw new InvalidInputError('group_id', `Group ${update.group_id} is not a group of organisation ${update.organization_id}`)
    }
    if (caller.id === id && !update.enabled) throw new InvalidInputError('enabled', 'You cannot disable your own account')
    if (caller.id === id && group.role !== 'admin') {
      throw new InvalidInputError('group_id', 'You cannot take the admin role from your own account; another administrator can')
    }
    const result = await repository.updateUser(this.db, id, {
      username: update.username,
      email: update.email,
      firstName: update.firstName,
      lastName: update.lastName,
      cellphone: update.cellphone,
      enabled: update.enabled,
      organizationId: update.organization_id,
      groupId: update.group_id,
      passwordHash: update.password ? await hashPassword(update.password) : undefined,
    })
    if ('taken' in result) throw new TakenError(result.taken, update[result.taken])
    if (!result.isUpdated) throw new NotFoundError(`No user with id ${id}`)
    return { success: true, message: 'User updated', id }
  }
}
