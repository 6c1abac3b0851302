import { USER_FILTER_COLUMNS, type UserFilters, type UserSortField } from '../../../../contracts/users'
import { columnFiltersSql, type FilterColumnSql } from '../../db/column-filters-sql'
import type { Queryable } from '../../db/database'
import { credentialsChanged } from '../identity/credentials-generation'
import type { Role } from '../identity/identity.types'

export interface UserRecord {
  id: number
  username: string
  email: string
  firstName: string
  lastName: string
  cellphone: string
  enabled: boolean
  groupId: number
  groupName: string
  role: Role
  organizationId: number
  organizationName: string
  createdAt: Date
  updatedAt: Date
}

export interface GroupRecord {
  id: number
  name: string
  role: Role
  organizationId: number
}

/** The fields an account is written with; `passwordHash` undefined keeps the stored one. */
export interface UserFields {
  username: string
  email: string
  firstName: string
  lastName: string
  cellphone: string
  enabled: boolean
  organizationId: number
  groupId: number
  passwordHash?: string
}

/** Which unique field a write collided with, when it did. */
export type UniqueField = 'username' | 'email'

interface UserDbRow {
  id: number
  username: string
  email: string
  first_name: string
  last_name: string
  cellphone: string
  enabled: boolean
  group_id: number
  group_name: string
  role: Role
  organization_id: number
  organization_name: string
  created_at: Date
  updated_at: Date
}

const SELECT_USER = `SELECT u.id, u.username, u.email, u.first_name, u.last_name, u.cellphone, u.enabled,
    u.group_id, g.name AS group_name, g.role, u.organization_id, o.name AS organization_name, u.created_at, u.updated_at
  FROM users u JOIN groups g ON g.id = u.group_id JOIN organizations o ON o.id = u.organization_id`

// fold_text (migration 002) lowers case and strips accents, so "jose" finds "José". An empty filter is '%%', which matches all.
const FILTERED_COLUMNS = ['u.username', 'u.email', 'u.first_name', 'u.last_name', "u.first_name || ' ' || u.last_name"]
const MATCHES_FILTER = `(${FILTERED_COLUMNS.map((column) => `fold_text(${column}) LIKE fold_text($1) ESCAPE '\\'`).join(' OR ')})`

// Whitelisted column expressions of the users table's filters and sort (contracts/users.ts: USER_FILTER_COLUMNS).
const USER_FILTER_SQL: Record<keyof typeof USER_FILTER_COLUMNS, FilterColumnSql> = {
  username: { kind: 'text', expression: 'fold_text(u.username)' },
  email: { kind: 'text', expression: 'fold_text(u.email)' },
  firstName: { kind: 'text', expression: 'fold_text(u.first_name)' },
  lastName: { kind: 'text', expression: 'fold_text(u.last_name)' },
  organization_name: { kind: 'text', expression: 'fold_text(o.name)' },
  group_name: { kind: 'text', expression: 'fold_text(g.name)' },
  id: { kind: 'numeric', expression: 'u.id' },
  created_at: { kind: 'date', expression: 'u.created_at' },
}

const USER_SORT_SQL: Record<UserSortField, string> = {
  id: 'u.id',
  username: 'fold_text(u.username)',
  email: 'fold_text(u.email)',
  firstName: 'fold_text(u.first_name)',
  lastName: 'fold_text(u.last_name)',
  organization_name: 'fold_text(o.name)',
  group_name: 'fold_text(g.name)',
  enabled: 'u.enabled',
  created_at: 'u.created_at',
}

const UNIQUE_INDEXES: Record<string, UniqueField> = { users_username_idx: 'username', users_email_idx: 'email' }

const toUser = (row: UserDbRow): UserRecord => ({
  id: row.id,
  username: row.username,
  email: row.email,
  firstName: row.first_name,
  lastName: row.last_name,
  cellphone: row.cellphone,
  enabled: row.enabled,
  groupId: row.group_id,
  groupName: row.group_name,
  role: row.role,
  organizationId: row.organization_id,
  organizationName: row.organization_name,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
})

const toGroup = (row: { id: number; name: string; role: Role; organization_id: number }): GroupRecord => ({
  id: row.id,
  name: row.name,
  role: row.role,
  organizationId: row.organization_id,
})

/** The unique field a failed write collided with, or undefined when the failure was something else. */
function collidedField(error: unknown): UniqueField | undefined {
  const failure = error as { code?: string; constraint?: string }
  return failure.code === '23505' && failure.constraint ? UNIQUE_INDEXES[failure.constraint] : undefined
}

/** SQL for accounts as administrators manage them, organisations and groups. */
export const usersRepository = {
  async listOrganizations(db: Queryable): Promise<{ id: number; name: string }[]> {
    return db.query<{ id: number; name: string }>(`SELECT id, name FROM organizations ORDER BY lower(name), id`)
  },

  /** An organisation by name (case ignored), or the first one when no name is given. */
  async findOrganizationByName(db: Queryable, name: string | undefined): Promise<{ id: number; name: string } | undefined> {
    const [row] = name
      ? await db.query<{ id: number; name: string }>(`SELECT id, name FROM organizations WHERE lower(name) = lower($1)`, [name])
      : await db.query<{ id: number; name: string }>(`SELECT id, name FROM organizations ORDER BY id LIMIT 1`)
    return row
  },

  async organizationExists(db: Queryable, id: number): Promise<boolean> {
    const rows = await db.query(`SELECT 1 FROM organizations WHERE id = $1`, [id])
    return rows.length > 0
  },

  async listGroups(db: Queryable, organizationId: number): Promise<GroupRecord[]> {
    const rows = await db.query<{ id: number; name: string; role: Role; organization_id: number }>(
      `SELECT id, name, role, organization_id FROM groups WHERE organization_id = $1 ORDER BY id`,
      [organizationId],
    )
    return rows.map(toGroup)
  },

  async findGroup(db: Queryable, id: number): Promise<GroupRecord | undefined> {
    const [row] = await db.query<{ id: number; name: string; role: Role; organization_id: number }>(
      `SELECT id, name, role, organization_id FROM groups WHERE id = $1`,
      [id],
    )
    return row ? toGroup(row) : undefined
  },

  /** The organisation's first group with the role, which is where self-registered accounts go. */
  async findGroupOfRole(db: Queryable, organizationId: number, role: Role): Promise<GroupRecord | undefined> {
    const [row] = await db.query<{ id: number; name: string; role: Role; organization_id: number }>(
      `SELECT id, name, role, organization_id FROM groups WHERE organization_id = $1 AND role = $2 ORDER BY id LIMIT 1`,
      [organizationId, role],
    )
    return row ? toGroup(row) : undefined
  },

  async findUser(db: Queryable, id: number): Promise<UserRecord | undefined> {
    const [row] = await db.query<UserDbRow>(`${SELECT_USER} WHERE u.id = $1 AND NOT u.is_service`, [id])
    return row ? toUser(row) : undefined
  },

  /** A page of users whose username, email or name contains the filter (case and accents ignored), and how many match. */
  async listUsers(
    db: Queryable,
    page: { filter: string; filters?: UserFilters; sortField?: UserSortField; sortOrder?: number; limit: number; offset: number },
  ): Promise<{ rows: UserRecord[]; total: number }> {
    // The filter is matched literally: its own % and _ are escaped, not wildcards.
    const pattern = `%${page.filter.replace(/[\\%_]/g, (character) => `\\${character}`)}%`
    const params: unknown[] = [pattern]
    const columns = columnFiltersSql(page.filters ?? {}, USER_FILTER_SQL, params)
    const where = `WHERE NOT u.is_service AND ${MATCHES_FILTER} AND ${columns}`
    const direction = page.sortOrder === -1 ? 'DESC' : 'ASC'
    // Whitelisted sort expressions; id breaks ties so pages never overlap.
    const order = `${USER_SORT_SQL[page.sortField ?? 'id']} ${direction}, u.id ${direction}`
    const rows = await db.query<UserDbRow>(`${SELECT_USER} ${where} ORDER BY ${order} LIMIT ${`$${params.length + 1}`} OFFSET ${`$${params.length + 2}`}`, [
      ...params,
      page.limit,
      page.offset,
    ])
    const [count] = await db.query<{ total: number }>(
      `SELECT COUNT(*)::int AS total FROM users u JOIN groups g ON g.id = u.group_id JOIN organizations o ON o.id = u.organization_id ${where}`,
      params,
    )
    return { rows: rows.map(toUser), total: count.total }
  },

  /** Inserts an account; answers the colliding field instead of throwing when the username or email is taken. */
  async insertUser(db: Queryable, user: Omit<UserFields, 'passwordHash'> & { passwordHash: string | null }): Promise<{ id: number } | { taken: UniqueField }> {
    try {
      const [row] = await db.query<{ id: number }>(
        `INSERT INTO users (username, email, first_name, last_name, cellphone, password_hash, enabled, organization_id, group_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id`,
        [user.username, user.email, user.firstName, user.lastName, user.cellphone, user.passwordHash, user.enabled, user.organizationId, user.groupId],
      )
      return { id: row.id }
    } catch (error) {
      const taken = collidedField(error)
      if (taken) return { taken }
      throw error
    }
  },

  /** Rewrites an account. Answers the colliding field when the username or email belongs to someone else. */
  async updateUser(db: Queryable, id: number, user: UserFields): Promise<{ isUpdated: boolean } | { taken: UniqueField }> {
    try {
      const rows = await db.query(
        `UPDATE users SET username = $2, email = $3, first_name = $4, last_name = $5, cellphone = $6, enabled = $7,
           organization_id = $8, group_id = $9,
           password_hash = COALESCE($10, password_hash),
           updated_at = now()
         WHERE id = $1 RETURNING id`,
        [id, user.username, user.email, user.firstName, user.lastName, user.cellphone, user.enabled, user.organizationId, user.groupId, user.passwordHash ?? null],
      )
      credentialsChanged(db)
      return { isUpdated: rows.length > 0 }
    } catch (error) {
      const taken = collidedField(error)
      if (taken) return { taken }
      throw error
    }
  },

  async insertInvitation(
    db: Queryable,
    invitation: { codeHash: string; organizationId: number; note: string; createdBy: number; days: number },
  ): Promise<InvitationRecord> {
    const [row] = await db.query<{ id: number }>(
      `INSERT INTO invitations (code_hash, organization_id, note, created_by, expires_at)
       VALUES ($1, $2, $3, $4, now() + ($5::int * interval '1 day')) RETURNING id`,
      [invitation.codeHash, invitation.organizationId, invitation.note, invitation.createdBy, invitation.days],
    )
    return (await this.findInvitation(db, row.id))!
  },

  async findInvitation(db: Queryable, id: number): Promise<InvitationRecord | undefined> {
    const [row] = await db.query<InvitationDbRow>(`${SELECT_INVITATION} WHERE i.id = $1`, [id])
    return row ? toInvitation(row) : undefined
  },

  async listInvitations(db: Queryable): Promise<InvitationRecord[]> {
    // Registration invitations only: the codes bound to an account (set or reset its password) are not listed.
    const rows = await db.query<InvitationDbRow>(`${SELECT_INVITATION} WHERE i.user_id IS NULL ORDER BY i.id DESC`)
    return rows.map(toInvitation)
  },

  /** Deletes an invitation not used yet; a used one stays as the record of who came in with it. */
  async deleteUnusedInvitation(db: Queryable, id: number): Promise<'deleted' | 'used' | 'missing'> {
    const [deleted] = await db.query(`DELETE FROM invitations WHERE id = $1 AND user_id IS NULL AND used_at IS NULL RETURNING id`, [id])
    if (deleted) return 'deleted'
    const [used] = await db.query(`SELECT 1 FROM invitations WHERE id = $1 AND user_id IS NULL`, [id])
    return used ? 'used' : 'missing'
  },

  /** Takes a pending invitation by its code's hash, once: answers its organisation, or undefined when none is pending. */
  async claimInvitation(db: Queryable, codeHash: string): Promise<{ id: number; organizationId: number } | undefined> {
    const [row] = await db.query<{ id: number; organization_id: number }>(
      `UPDATE invitations SET used_at = now()
       WHERE code_hash = $1 AND user_id IS NULL AND used_at IS NULL AND expires_at > now() RETURNING id, organization_id`,
      [codeHash],
    )
    return row ? { id: row.id, organizationId: row.organization_id } : undefined
  },

  /** How an account (not a key's service account) signs in: with a password here, or through the sign-in provider. */
  async findSignInKind(db: Queryable, id: number): Promise<{ isExternal: boolean; hasPassword: boolean; username: string } | undefined> {
    const [row] = await db.query<{ external_subject: string | null; has_password: boolean; username: string }>(
      `SELECT external_subject, password_hash IS NOT NULL AS has_password, username FROM users WHERE id = $1 AND NOT is_service`,
      [id],
    )
    return row ? { isExternal: row.external_subject !== null, hasPassword: row.has_password, username: row.username } : undefined
  },

  async setEnabled(db: Queryable, id: number, enabled: boolean): Promise<boolean> {
    const rows = await db.query(`UPDATE users SET enabled = $2, updated_at = now() WHERE id = $1 AND NOT is_service RETURNING id`, [id, enabled])
    credentialsChanged(db)
    return rows.length > 0
  },

  async setPasswordHash(db: Queryable, id: number, passwordHash: string): Promise<void> {
    await db.query(`UPDATE users SET password_hash = $2, updated_at = now() WHERE id = $1`, [id, passwordHash])
    credentialsChanged(db)
  },

  /** A new one-time code for an account's password; the account's earlier unused codes stop working. */
  async insertPasswordLink(
    db: Queryable,
    link: { codeHash: string; userId: number; createdBy: number; days: number },
  ): Promise<{ expiresAt: Date }> {
    await db.query(`DELETE FROM invitations WHERE user_id = $1 AND used_at IS NULL`, [link.userId])
    const [row] = await db.query<{ expires_at: Date }>(
      `INSERT INTO invitations (code_hash, organization_id, note, created_by, expires_at, user_id)
       SELECT $1, organization_id, 'password', $3, now() + ($4::int * interval '1 day'), id FROM users WHERE id = $2
       RETURNING expires_at`,
      [link.codeHash, link.userId, link.createdBy, link.days],
    )
    return { expiresAt: new Date(row.expires_at) }
  },

  /** Takes an account's pending password code, once: answers the account, or undefined when none is pending. */
  async claimPasswordLink(db: Queryable, codeHash: string): Promise<{ userId: number } | undefined> {
    const [row] = await db.query<{ user_id: number }>(
      `UPDATE invitations SET used_at = now(), used_by = user_id
       WHERE code_hash = $1 AND user_id IS NOT NULL AND used_at IS NULL AND expires_at > now() RETURNING user_id`,
      [codeHash],
    )
    return row ? { userId: row.user_id } : undefined
  },

  async deletePendingPasswordLinks(db: Queryable, userId: number): Promise<void> {
    await db.query(`DELETE FROM invitations WHERE user_id = $1 AND used_at IS NULL`, [userId])
  },

  async markInvitationUsedBy(db: Queryable, id: number, userId: number): Promise<void> {
    await db.query(`UPDATE invitations SET used_by = $2 WHERE id = $1`, [id, userId])
  },
}

export interface InvitationRecord {
  id: number
  organizationId: number
  organizationName: string
  note: string
  createdAt: Date
  expiresAt: Date
  usedAt: Date | null
  usedBy: number | null
  usedByUsername: string | null
  createdByUsername: string | null
}

interface InvitationDbRow {
  id: number
  organization_id: number
  organization_name: string
  note: string
  created_at: Date
  expires_at: Date
  used_at: Date | null
  used_by: number | null
  used_by_username: string | null
  created_by_username: string | null
}

const SELECT_INVITATION = `SELECT i.id, i.organization_id, o.name AS organization_name, i.note, i.created_at, i.expires_at, i.used_at, i.used_by,
    used_by.username AS used_by_username, created_by.username AS created_by_username
  FROM invitations i JOIN organizations o ON o.id = i.organization_id
  LEFT JOIN users used_by ON used_by.id = i.used_by
  LEFT JOIN users created_by ON created_by.id = i.created_by`

const toInvitation = (row: InvitationDbRow): InvitationRecord => ({
  id: row.id,
  organizationId: row.organization_id,
  organizationName: row.organization_name,
  note: row.note,
  createdAt: new Date(row.created_at),
  expiresAt: new Date(row.expires_at),
  usedAt: row.used_at ? new Date(row.used_at) : null,
  usedBy: row.used_by,
  usedByUsername: row.used_by_username,
  createdByUsername: row.created_by_username,
})
