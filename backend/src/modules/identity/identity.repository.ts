import type { Queryable } from '../../db/database'
import type { CurrentUser, Role } from './identity.types'

export interface UserCredentials extends CurrentUser {
  passwordHash: string | null
  enabled: boolean
  failedLogins: number
  lockedUntil: Date | null
}

interface CredentialsRow {
  id: number
  username: string
  role: Role
  organization_id: number
  group_id: number
  password_hash: string | null
  enabled: boolean
  failed_logins: number
  locked_until: Date | null
}

const SELECT_CREDENTIALS = `SELECT u.id, u.username, g.role, u.organization_id, u.group_id, u.password_hash, u.enabled, u.failed_logins, u.locked_until
  FROM users u JOIN groups g ON g.id = u.group_id`

const toCredentials = (row: CredentialsRow): UserCredentials => ({
  id: row.id,
  username: row.username,
  role: row.role,
  organizationId: row.organization_id,
  groupId: row.group_id,
  passwordHash: row.password_hash,
  enabled: row.enabled,
  failedLogins: row.failed_logins,
  lockedUntil: row.locked_until,
})

/** SQL for signing in and resolving callers. */
export const identityRepository = {
  async findById(db: Queryable, id: number): Promise<UserCredentials | undefined> {
    const [row] = await db.query<CredentialsRow>(`${SELECT_CREDENTIALS} WHERE u.id = $1`, [id])
    return row ? toCredentials(row) : undefined
  },

  async findByUsername(db: Queryable, username: string): Promise<UserCredentials | undefined> {
    const [row] = await db.query<CredentialsRow>(`${SELECT_CREDENTIALS} WHERE lower(u.username) = lower($1)`, [username])
    return row ? toCredentials(row) : undefined
  },

  async recordFailure(db: Queryable, id: number, maxFailures: number, lockSeconds: number): Promise<void> {
    await db.query(
      `UPDATE users SET failed_logins = failed_logins + 1,
         locked_until = CASE WHEN failed_logins + 1 >= $2 THEN now() + ($3::int * interval '1 second') ELSE locked_until END
       WHERE id = $1`,
      [id, maxFailures, lockSeconds],
    )
  },

  async recordSuccess(db: Queryable, id: number): Promise<void> {
    await db.query(`UPDATE users SET failed_logins = 0, locked_until = NULL WHERE id = $1`, [id])
  },

  async groupOfRole(db: Queryable, organizationId: number, role: Role): Promise<number | undefined> {
    const [row] = await db.query<{ id: number }>(`SELECT id FROM groups WHERE organization_id = $1 AND role = $2 ORDER BY id LIMIT 1`, [organizationId, role])
    return row?.id
  },

  async findByExternalSubject(db: Queryable, externalSubject: string): Promise<UserCredentials | undefined> {
    const [row] = await db.query<CredentialsRow>(`${SELECT_CREDENTIALS} WHERE u.external_subject = $1`, [externalSubject])
    return row ? toCredentials(row) : undefined
  },

  async organizationIdByName(db: Queryable, name: string): Promise<number | undefined> {
    const [row] = await db.query<{ id: number }>(`SELECT id FROM organizations WHERE lower(name) = lower($1)`, [name])
    return row?.id
  },

  /** Usernames already taken among `base` and `base-N`, lower-cased, to pick a free one. */
  async takenUsernames(db: Queryable, base: string): Promise<Set<string>> {
    const rows = await db.query<{ name: string }>(
      `SELECT lower(username) AS name FROM users WHERE lower(username) = lower($1) OR lower(username) LIKE lower($2) || '-%'`,
      [base, base.replaceAll('\\', '\\\\').replaceAll('%', '\\%').replaceAll('_', '\\_')],
    )
    return new Set(rows.map((row) => row.name))
  },

  async isEmailTaken(db: Queryable, email: string): Promise<boolean> {
    const [row] = await db.query<{ id: number }>(`SELECT id FROM users WHERE lower(email) = lower($1)`, [email])
    return Boolean(row)
  },

  /**
   * Adds an account for a provider's user (no password: it signs in only through the provider).
   * Returns undefined when a unique value was taken meanwhile (a concurrent first sign-in), so the caller looks again.
   */
  async insertExternalUser(
    db: Queryable,
    user: { username: string; email: string; firstName: string; lastName: string; organizationId: number; groupId: number; externalSubject: string },
  ): Promise<number | undefined> {
    const [row] = await db.query<{ id: number }>(
      `INSERT INTO users (username, email, first_name, last_name, organization_id, group_id, external_subject)
       VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING RETURNING id`,
      [user.username, user.email, user.firstName, user.lastName, user.organizationId, user.groupId, user.externalSubject],
    )
    return row?.id
  },

  async moveToGroup(db: Queryable, id: number, organizationId: number, groupId: number): Promise<void> {
    await db.query(`UPDATE users SET organization_id = $2, group_id = $3, updated_at = now() WHERE id = $1`, [id, organizationId, groupId])
  },

  async defaultOrganizationId(db: Queryable): Promise<number> {
    const [row] = await db.query<{ id: number }>(`SELECT id FROM organizations ORDER BY id LIMIT 1`)
    return row.id
  },

  /** Creates the bootstrap administrator, or resets its password to the configured one. */
  async upsertAdministrator(db: Queryable, admin: { username: string; email: string; passwordHash: string; organizationId: number; groupId: number }) {
    const [existing] = await db.query<{ id: number }>(`SELECT id FROM users WHERE lower(username) = lower($1)`, [admin.username])
    if (existing) {
      await db.query(`UPDATE users SET password_hash = $2, enabled = true, group_id = $3, organization_id = $4, updated_at = now() WHERE id = $1`, [
        existing.id,
        admin.passwordHash,
        admin.groupId,
        admin.organizationId,
      ])
      return existing.id
    }
    const [row] = await db.query<{ id: number }>(
      `INSERT INTO users (username, email, first_name, last_name, password_hash, organization_id, group_id)
       VALUES ($1, $2, 'Administrator', '', $3, $4, $5) RETURNING id`,
      [admin.username, admin.email, admin.passwordHash, admin.organizationId, admin.groupId],
    )
    return row.id
  },
}
