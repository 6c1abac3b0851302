import { createHash, randomBytes } from 'node:crypto'
import { API_KEY_PREFIX, type ApiKey, type ApiKeyCreate } from '../../../../contracts/api-keys'
import type { Database, Queryable } from '../../db/database'
import { credentialsChanged } from '../identity/credentials-generation'
import { InvalidInputError, NotFoundError } from '../../errors'
import type { CurrentUser, Role } from '../identity/identity.types'

/** How many characters of a key are kept in clear to tell keys apart in lists: the prefix and 8 more. */
const SHOWN_LENGTH = API_KEY_PREFIX.length + 8

/** "Last used" is written at most this often per key, so busy integrations do not write on every call. */
const LAST_USED_RESOLUTION_MS = 60_000

interface KeyRow {
  id: number
  name: string
  role: Role
  organization_id: number
  organization_name: string
  prefix: string
  created_at: Date
  last_used_at: Date | null
}

const KEY_COLUMNS = `k.id, k.name, k.role, k.organization_id, o.name AS organization_name, k.prefix, k.created_at, k.last_used_at`

const toApiKey = (row: KeyRow): ApiKey => ({
  id: row.id,
  name: row.name,
  role: row.role,
  organization_id: row.organization_id,
  organization_name: row.organization_name,
  prefix: row.prefix,
  created_at: new Date(row.created_at).toISOString(),
  last_used_at: row.last_used_at ? new Date(row.last_used_at).toISOString() : null,
})

export const hashKey = (key: string): string => createHash('sha256').update(key).digest('hex')

/**
 * Keys for integrations: each carries a role and an organisation and acts through a service account of its own,
 * created with the key, that has no password and so never signs in; what the key does (questions asked, favourites)
 * is recorded against that account. Only the key's SHA-256 is stored; the key is shown once.
 */
export class ApiKeysService {
  /** When each key's "last used" was last written by this process. */
  private readonly lastWritten = new Map<number, number>()

  constructor(
    private readonly db: Database,
    private readonly now: () => number = Date.now,
  ) {}

  async list(): Promise<ApiKey[]> {
    const rows = await this.db.query<KeyRow>(
      `SELECT ${KEY_COLUMNS} FROM api_keys k JOIN organizations o ON o.id = k.organization_id WHERE k.revoked_at IS NULL ORDER BY k.id`,
    )
    return rows.map(toApiKey)
  }

  /** A new key and its service account in the organisation's group for the role; the key is in the answer only. */
  async create(creator: CurrentUser, input: ApiKeyCreate): Promise<ApiKey & { key: string }> {
    const key = `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`
    const created = await this.db.transaction(async (tx) => {
      const [group] = await tx.query<{ id: number }>(
        `SELECT id FROM groups WHERE organization_id = $1 AND role = $2 ORDER BY builtin DESC, id LIMIT 1`,
        [input.organization_id, input.role],
      )
      if (!group) {
        const [organization] = await tx.query(`SELECT 1 FROM organizations WHERE id = $1`, [input.organization_id])
        if (!organization) throw new InvalidInputError('organization_id', `No organisation with id ${input.organization_id}`)
        throw new InvalidInputError('role', `Organisation ${input.organization_id} has no group with the ${input.role} role`)
      }
      const username = `api-key-${randomBytes(6).toString('hex')}`
      const [user] = await tx.query<{ id: number }>(
        `INSERT INTO users (username, email, first_name, last_name, password_hash, organization_id, group_id, is_service)
         VALUES ($1, $2, 'API key', $3, NULL, $4, $5, true) RETURNING id`,
        [username, `${username}@service.invalid`, input.name, input.organization_id, group.id],
      )
      const [row] = await tx.query<{ id: number }>(
        `INSERT INTO api_keys (name, role, organization_id, user_id, key_hash, prefix, created_by) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
        [input.name, input.role, input.organization_id, user.id, hashKey(key), key.slice(0, SHOWN_LENGTH), creator.id],
      )
      return this.find(tx, row.id)
    })
    return { ...toApiKey(created!), key }
  }

  /** Revokes a key at once: it is refused from the next call on; its service account is disabled. */
  async revoke(id: number): Promise<ApiKey> {
    return this.db.transaction(async (tx) => {
      const key = await this.find(tx, id)
      const [revoked] = await tx.query<{ user_id: number }>(`UPDATE api_keys SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL RETURNING user_id`, [id])
      if (!key || !revoked) throw new NotFoundError(`No API key with id ${id}`)
      await tx.query(`UPDATE users SET enabled = false, updated_at = now() WHERE id = $1 AND is_service`, [revoked.user_id])
      credentialsChanged(tx)
      return toApiKey(key)
    })
  }

  /**
   * Who a key acts as, or undefined when it is no integration key (unknown, revoked, or its account disabled).
   * The role and organisation are the key's own.
   */
  async authenticate(given: string): Promise<CurrentUser | undefined> {
    if (!given.startsWith(API_KEY_PREFIX)) return undefined
    const [row] = await this.db.query<{ id: number; role: Role; organization_id: number; user_id: number; username: string; group_id: number }>(
      `SELECT k.id, k.role, k.organization_id, k.user_id, u.username, u.group_id
         FROM api_keys k JOIN users u ON u.id = k.user_id
        WHERE k.key_hash = $1 AND k.revoked_at IS NULL AND u.enabled`,
      [hashKey(given)],
    )
    if (!row) return undefined
    await this.touch(row.id)
    return { id: row.user_id, username: row.username, role: row.role, organizationId: row.organization_id, groupId: row.group_id }
  }

  /** Writes "last used" when this process has not done so for this key within the last minute. */
  private async touch(id: number): Promise<void> {
    const now = this.now()
    const last = this.lastWritten.get(id)
    if (last !== undefined && now - last < LAST_USED_RESOLUTION_MS) return
    this.lastWritten.set(id, now)
    // Other processes may have written it meanwhile: the condition keeps it to one write a minute across them too.
    await this.db.query(`UPDATE api_keys SET last_used_at = now() WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')`, [id])
  }

  private async find(db: Queryable, id: number): Promise<KeyRow | undefined> {
    const [row] = await db.query<KeyRow>(`SELECT ${KEY_COLUMNS} FROM api_keys k JOIN organizations o ON o.id = k.organization_id WHERE k.id = $1 AND k.revoked_at IS NULL`, [id])
    return row
  }
}
