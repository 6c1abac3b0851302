import { z } from 'zod'

export const Role = z.enum(['admin', 'editor', 'user'])

export const SignInBody = z.object({
  username: z.string().trim().min(1, 'username is required').max(200),
  password: z.string().min(1, 'password is required').max(1000),
})

export const CurrentUserAnswer = z.object({
  id: z.number().int(),
  username: z.string(),
  role: Role,
  organization_id: z.number().int(),
  group_id: z.number().int(),
})
export type CurrentUserAnswer = z.infer<typeof CurrentUserAnswer>

export const SignInAnswer = z.object({
  success: z.literal(true),
  access_token: z.string(),
  token_type: z.literal('Bearer'),
  expires_in: z.number().int(),
  user: CurrentUserAnswer,
})
export type SignInAnswer = z.infer<typeof SignInAnswer>

/** POST /auth/refresh: a new local token for a still-valid one, in the shape of a sign-in. */
export const RefreshAnswer = SignInAnswer
export type RefreshAnswer = SignInAnswer

/** POST /auth/logout: the session of the token sent has ended (for the sign-in provider's tokens: every one issued so far). */
export const SignOutAnswer = z.object({ success: z.literal(true), message: z.string() })
export type SignOutAnswer = z.infer<typeof SignOutAnswer>
