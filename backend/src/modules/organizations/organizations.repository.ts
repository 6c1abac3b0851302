import type { Queryable } from '../../db/database'
import { credentialsChanged } from '../identity/credentials-generation'
import type { Role } from '../identity/identity.types'

export interface OrganizationRow {
  id: number
  name: string
}

export interface GroupRow {
  id: number
  name: string
  role: Role
  organization_id: number
  builtin: boolean
}

/** What still belongs to an organisation and would have to move before it can be deleted. */
export interface OrganizationContents {
  users: number
  queryLogs: number
  groups: number
  apiKeys: number
}

/** The role groups every organisation starts with, as the first migration made them for the first organisation. */
export const ROLE_GROUPS: ReadonlyArray<{ name: string; role: Role }> = [
  { name: 'Administrators', role: 'admin' },
  { name: 'Editors', role: 'editor' },
  { name: 'Users', role: 'user' },
]

const GROUP_COLUMNS = 'id, name, role, organization_id, builtin'

export const organizationsRepository = {
  async find(db: Queryable, id: number, lock = false): Promise<OrganizationRow | undefined> {
    const [row] = await db.query<OrganizationRow>(`SELECT id, name FROM organizations WHERE id = $1${lock ? ' FOR UPDATE' : ''}`, [id])
    return row
  },

  async findByName(db: Queryable, name: string): Promise<OrganizationRow | undefined> {
    const [row] = await db.query<OrganizationRow>(`SELECT id, name FROM organizations WHERE lower(name) = lower($1)`, [name])
    return row
  },

  async insert(db: Queryable, name: string): Promise<OrganizationRow> {
    const [row] = await db.query<OrganizationRow>(`INSERT INTO organizations (name) VALUES ($1) RETURNING id, name`, [name])
    return row
  },

  async rename(db: Queryable, id: number, name: string): Promise<OrganizationRow | undefined> {
    const [row] = await db.query<OrganizationRow>(`UPDATE organizations SET name = $2 WHERE id = $1 RETURNING id, name`, [id, name])
    return row
  },

  async contents(db: Queryable, id: number): Promise<OrganizationContents> {
    const [row] = await db.query<{ users: number; query_logs: number; groups: number; api_keys: number }>(
      `SELECT
         (SELECT count(*)::int FROM users WHERE organization_id = $1 AND NOT is_service) AS users,
         (SELECT count(*)::int FROM query_logs WHERE organization_id = $1) AS query_logs,
         (SELECT count(*)::int FROM groups WHERE organization_id = $1 AND NOT builtin) AS groups,
         (SELECT count(*)::int FROM api_keys WHERE organization_id = $1 AND revoked_at IS NULL) AS api_keys`,
      [id],
    )
    return { users: row.users, queryLogs: row.query_logs, groups: row.groups, apiKeys: row.api_keys }
  },

  /** Deletes an emptied organisation: its revoked keys and their service accounts, its role groups, then itself. */
  async delete(db: Queryable, id: number): Promise<void> {
    const revoked = await db.query<{ user_id: number }>(`DELETE FROM api_keys WHERE organization_id = $1 RETURNING user_id`, [id])
    if (revoked.length > 0) await db.query(`DELETE FROM users WHERE is_service AND id = ANY($1::int[])`, [revoked.map((key) => key.user_id)])
    await db.query(`DELETE FROM groups WHERE organization_id = $1`, [id])
    await db.query(`DELETE FROM organizations WHERE id = $1`, [id])
    credentialsChanged(db)
  },

  async listGroups(db: Queryable, organizationId: number): Promise<GroupRow[]> {
    return db.query<GroupRow>(`SELECT ${GROUP_COLUMNS} FROM groups WHERE organization_id = $1 ORDER BY id`, [organizationId])
  },

  async findGroup(db: Queryable, organizationId: number, groupId: number, lock = false): Promise<GroupRow | undefined> {
    const [row] = await db.query<GroupRow>(
      `SELECT ${GROUP_COLUMNS} FROM groups WHERE organization_id = $1 AND id = $2${lock ? ' FOR UPDATE' : ''}`,
      [organizationId, groupId],
    )
    return row
  },

  async findGroupByName(db: Queryable, organizationId: number, name: string): Promise<GroupRow | undefined> {
    const [row] = await db.query<GroupRow>(`SELECT ${GROUP_COLUMNS} FROM groups WHERE organization_id = $1 AND lower(name) = lower($2)`, [
      organizationId,
      name,
    ])
    return row
  },

  async insertGroup(db: Queryable, group: { organizationId: number; name: string; role: Role; builtin: boolean }): Promise<GroupRow> {
    const [row] = await db.query<GroupRow>(
      `INSERT INTO groups (organization_id, name, role, builtin) VALUES ($1, $2, $3, $4) RETURNING ${GROUP_COLUMNS}`,
      [group.organizationId, group.name, group.role, group.builtin],
    )
    return row
  },

  async updateGroup(db: Queryable, id: number, change: { name: string; role: Role }): Promise<GroupRow> {
    const [row] = await db.query<GroupRow>(`UPDATE groups SET name = $2, role = $3 WHERE id = $1 RETURNING ${GROUP_COLUMNS}`, [id, change.name, change.role])
    credentialsChanged(db)
    return row
  },

  async groupMembers(db: Queryable, groupId: number): Promise<number> {
    const [row] = await db.query<{ count: number }>(`SELECT count(*)::int AS count FROM users WHERE group_id = $1`, [groupId])
    return row.count
  },

  async deleteGroup(db: Queryable, id: number): Promise<void> {
    await db.query(`DELETE FROM groups WHERE id = $1`, [id])
    credentialsChanged(db)
  },
}

/** True when a write failed on one of the unique name indexes of organisations or groups. */
export function isDuplicateName(error: unknown): boolean {
  const failure = error as { code?: string; constraint?: string }
  return failure.code === '23505' && (failure.constraint === 'organizations_name_idx' || failure.constraint === 'groups_name_idx' || failure.constraint === 'groups_organization_id_name_key')
}
