import { z } from 'zod'
import { Role } from './identity'

const MAX_ID = 2_147_483_647 // PostgreSQL integer
const Id = z.coerce.number().int().positive().max(MAX_ID, 'is not an id')

/** What every integration key starts with, so a leaked one is recognisable (e.g. by secret scanners). */
export const API_KEY_PREFIX = 'kbk_'

/** Body of POST /admin/api_keys. */
export const ApiKeyCreate = z.object({
  name: z
    .string()
    .trim()
    .min(1, 'name is required')
    .max(100, 'name is at most 100 characters')
    .regex(/^[^\u0000]*$/, 'name cannot contain NUL'),
  role: Role,
  organization_id: Id,
})
export type ApiKeyCreate = z.infer<typeof ApiKeyCreate>

/** A key as administrators see it: never the key itself, only its first characters. */
export const ApiKey = z.object({
  id: z.number().int(),
  name: z.string(),
  role: Role,
  organization_id: z.number().int(),
  organization_name: z.string(),
  prefix: z.string(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
})
export type ApiKey = z.infer<typeof ApiKey>

export const ApiKeyList = z.array(ApiKey)

/** The key, shown this once; only its SHA-256 is stored. */
export const ApiKeyCreated = ApiKey.extend({ success: z.literal(true), message: z.string(), key: z.string() })

export const ApiKeyParams = z.object({ id: Id })
export const ApiKeyRevoked = z.object({ success: z.literal(true), message: z.string(), id: z.number().int() })
