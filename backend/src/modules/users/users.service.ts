import { createHash, randomBytes } from 'node:crypto'
import type {
  AdminUserCreate,
  AdminUserCreated,
  Group,
  Invitation,
  InvitationCreate,
  InvitationCreated,
  Organization,
  PasswordLinkCreated,
  PasswordLinkUse,
  PasswordLinkUsed,
  Registered,
  Registration,
  RegistrationInfo,
  RegistrationPolicy,
  User,
  UsersPage,
  UsersQuery,
  UserUpdate,
  UserUpdated,
} from '../../../../contracts/users'
import type { Config } from '../../config'
import type { Database, Queryable } from '../../db/database'
import { AppError, InvalidInputError, NotFoundError } from '../../errors'
import { INVITATION_DAYS_DEFAULT } from '../../../../contracts/users'
import { hashPassword, type IdentityService } from '../identity/identity.service'
import { hasRole, type CurrentUser } from '../identity/identity.types'
import { usersRepository as repository, type GroupRecord, type InvitationRecord, type UniqueField, type UserRecord } from './users.repository'

export interface RegistrationOptions {
  policy: RegistrationPolicy
  /** The organisation (by name) open registration goes into, and invitations by default; the first one when unset. */
  organization?: string
}

/** The registration options from the backend's configuration: off by default with single sign-on, else open. */
export function registrationOptionsFrom(config: Config): RegistrationOptions {
  return { policy: config.REGISTRATION_POLICY ?? (config.OIDC_ISSUER ? 'off' : 'open'), organization: config.REGISTRATION_ORGANIZATION }
}

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

const toInvitation = (invitation: InvitationRecord, now = new Date()): Invitation => ({
  id: invitation.id,
  organization_id: invitation.organizationId,
  organization_name: invitation.organizationName,
  note: invitation.note,
  created_at: invitation.createdAt.toISOString(),
  expires_at: invitation.expiresAt.toISOString(),
  used_at: invitation.usedAt?.toISOString() ?? null,
  used_by: invitation.usedBy,
  used_by_username: invitation.usedByUsername,
  created_by_username: invitation.createdByUsername,
  status: invitation.usedAt ? 'used' : invitation.expiresAt <= now ? 'expired' : 'pending',
})

const hashCode = (code: string) => createHash('sha256').update(code).digest('hex')

const INVALID_INVITATION = 'The invitation code is not valid, has been used or has expired'
const INVALID_PASSWORD_LINK = 'This link is not valid, has been used or has expired: ask an administrator for a new one'
const EXTERNAL_ACCOUNT = 'This account signs in through the sign-in provider; its password is managed there'

/** Registration, invitations, and the accounts, organisations and groups administrators manage. */
export class UsersService {
  constructor(
    private readonly db: Database,
    private readonly identity: IdentityService,
    private readonly registration: RegistrationOptions,
  ) {}

  listOrganizations(): Promise<Organization[]> {
    return repository.listOrganizations(this.db)
  }

  async listGroups(organizationId: number): Promise<Group[]> {
    if (!(await repository.organizationExists(this.db, organizationId))) throw new NotFoundError(`No organisation with id ${organizationId}`)
    return (await repository.listGroups(this.db, organizationId)).map(toGroup)
  }

  /** What the registration page should offer. */
  async registrationInfo(): Promise<RegistrationInfo> {
    const { policy } = this.registration
    const organization = policy === 'open' ? ((await repository.findOrganizationByName(this.db, this.registration.organization)) ?? null) : null
    return { policy, organization }
  }

  /**
   * Creates an enabled account in an organisation's group for users: never a higher role. An administrator may
   * register someone into any organisation, whatever the policy. Anyone else gets the policy: refused when it is
   * off; into the registration organisation when it is open (the organisation in the body is ignored); into the
   * invitation's organisation, with a valid invitation code used up by this registration, when it is by invitation.
   */
  async register(registration: Registration, caller: CurrentUser | null): Promise<Registered> {
    if (caller && hasRole(caller, 'admin')) {
      const [organizationId] = registration.organizations ?? [await this.registrationOrganizationId()]
      if (!(await repository.organizationExists(this.db, organizationId))) {
        throw new InvalidInputError('organizations', `No organisation with id ${organizationId}`)
      }
      return this.createAccount(this.db, registration, await hashPassword(registration.password), organizationId, 'organizations')
    }
    switch (this.registration.policy) {
      case 'off':
        throw new AppError(403, 'Forbidden', 'Registration is closed: ask an administrator for an account')
      case 'open': {
        const organizationId = await this.registrationOrganizationId()
        return this.createAccount(this.db, registration, await hashPassword(registration.password), organizationId)
      }
      case 'invite': {
        if (!registration.invitation) throw new InvalidInputError('invitation', 'Registration is by invitation: enter the invitation code you were given')
        const codeHash = hashCode(registration.invitation)
        const passwordHash = await hashPassword(registration.password)
        // Claimed in the same transaction as the account: a registration that fails (a taken username) keeps the code.
        return this.db.transaction(async (tx) => {
          const invitation = await repository.claimInvitation(tx, codeHash)
          if (!invitation) throw new InvalidInputError('invitation', INVALID_INVITATION)
          const registered = await this.createAccount(tx, registration, passwordHash, invitation.organizationId)
          await repository.markInvitationUsedBy(tx, invitation.id, registered.id)
          return registered
        })
      }
    }
  }

  /** The organisation open registration goes into; a misconfiguration is the operator's to fix, not the caller's. */
  private async registrationOrganizationId(): Promise<number> {
    const organization = await repository.findOrganizationByName(this.db, this.registration.organization)
    if (!organization) {
      throw new AppError(503, 'Service Unavailable', `Registration is not available: no organisation is named "${this.registration.organization}" (REGISTRATION_ORGANIZATION)`)
    }
    return organization.id
  }

  private async createAccount(
    db: Queryable,
    registration: Registration,
    passwordHash: string,
    organizationId: number,
    organizationField?: string,
  ): Promise<Registered> {
    const group = await repository.findGroupOfRole(db, organizationId, 'user')
    if (!group) {
      const message = `Organisation ${organizationId} takes no registrations: it has no group for users`
      throw organizationField ? new InvalidInputError(organizationField, message) : new AppError(503, 'Service Unavailable', `Registration is not available: ${message}`)
    }
    const created = await repository.insertUser(db, {
      username: registration.username,
      email: registration.email,
      firstName: registration.firstName,
      lastName: registration.lastName,
      cellphone: registration.cellphone,
      // SEED.md: registration always sends enabled true; an account that cannot sign in would be no registration.
      enabled: true,
      organizationId,
      groupId: group.id,
      passwordHash,
    })
    if ('taken' in created) throw new TakenError(created.taken, registration[created.taken])
    return { success: true, message: 'User registered', id: created.id }
  }

  /** A one-time invitation code for registering into an organisation; only its hash is kept. */
  async createInvitation(caller: CurrentUser, request: InvitationCreate): Promise<InvitationCreated> {
    let organizationId = request.organization_id
    if (organizationId === undefined) organizationId = (await repository.findOrganizationByName(this.db, this.registration.organization))?.id
    if (organizationId === undefined || !(await repository.organizationExists(this.db, organizationId))) {
      throw new InvalidInputError('organization_id', `No organisation with id ${organizationId ?? '(the registration organisation)'}`)
    }
    if (!(await repository.findGroupOfRole(this.db, organizationId, 'user'))) {
      throw new InvalidInputError('organization_id', `Organisation ${organizationId} takes no registrations: it has no group for users`)
    }
    const code = randomBytes(24).toString('base64url')
    const invitation = await repository.insertInvitation(this.db, {
      codeHash: hashCode(code),
      organizationId,
      note: request.note,
      createdBy: caller.id,
      days: request.expires_in_days,
    })
    return { success: true, code, ...toInvitation(invitation) }
  }

  async listInvitations(): Promise<Invitation[]> {
    const now = new Date()
    return (await repository.listInvitations(this.db)).map((invitation) => toInvitation(invitation, now))
  }

  async revokeInvitation(id: number): Promise<{ success: true; message: string; id: number }> {
    const outcome = await repository.deleteUnusedInvitation(this.db, id)
    if (outcome === 'missing') throw new NotFoundError(`No invitation with id ${id}`)
    if (outcome === 'used') throw new AppError(409, 'Conflict', `Invitation ${id} has been used; it stays as the record of that registration`)
    return { success: true, message: 'Invitation revoked', id }
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
    const before = await repository.findUser(this.db, id)
    if (!before) throw new NotFoundError(`No user with id ${id}`)
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
    // A new password, a disabled account, or another role or organisation ends the user's sessions (an administrator
    // keeps the one they work in): a web server that holds the role of a session would otherwise go on offering the
    // screens of the old one until its person signs out.
    const isMoved = before.role !== group.role || before.organizationId !== update.organization_id
    if (update.password || !update.enabled || isMoved) await this.identity.endSessions(id, caller.id === id ? caller.sessionId : undefined)
    return { success: true, message: 'User updated', id }
  }

  /**
   * An administrator creates an account in an organisation, in its group for the role, whatever the registration
   * policy. Without a password the account cannot sign in until its person sets one with the invitation code answered.
   */
  async createUser(caller: CurrentUser, request: AdminUserCreate): Promise<AdminUserCreated> {
    if (!(await repository.organizationExists(this.db, request.organization_id))) {
      throw new InvalidInputError('organization_id', `No organisation with id ${request.organization_id}`)
    }
    const group = await repository.findGroupOfRole(this.db, request.organization_id, request.role)
    if (!group) throw new InvalidInputError('role', `Organisation ${request.organization_id} has no group for the ${request.role} role`)
    const passwordHash = request.password ? await hashPassword(request.password) : null
    const code = request.password ? undefined : randomBytes(24).toString('base64url')
    return this.db.transaction(async (tx) => {
      const created = await repository.insertUser(tx, {
        username: request.username,
        email: request.email,
        firstName: request.firstName,
        lastName: request.lastName,
        cellphone: request.cellphone,
        enabled: true,
        organizationId: request.organization_id,
        groupId: group.id,
        passwordHash,
      })
      if ('taken' in created) throw new TakenError(created.taken, request[created.taken])
      if (!code) return { success: true, message: 'User created', id: created.id, invitation: null }
      const link = await repository.insertPasswordLink(tx, { codeHash: hashCode(code), userId: created.id, createdBy: caller.id, days: INVITATION_DAYS_DEFAULT })
      return { success: true, message: 'User invited', id: created.id, invitation: { code, expires_at: link.expiresAt.toISOString() } }
    })
  }

  /** Disables or enables an account. A disabled account cannot sign in, and its sessions and tokens end at once. */
  async setEnabled(caller: CurrentUser, id: number, enabled: boolean): Promise<UserUpdated> {
    if (!enabled && caller.id === id) throw new InvalidInputError('enabled', 'You cannot disable your own account')
    if (!(await repository.setEnabled(this.db, id, enabled))) throw new NotFoundError(`No user with id ${id}`)
    if (!enabled) await this.identity.endSessions(id)
    return { success: true, message: enabled ? 'User enabled' : 'User disabled', id }
  }

  /** An administrator sets an account's password: its sessions end (the caller keeps the one they work in) and pending reset codes stop working. */
  async setPassword(caller: CurrentUser, id: number, password: string): Promise<UserUpdated> {
    await this.requireLocalAccount(id, 'password')
    const passwordHash = await hashPassword(password)
    await this.db.transaction(async (tx) => {
      await repository.setPasswordHash(tx, id, passwordHash)
      await repository.deletePendingPasswordLinks(tx, id)
    })
    await this.identity.endSessions(id, caller.id === id ? caller.sessionId : undefined)
    return { success: true, message: 'Password changed', id }
  }

  /** A one-time code with which the account's person sets a new password; the current password keeps working until then. */
  async createPasswordLink(caller: CurrentUser, id: number, days: number): Promise<PasswordLinkCreated> {
    await this.requireLocalAccount(id, 'id')
    const code = randomBytes(24).toString('base64url')
    const link = await repository.insertPasswordLink(this.db, { codeHash: hashCode(code), userId: id, createdBy: caller.id, days })
    return { success: true, message: 'Password reset link created', id, code, expires_at: link.expiresAt.toISOString() }
  }

  /** Sets an account's password with its one-time code (an invitation or a reset); every session of the account ends. */
  async usePasswordLink(request: PasswordLinkUse): Promise<PasswordLinkUsed> {
    const passwordHash = await hashPassword(request.password)
    const userId = await this.db.transaction(async (tx) => {
      const claimed = await repository.claimPasswordLink(tx, hashCode(request.code))
      if (!claimed) throw new InvalidInputError('code', INVALID_PASSWORD_LINK)
      await repository.setPasswordHash(tx, claimed.userId, passwordHash)
      return claimed.userId
    })
    await this.identity.endSessions(userId)
    const account = await repository.findSignInKind(this.db, userId)
    return { success: true, message: 'Password set: sign in with it', username: account?.username ?? '' }
  }

  /** The account, when it exists and signs in here with a password (not through the provider, not a key's account). */
  private async requireLocalAccount(id: number, field: string): Promise<void> {
    const account = await repository.findSignInKind(this.db, id)
    if (!account) throw new NotFoundError(`No user with id ${id}`)
    if (account.isExternal) throw new InvalidInputError(field, EXTERNAL_ACCOUNT)
  }
}
