import type { Queryable } from '../../db/database'
import { credentialsChanged } from './credentials-generation'
import type { CurrentUser, Role } from './identity.types'

export interface UserCredentials extends CurrentUser {
  passwordHash: string | null
  enabled: boolean
  isBuiltinAdmin: boolean
  /** The sign-in provider's tokens issued before this are refused (sign-out, disabling). */
  tokensValidAfter: Date | null
}

interface CredentialsRow {
  id: number
  username: string
  role: Role
  organization_id: number
  group_id: number
  password_hash: string | null
  enabled: boolean
  is_builtin_admin: boolean
  tokens_valid_after: Date | null
}

const CREDENTIAL_COLUMNS = `u.id, u.username, g.role, u.organization_id, u.group_id, u.password_hash, u.enabled, u.is_builtin_admin, u.tokens_valid_after`
const SELECT_CREDENTIALS = `SELECT ${CREDENTIAL_COLUMNS} FROM users u JOIN groups g ON g.id = u.group_id`

const toCredentials = (row: CredentialsRow): UserCredentials => ({
  id: row.id,
  username: row.username,
  role: row.role,
  organizationId: row.organization_id,
  groupId: row.group_id,
  passwordHash: row.password_hash,
  enabled: row.enabled,
  isBuiltinAdmin: row.is_builtin_admin,
  tokensValidAfter: row.tokens_valid_after,
})

/** SQL for signing in, sessions and resolving callers. */
export const identityRepository = {
  async findById(db: Queryable, id: number): Promise<UserCredentials | undefined> {
    const [row] = await db.query<CredentialsRow>(`${SELECT_CREDENTIALS} WHERE u.id = $1`, [id])
    return row ? toCredentials(row) : undefined
  },

  async findByUsername(db: Queryable, username: string): Promise<UserCredentials | undefined> {
    const [row] = await db.query<CredentialsRow>(`${SELECT_CREDENTIALS} WHERE lower(u.username) = lower($1) AND NOT u.is_service`, [username])
    return row ? toCredentials(row) : undefined
  },

  /** The account of a live session: the user, only while the session exists and has not reached its end. */
  async findBySession(db: Queryable, userId: number, sessionId: string): Promise<(UserCredentials & { sessionExpiresAt: Date }) | undefined> {
    const [row] = await db.query<CredentialsRow & { session_expires_at: Date }>(
      `SELECT ${CREDENTIAL_COLUMNS}, s.expires_at AS session_expires_at
         FROM sessions s JOIN users u ON u.id = s.user_id JOIN groups g ON g.id = u.group_id
        WHERE s.id = $1 AND s.user_id = $2 AND s.expires_at > now()`,
      [sessionId, userId],
    )
    return row ? { ...toCredentials(row), sessionExpiresAt: new Date(row.session_expires_at) } : undefined
  },

  /** Starts a session that ends `maxSeconds` from now at the latest; forgets sessions that have ended meanwhile. */
  async createSession(db: Queryable, session: { id: string; userId: number; maxSeconds: number }): Promise<{ startedAt: Date; expiresAt: Date }> {
    await db.query(`DELETE FROM sessions WHERE expires_at <= now()`)
    const [row] = await db.query<{ started_at: Date; expires_at: Date }>(
      `INSERT INTO sessions (id, user_id, expires_at) VALUES ($1, $2, now() + ($3::int * interval '1 second')) RETURNING started_at, expires_at`,
      [session.id, session.userId, session.maxSeconds],
    )
    return { startedAt: new Date(row.started_at), expiresAt: new Date(row.expires_at) }
  },

  async deleteSession(db: Queryable, userId: number, sessionId: string): Promise<void> {
    await db.query(`DELETE FROM sessions WHERE id = $1 AND user_id = $2`, [sessionId, userId])
    credentialsChanged(db)
  },

  /**
   * Ends every session of the user but `keepSessionId` (the caller's own, when they changed their own password),
   * and refuses the sign-in provider's tokens issued until now.
   */
  async endSessions(db: Queryable, userId: number, keepSessionId?: string): Promise<void> {
    await db.query(`DELETE FROM sessions WHERE user_id = $1 AND id IS DISTINCT FROM $2::text`, [userId, keepSessionId ?? null])
    await db.query(`UPDATE users SET tokens_valid_after = now() WHERE id = $1`, [userId])
    credentialsChanged(db)
  },

  /**
   * Sign-out with one of the sign-in provider's ID tokens: ends the user's sessions and refuses the provider's tokens
   * issued before the current second, and the signing-out token whatever its second. A token's `iat` has whole
   * seconds, so one of the current second may come from before the sign-out or after it (a sign-in in another
   * browser, or in this one again): those are refused only when the signing-out token is one of them. Never moves
   * the limit back.
   */
  async endProviderSignIn(db: Queryable, userId: number, signingOutIssuedAt: number): Promise<void> {
    await db.query(`DELETE FROM sessions WHERE user_id = $1`, [userId])
    await db.query(
      `UPDATE users SET tokens_valid_after = GREATEST(tokens_valid_after, date_trunc('second', now()) - interval '1 second', to_timestamp($2::bigint))
        WHERE id = $1`,
      [userId, signingOutIssuedAt],
    )
    credentialsChanged(db)
  },

  async setPasswordHash(db: Queryable, id: number, passwordHash: string): Promise<void> {
    await db.query(`UPDATE users SET password_hash = $2, updated_at = now() WHERE id = $1`, [id, passwordHash])
    credentialsChanged(db)
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
    credentialsChanged(db)
  },

  async defaultOrganizationId(db: Queryable): Promise<number> {
    const [row] = await db.query<{ id: number }>(`SELECT id FROM organizations ORDER BY id LIMIT 1`)
    return row.id
  },

  /** The built-in administrator: the one row marked so, whatever it is called now. */
  async findBuiltinAdministrator(db: Queryable): Promise<UserCredentials | undefined> {
    const [row] = await db.query<CredentialsRow>(`${SELECT_CREDENTIALS} WHERE u.is_builtin_admin`)
    return row ? toCredentials(row) : undefined
  },

  /**
   * Creates the built-in administrator. Inserts nothing (and answers undefined) when its username or email is
   * taken, or another process created it meanwhile: never takes over an existing row.
   */
  async insertBuiltinAdministrator(
    db: Queryable,
    admin: { username: string; email: string; passwordHash: string; organizationId: number; groupId: number },
  ): Promise<number | undefined> {
    const [row] = await db.query<{ id: number }>(
      `INSERT INTO users (username, email, first_name, last_name, password_hash, organization_id, group_id, is_builtin_admin)
       VALUES ($1, $2, 'Administrator', '', $3, $4, $5, true) ON CONFLICT DO NOTHING RETURNING id`,
      [admin.username, admin.email, admin.passwordHash, admin.organizationId, admin.groupId],
    )
    return row?.id
  },
}
