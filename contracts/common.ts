import { z } from 'zod'

/** The JSON body of every 4xx/5xx answer; `field` names the offending input when there is one. */
export const ErrorBody = z.object({
  success: z.literal(false),
  status: z.string().optional(),
  error: z.string(),
  message: z.string(),
  details: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
})
export type ErrorBody = z.infer<typeof ErrorBody>

export const SuccessBody = z.object({ success: z.literal(true), message: z.string() })

/** SEED.md: booleans may arrive as the strings 'true' or 'false'. */
export const BooleanLike = z.union([z.boolean(), z.enum(['true', 'false'])]).transform((value) => value === true || value === 'true')

export const IsoDateTime = z.string()

/** A database id: a positive 32-bit integer, so an out-of-range number is a 400, never a database error. */
export const Id = (field: string) =>
  z.coerce.number({ error: `${field} is a positive integer` }).int(`${field} is a positive integer`).positive(`${field} is a positive integer`).max(2_147_483_647, `${field} is too large`)
