import { describe, expect, it } from 'vitest'
import { GroupCreate, OrganizationInput } from '../../../contracts/organizations'
import type { User } from '../../../contracts/users'
import { NAME_LABELS, nameField } from './name-field'
import { changesOnly, savedUser, shownValues } from './user-changes'
import { chooseStartingOrganization } from './user-form.server'
import { formatErrorInFormWords, inFormWords, inSentences } from '~/utils/form-words'
import { CHOOSE_A_ROLE, RoleChoice } from '~/utils/role-labels'

const user: User = {
  id: 7,
  username: 'ada',
  email: 'ada@example.org',
  firstName: 'Ada',
  lastName: 'Lovelace',
  cellphone: '',
  enabled: true,
  group_id: 3,
  group_name: 'Users',
  role: 'user',
  organization_id: 1,
  organization_name: 'Default organisation',
  organizations: [1],
  created_at: '2025-01-01T00:00:00Z',
  updated_at: '2025-01-01T00:00:00Z',
}
const posted = { username: 'ada', email: 'ada@example.org', firstName: 'Ada', lastName: 'Lovelace', cellphone: '', organization_id: 1, group_id: 3, enabled: 'true' as const }

describe('a save of Edit user', () => {
  it('keeps what is saved now for every field posted as the form showed it', () => {
    const shown = savedUser(user)
    // Disabled, and moved to the editors, since the form was shown.
    const now: User = { ...user, enabled: false, group_id: 4, firstName: 'Augusta' }
    expect(changesOnly(posted, shown, now)).toEqual({ ...posted, enabled: 'false', group_id: 4, firstName: 'Augusta' })
  })

  it('saves what was changed in the form', () => {
    const shown = savedUser(user)
    const now: User = { ...user, enabled: false }
    expect(changesOnly({ ...posted, lastName: 'King', enabled: 'false' }, shown, { ...user })).toMatchObject({ lastName: 'King', enabled: 'false' })
    // Shown disabled and switched on: enabled, whatever is saved now.
    expect(changesOnly({ ...posted, enabled: 'true' }, savedUser(now), now)).toMatchObject({ enabled: 'true' })
    // The organisation and its group go together.
    expect(changesOnly({ ...posted, organization_id: 2, group_id: 9 }, shown, { ...user, group_id: 4 })).toMatchObject({ organization_id: 2, group_id: 9 })
    expect(changesOnly({ ...posted, group_id: 5 }, shown, { ...user, organization_id: 2, group_id: 8 })).toMatchObject({ organization_id: 1, group_id: 5 })
  })

  it('saves what was posted when the post does not say what it showed', () => {
    expect(changesOnly(posted, null, { ...user, enabled: false })).toEqual(posted)
    expect(shownValues(null)).toBeNull()
    expect(shownValues('{"username":')).toBeNull()
    expect(shownValues('{"username":"a"}')).toBeNull()
    expect(shownValues(JSON.stringify(savedUser(user)))).toEqual(savedUser(user))
  })
})

describe('the organisation a new user, key or invitation starts in', () => {
  const organizations = [
    { id: 5, name: 'Acme Rail' },
    { id: 1, name: 'Default organisation' },
    { id: 3, name: 'Harbour' },
  ]
  it("is the administrator's own, else the default organisation (the first made), not the first by name", () => {
    expect(chooseStartingOrganization(3, organizations)).toBe(3)
    expect(chooseStartingOrganization(null, organizations)).toBe(1)
    expect(chooseStartingOrganization(99, organizations)).toBe(1)
    expect(chooseStartingOrganization(null, [])).toBeNull()
  })
})

describe('the words beside a refused field', () => {
  it('says a role it does not know in the words of the choices', () => {
    expect(CHOOSE_A_ROLE).toBe('Choose a role: administrator, editor or user')
    const refused = RoleChoice.safeParse('root')
    expect(refused.success).toBe(false)
    expect(refused.error?.issues.map((issue) => issue.message)).toEqual([CHOOSE_A_ROLE])
    expect(RoleChoice.safeParse(undefined).error?.issues[0].message).toBe(CHOOSE_A_ROLE)
    expect(RoleChoice.parse('editor')).toBe('editor')
  })

  it('says several rules of one field each as a sentence, and one as it is', () => {
    expect(inSentences(['Password must be at least 8 characters', 'password must contain something besides letters, such as a digit'])).toBe(
      'Password must be at least 8 characters. Password must contain something besides letters, such as a digit.',
    )
    expect(inSentences(['Cellphone may contain digits, spaces, ( ) . - and a leading + only'])).toBe('Cellphone may contain digits, spaces, ( ) . - and a leading + only')
    expect(inSentences(['Done!', 'name is required'])).toBe('Done! Name is required.')
    expect(inSentences([])).toBe('')
  })

  it('asks for a name the same way whether it is empty or only spaces, and says the other rules by the label', () => {
    for (const rule of [OrganizationInput.shape.name, GroupCreate.shape.name]) {
      const schema = nameField(rule)
      for (const value of [undefined, '', '   ']) expect(schema.safeParse(value).error?.issues.map((issue) => issue.message)).toEqual(['Please enter a name'])
      expect(schema.parse('  Harbour  ')).toBe('Harbour')
    }
    const tooLong = nameField(OrganizationInput.shape.name).safeParse('x'.repeat(101))
    expect(formatErrorInFormWords(NAME_LABELS)(tooLong.error?.issues ?? [])).toEqual(['Organisation name is at most 100 characters'])
    expect(inFormWords('group name is at most 100 characters', NAME_LABELS)).toBe('Group name is at most 100 characters')
  })
})
