import { z } from 'zod'
import { ColumnFilter, filtersParamOf } from './article-filters'
import { BooleanLike } from './common'
import { Role } from './identity'

export const PAGE_SIZE_USERS = 30

export const PASSWORD_MIN_LENGTH = 8

// PostgreSQL text cannot hold NUL; refusing it here makes it a 400 instead of a failed write.
const NO_NUL = /^[^\u0000]*$/
const MAX_ID = 2_147_483_647 // PostgreSQL integer

/** A password long enough and mixing letters with something else; the same rule in the web form and the backend. */
export const Password = z
  .string()
  .min(PASSWORD_MIN_LENGTH, `password must be at least ${PASSWORD_MIN_LENGTH} characters`)
  // argon2 takes any length; the cap only keeps hashing cheap for the server.
  .max(200, 'password is at most 200 characters')
  .refine((value) => !/^\p{L}+$/u.test(value), 'password must contain something besides letters, such as a digit')
  .refine((value) => !/^\p{N}+$/u.test(value), 'password must contain something besides digits, such as a letter')
  .refine((value) => value.trim().length > 0, 'password must not be only spaces')

const Username = z
  .string()
  .trim()
  .min(3, 'username must be at least 3 characters')
  .max(60, 'username is at most 60 characters')
  .regex(/^[\p{L}\p{N}._@-]+$/u, 'username may contain letters, digits and . _ @ - only')
const Email = z.string().trim().max(254, 'email is at most 254 characters').pipe(z.email('email is not a valid address'))
const PersonName = (field: string) => z.string().trim().max(100, `${field} is at most 100 characters`).regex(NO_NUL, `${field} cannot contain NUL`)
const RequiredPersonName = (field: string) => PersonName(field).min(1, `${field} is required`)
const Cellphone = z
  .string()
  .trim()
  .max(40, 'cellphone is at most 40 characters')
  .regex(/^$|^\+?[\d\s().-]{3,}$/, 'cellphone may contain digits, spaces, ( ) . - and a leading + only')
const Id = z.coerce.number().int().positive().max(MAX_ID, 'is not an id')

export const Organization = z.object({ id: z.number().int(), name: z.string() })
export type Organization = z.infer<typeof Organization>

/** Answer of GET /organizations: the organisations a person can register into. */
export const OrganizationList = z.array(Organization)

/** Who may register: nobody (administrators create accounts), anyone into one organisation, or holders of an invitation. */
export const RegistrationPolicy = z.enum(['off', 'open', 'invite'])
export type RegistrationPolicy = z.infer<typeof RegistrationPolicy>

/** Answer of GET /auth/registration: what the registration page offers; `organization` is where open registration goes. */
export const RegistrationInfo = z.object({ policy: RegistrationPolicy, organization: Organization.nullable() })
export type RegistrationInfo = z.infer<typeof RegistrationInfo>

const InvitationCode = z.string().trim().min(1, 'invitation is required').max(200, 'invitation is at most 200 characters').regex(NO_NUL, 'invitation cannot contain NUL')

/**
 * Body of POST /users (registration). SEED.md: the client always sends enabled true and the chosen organisation
 * as a one-item list; enabled is accepted and ignored, a new account is always enabled. The organisation is
 * honoured only for an administrator: anyone else registers into the organisation the registration policy names
 * (open) or the invitation's (invite), whatever the body says. `invitation` is the code of an invitation.
 */
export const Registration = z.object({
  username: Username,
  email: Email,
  firstName: RequiredPersonName('firstName'),
  lastName: RequiredPersonName('lastName'),
  cellphone: Cellphone.default(''),
  password: Password,
  enabled: BooleanLike.optional(),
  organizations: z.array(Id).length(1, 'organizations lists exactly one organisation').optional(),
  invitation: InvitationCode.optional(),
})
export type Registration = z.infer<typeof Registration>

export const Registered = z.object({ success: z.literal(true), message: z.string(), id: z.number().int() })
export type Registered = z.infer<typeof Registered>

/** Body of POST /auth/password: a signed-in local account changes its own password. */
export const PasswordChange = z.object({
  current_password: z.string().min(1, 'current_password is required').max(1000, 'current_password is at most 1000 characters'),
  new_password: Password,
})
export type PasswordChange = z.infer<typeof PasswordChange>

export const PasswordChanged = z.object({ success: z.literal(true), message: z.string() })
export type PasswordChanged = z.infer<typeof PasswordChanged>

export const INVITATION_DAYS_DEFAULT = 7
export const INVITATION_DAYS_MAX = 90

/** Body of POST /admin/invitations; without an organisation, the one open registration would use. */
export const InvitationCreate = z.object({
  organization_id: Id.optional(),
  expires_in_days: z.coerce.number().int('expires_in_days is a whole number').min(1).max(INVITATION_DAYS_MAX).default(INVITATION_DAYS_DEFAULT),
  note: z.string().trim().max(200, 'note is at most 200 characters').regex(NO_NUL, 'note cannot contain NUL').default(''),
})
export type InvitationCreate = z.infer<typeof InvitationCreate>

/** An invitation as administrators see it; its code is shown once, when it is created, and never kept. */
export const Invitation = z.object({
  id: z.number().int(),
  organization_id: z.number().int(),
  organization_name: z.string(),
  note: z.string(),
  created_at: z.string(),
  expires_at: z.string(),
  used_at: z.string().nullable(),
  used_by: z.number().int().nullable(),
  /** Who registered with it, while that account exists. */
  used_by_username: z.string().nullable(),
  /** The administrator who made it, while that account exists. */
  created_by_username: z.string().nullable(),
  status: z.enum(['pending', 'used', 'expired']),
})
export type Invitation = z.infer<typeof Invitation>

/** Answer of POST /admin/invitations: the invitation with its one-time code. */
export const InvitationCreated = Invitation.extend({ success: z.literal(true), code: z.string() })
export type InvitationCreated = z.infer<typeof InvitationCreated>

export const InvitationList = z.array(Invitation)

export const InvitationIdParams = z.object({ id: Id })

export const InvitationRevoked = z.object({ success: z.literal(true), message: z.string(), id: z.number().int() })

/** A user as administrators see it; never the password or its hash. */
export const User = z.object({
  id: z.number().int(),
  username: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  cellphone: z.string(),
  enabled: z.boolean(),
  group_id: z.number().int(),
  group_name: z.string(),
  role: Role,
  organization_id: z.number().int(),
  organization_name: z.string(),
  /** SEED.md's other spelling of the organisation: a one-item list, as registration sends it. */
  organizations: z.array(z.number().int()),
  created_at: z.string(),
  updated_at: z.string(),
})
export type User = z.infer<typeof User>

/** Filterable columns of the users table and the kind of each (SEED.md §5: text 6 modes, numeric 6, date 4). */
export const USER_FILTER_COLUMNS = {
  username: 'text',
  email: 'text',
  firstName: 'text',
  lastName: 'text',
  organization_name: 'text',
  group_name: 'text',
  id: 'numeric',
  created_at: 'date',
} as const

export const UserFilters = z
  .object(Object.fromEntries(Object.keys(USER_FILTER_COLUMNS).map((column) => [column, ColumnFilter])) as Record<keyof typeof USER_FILTER_COLUMNS, typeof ColumnFilter>)
  .partial()
  .strict()
export type UserFilters = z.infer<typeof UserFilters>

/** The users table sorts by these columns; `id` by default (SEED.md §9). */
export const UserSortField = z.enum(['id', 'username', 'email', 'firstName', 'lastName', 'organization_name', 'group_name', 'enabled', 'created_at'])
export type UserSortField = z.infer<typeof UserSortField>

/** `filters` arrives as a JSON string in the query, in PrimeReact's lazy-table shape. */
const UserFiltersParam = filtersParamOf(UserFilters)

/**
 * Query of GET /admin/users: `filter` matches username, email, first and last name, ignoring case and accents;
 * `filters` are column filters; `sortField` and `sortOrder` (1 ascending, -1 descending) order the page.
 */
export const UsersQuery = z.object({
  filter: z.string().trim().max(200, 'filter is at most 200 characters').regex(NO_NUL, 'filter cannot contain NUL').default(''),
  filters: UserFiltersParam.optional(),
  sortField: UserSortField.default('id'),
  sortOrder: z.coerce.number().refine((value) => value === 1 || value === -1, 'sortOrder is 1 or -1').default(1),
  limit: z.coerce.number().int().min(1).max(500).default(PAGE_SIZE_USERS),
  offset: z.coerce.number().int().min(0).default(0),
})
export type UsersQuery = z.infer<typeof UsersQuery>

export const UsersPage = z.object({ success: z.literal(true), users: z.array(User), count: z.number().int() })
export type UsersPage = z.infer<typeof UsersPage>

export const UserIdParams = z.object({ id: Id })

/**
 * Body of PUT /admin/users/{id}; a blank or missing password keeps the current one. Names may be blank here:
 * accounts made by single sign-on or the bootstrap administrator can lack them, and editing must not force a guess.
 */
export const UserUpdate = z.object({
  id: Id,
  username: Username,
  email: Email,
  firstName: PersonName('firstName'),
  lastName: PersonName('lastName'),
  cellphone: Cellphone.default(''),
  // Forms send an empty field for "unchanged"; some clients send null.
  password: z.preprocess((value) => (value === '' || value === null ? undefined : value), Password.optional()),
  group_id: Id,
  organization_id: Id,
  enabled: BooleanLike,
})
export type UserUpdate = z.infer<typeof UserUpdate>

export const UserUpdated = z.object({ success: z.literal(true), message: z.string(), id: z.number().int() })
export type UserUpdated = z.infer<typeof UserUpdated>

export const OrganizationIdParams = z.object({ organization_id: Id })

export const Group = z.object({ id: z.number().int(), name: z.string(), role: Role, organization_id: z.number().int() })
export type Group = z.infer<typeof Group>

/** Answer of GET /admin/groups/{organization_id}: the organisation's groups, each with its role. */
export const GroupList = z.array(Group)

/**
 * Body of POST /admin/users: an administrator creates an account in an organisation with a role (its built-in group
 * for that role). With a password the account can sign in at once; without one the answer carries a one-time
 * invitation code with which the person sets their own password (works whatever the registration policy).
 */
export const AdminUserCreate = z.object({
  username: Username,
  email: Email,
  firstName: PersonName('firstName').default(''),
  lastName: PersonName('lastName').default(''),
  cellphone: Cellphone.default(''),
  role: Role,
  organization_id: Id,
  // Forms send an empty field for "no password: invite"; some clients send null.
  password: z.preprocess((value) => (value === '' || value === null ? undefined : value), Password.optional()),
})
export type AdminUserCreate = z.infer<typeof AdminUserCreate>

/** A one-time code for setting an account's password, shown once; only its hash is kept. */
export const PasswordLink = z.object({ code: z.string(), expires_at: z.string() })
export type PasswordLink = z.infer<typeof PasswordLink>

/** Answer of POST /admin/users: the new account, and its invitation when it was created without a password. */
export const AdminUserCreated = z.object({ success: z.literal(true), message: z.string(), id: z.number().int(), invitation: PasswordLink.nullable() })
export type AdminUserCreated = z.infer<typeof AdminUserCreated>

/** Body of POST /admin/users/{id}/password: the administrator sets a new password; every session of the account ends. */
export const AdminPasswordSet = z.object({ password: Password })
export type AdminPasswordSet = z.infer<typeof AdminPasswordSet>

/** Body of POST /admin/users/{id}/password_link: how long the reset code stays valid. */
export const PasswordLinkCreate = z.object({
  expires_in_days: z.coerce.number().int('expires_in_days is a whole number').min(1).max(INVITATION_DAYS_MAX).default(INVITATION_DAYS_DEFAULT),
})

/** Answer of POST /admin/users/{id}/password_link: the one-time code (earlier unused ones of the account stop working). */
export const PasswordLinkCreated = PasswordLink.extend({ success: z.literal(true), message: z.string(), id: z.number().int() })
export type PasswordLinkCreated = z.infer<typeof PasswordLinkCreated>

/** Body of POST /auth/password_link: whoever holds an account's invitation or reset code sets its password, once. */
export const PasswordLinkUse = z.object({
  code: InvitationCode,
  password: Password,
})
export type PasswordLinkUse = z.infer<typeof PasswordLinkUse>

/** Answer of POST /auth/password_link: the account's username, to sign in with. */
export const PasswordLinkUsed = z.object({ success: z.literal(true), message: z.string(), username: z.string() })
export type PasswordLinkUsed = z.infer<typeof PasswordLinkUsed>
