import { parseWithZod } from '@conform-to/zod/v4'
import { z } from 'zod'
import { INVITATION_DAYS_DEFAULT, INVITATION_DAYS_MAX, InvitationCreate, type Invitation, type RegistrationInfo } from '../../../contracts/users'
import { formatErrorInFormWords } from '~/utils/form-words'

/** The invitation form's labels, by the API's field names: its messages name fields as the form does. */
export const INVITATION_LABELS = { organization_id: 'Organisation', expires_in_days: 'Valid for (days)', note: 'Note' } as const

const DAYS_RANGE = `expires_in_days must be between 1 and ${INVITATION_DAYS_MAX}`

/** Exactly what POST /admin/invitations takes (contracts/users.ts: InvitationCreate), with the form's intent. */
export const InvitationForm = z.object({
  intent: z.literal('create'),
  organization_id: z.number({ error: 'Please choose an organisation' }).int().positive().max(2_147_483_647, 'Please choose an organisation'),
  expires_in_days: z
    .number({ error: `Please enter for how many days the code works (1 to ${INVITATION_DAYS_MAX})` })
    .int('expires_in_days is a whole number')
    .min(1, DAYS_RANGE)
    .max(INVITATION_DAYS_MAX, DAYS_RANGE),
  note: InvitationCreate.shape.note,
})

export const parseInvitationForm = (formData: FormData) => parseWithZod(formData, { schema: InvitationForm, formatError: formatErrorInFormWords(INVITATION_LABELS) })

export const INVITATION_DAYS = String(INVITATION_DAYS_DEFAULT)

/** An invitation's state in the list: a revoked one is deleted by the backend, so it is never listed. */
export const INVITATION_STATE_LABELS: Record<Invitation['status'], string> = { pending: 'Waiting', used: 'Used', expired: 'Expired' }

/** The registration page, and the same address with the code filled in (`?invitation=`), on this web server. */
export function registrationLinks(requestUrl: string, code: string): { page: string; withCode: string } {
  const page = new URL('/register', requestUrl)
  const withCode = new URL(page)
  withCode.searchParams.set('invitation', code)
  return { page: page.toString(), withCode: withCode.toString() }
}

const POLICY_ONLY_INVITE = 'Invitation codes are only used when the registration policy is “invite”: codes made now work once it is (the operator sets it with REGISTRATION_POLICY).'

/** What the invitations screen says of the registration policy: plainly, when codes are not what registration takes. */
export function registrationPolicyNotice(registration: RegistrationInfo): { isByInvitation: boolean; text: string } {
  switch (registration.policy) {
    case 'invite':
      return {
        isByInvitation: true,
        text: 'Registration is by invitation (registration policy “invite”): a person registers only with a code made here.',
      }
    case 'open': {
      const where = registration.organization ? `, into ${registration.organization.name},` : ''
      return { isByInvitation: false, text: `Registration is open (registration policy “open”): anyone can register${where} without a code. ${POLICY_ONLY_INVITE}` }
    }
    case 'off':
      return { isByInvitation: false, text: `Registration is off (registration policy “off”): nobody can register, with or without a code. ${POLICY_ONLY_INVITE}` }
  }
}

/**
 * The backend's refusal of an organisation, which names it by id ("Organisation 5 takes no registrations: …", "No
 * organisation with id 5"), said with its name and what to do.
 */
export function organizationRefusal(message: string, name: string): string {
  const named = name.charAt(0).toUpperCase() + name.slice(1)
  if (/no group for users/i.test(message)) return `${named} takes no registrations: it has no group for users. Choose another organisation.`
  if (/^No organisation with id/i.test(message)) return `${named} no longer exists: choose another organisation.`
  return message
}
