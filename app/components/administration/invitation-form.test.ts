import { describe, expect, it } from 'vitest'
import { organizationRefusal, parseInvitationForm, registrationLinks, registrationPolicyNotice } from './invitation-form'

const form = (fields: Record<string, string>) => {
  const data = new FormData()
  for (const [name, value] of Object.entries(fields)) data.append(name, value)
  return data
}

describe('the invitation form', () => {
  it('takes what POST /admin/invitations takes: an organisation, days and a note that may be blank', () => {
    const parsed = parseInvitationForm(form({ intent: 'create', organization_id: '3', expires_in_days: '14', note: '  For the new clerk  ' }))
    expect(parsed.status).toBe('success')
    expect(parsed.status === 'success' && parsed.value).toEqual({ intent: 'create', organization_id: 3, expires_in_days: 14, note: 'For the new clerk' })
    const blankNote = parseInvitationForm(form({ intent: 'create', organization_id: '3', expires_in_days: '7', note: '' }))
    expect(blankNote.status === 'success' && blankNote.value.note).toBe('')
  })

  it('refuses days out of range, or not whole, and a long note, in the form’s words beside each field', () => {
    const errorsOf = (fields: Record<string, string>) => {
      const parsed = parseInvitationForm(form({ intent: 'create', organization_id: '3', expires_in_days: '7', ...fields }))
      return parsed.status === 'error' ? parsed.error : null
    }
    expect(errorsOf({ expires_in_days: '91' })).toEqual({ expires_in_days: ['Valid for (days) must be between 1 and 90'] })
    expect(errorsOf({ expires_in_days: '0' })).toEqual({ expires_in_days: ['Valid for (days) must be between 1 and 90'] })
    expect(errorsOf({ expires_in_days: '2.5' })).toEqual({ expires_in_days: ['Valid for (days) is a whole number'] })
    expect(errorsOf({ expires_in_days: '' })).toEqual({ expires_in_days: ['Please enter for how many days the code works (1 to 90)'] })
    expect(errorsOf({ note: 'x'.repeat(201) })).toEqual({ note: ['Note is at most 200 characters'] })
    expect(errorsOf({ organization_id: '' })).toEqual({ organization_id: ['Please choose an organisation'] })
    expect(errorsOf({ organization_id: '99999999999' })).toEqual({ organization_id: ['Please choose an organisation'] })
  })
})

describe('registrationLinks', () => {
  it('gives the registration page of this web server, and the same address with the code filled in', () => {
    expect(registrationLinks('https://kb.example.org/users/invitations?x=1', 'Ab-9_cd')).toEqual({
      page: 'https://kb.example.org/register',
      withCode: 'https://kb.example.org/register?invitation=Ab-9_cd',
    })
    expect(registrationLinks('http://127.0.0.1:3000/users/invitations', 'a+b/c').withCode).toBe('http://127.0.0.1:3000/register?invitation=a%2Bb%2Fc')
  })
})

describe('registrationPolicyNotice', () => {
  it('says plainly when registration is not by invitation, naming the policy', () => {
    const open = registrationPolicyNotice({ policy: 'open', organization: { id: 1, name: 'Default organisation' } })
    expect(open.isByInvitation).toBe(false)
    expect(open.text).toContain('Registration is open (registration policy “open”): anyone can register, into Default organisation, without a code.')
    expect(open.text).toContain('Invitation codes are only used when the registration policy is “invite”')
    const off = registrationPolicyNotice({ policy: 'off', organization: null })
    expect(off.isByInvitation).toBe(false)
    expect(off.text).toContain('Registration is off (registration policy “off”)')
    expect(off.text).toContain('only used when the registration policy is “invite”')
    const invite = registrationPolicyNotice({ policy: 'invite', organization: null })
    expect(invite).toEqual({ isByInvitation: true, text: expect.stringContaining('Registration is by invitation (registration policy “invite”)') })
    expect(invite.text).not.toContain('only used when')
  })
})

describe('organizationRefusal', () => {
  it('names the organisation the backend named by id, and says what to do', () => {
    expect(organizationRefusal('Organisation 5 takes no registrations: it has no group for users', 'Field office')).toBe(
      'Field office takes no registrations: it has no group for users. Choose another organisation.',
    )
    expect(organizationRefusal('No organisation with id 5', 'this organisation')).toBe('This organisation no longer exists: choose another organisation.')
    expect(organizationRefusal('Something else', 'Field office')).toBe('Something else')
  })
})
