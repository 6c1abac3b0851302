import { getFormProps, useForm } from '@conform-to/react'
import { getZodConstraint } from '@conform-to/zod/v4'
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { z } from 'zod'
import { INVITATION_DAYS_MAX, type Invitation, type Organization, type RegistrationInfo } from '../../../contracts/users'
import {
  INVITATION_DAYS,
  INVITATION_LABELS,
  INVITATION_STATE_LABELS,
  InvitationForm,
  organizationRefusal,
  parseInvitationForm,
  registrationLinks,
  registrationPolicyNotice,
} from '~/components/administration/invitation-form'
import * as invitationsTable from '~/components/administration/invitations-table.css'
import { OneTimeSecret, SecretField } from '~/components/administration/one-time-secret'
import { organizationName, startingOrganizationId } from '~/components/administration/user-form.server'
import { BreakableText } from '~/components/data-table/breakable-text'
import * as table from '~/components/data-table/data-table.css'
import { TableScroll } from '~/components/data-table/table-scroll'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { LocalTime } from '~/components/local-time'
import { FailureMessage, FormErrors } from '~/components/settings/failure-message'
import { toConformErrors, toFailure, type Failure } from '~/components/settings/form-errors'
import { NumberField } from '~/components/settings/number-field'
import * as styles from '~/components/settings/settings.css'
import { Button } from '~/components/ui/button'
import { Select } from '~/components/ui/select'
import { fieldProps, TextField } from '~/components/ui/text-field'
import { createInvitation, listInvitations, revokeInvitation } from '~/models/administration.server'
import { ApiError } from '~/models/api.server'
import { getRegistrationInfo, listOrganizations } from '~/models/users.server'
import { screenMeta } from '~/sponsors/meta'
import * as layout from '~/styles/layout.css'
import { requireApiSession } from '~/utils/auth.server'
import { badForm, readFormData, unknownIntent } from '~/utils/form.server'
import { fieldErrorsInFormWords } from '~/utils/form-words'
import { ONE_TIME_FIELD } from '~/utils/one-time-form'
import { createOnce, newOneTimeToken } from '~/utils/one-time-form.server'
import { redirectWithToast } from '~/utils/session.server'

export const meta: MetaFunction = ({ matches }) => screenMeta(matches, 'Invitation codes · Users')

const SCREEN = '/users/invitations'

// The columns between the note and the action, in order: also each value's title in a card on a phone.
const FACT_COLUMNS = ['Organisation', 'State', 'Expires', 'Created', 'Used by'] as const

const REPEATED = 'This invitation code was already created; it was shown once. Revoke it and create another if you did not copy it.'

const RevokeInvitationForm = z.object({ intent: z.literal('revoke'), id: z.coerce.number().int().positive().max(2_147_483_647) })

/** A list the page can do without: its failure is said in the page, and the rest of the page still works. */
async function orFailure<T, E>(pending: Promise<T>, empty: E, fallback: string): Promise<{ value: T | E; failure: Failure | null }> {
  try {
    return { value: await pending, failure: null }
  } catch (error) {
    if (!(error instanceof ApiError)) throw error
    return { value: empty, failure: toFailure(error, fallback) }
  }
}

export async function loader({ request }: LoaderFunctionArgs) {
  const session = await requireApiSession(request)
  const [invitations, organizations, registration] = await Promise.all([
    orFailure(listInvitations(session), [] as Invitation[], 'Cannot get invitations'),
    orFailure(listOrganizations(), [] as Organization[], 'Cannot get organizations'),
    orFailure(getRegistrationInfo(), null as RegistrationInfo | null, 'Cannot tell how registration works'),
  ])
  return json({
    startingOrganizationId: await startingOrganizationId(session, organizations.value),
    once: newOneTimeToken(),
    invitations: invitations.value,
    invitationsFailure: invitations.failure,
    organizations: organizations.value,
    organizationsFailure: organizations.failure,
    registration: registration.value,
    registrationFailure: registration.failure,
  })
}

export async function action({ request }: ActionFunctionArgs) {
  const session = await requireApiSession(request)
  const formData = await readFormData(request)
  const intent = formData.get('intent')
  if (intent === 'revoke') {
    const parsed = RevokeInvitationForm.safeParse(Object.fromEntries(formData))
    if (!parsed.success) throw badForm('This form names no invitation.')
    try {
      const revoked = await revokeInvitation(session, parsed.data.id)
      return redirectWithToast(request, SCREEN, { summary: 'All Ok', message: revoked.message })
    } catch (error) {
      if (!(error instanceof ApiError) || error.status >= 500) throw error
      return redirectWithToast(request, SCREEN, { severity: 'error', ...toFailure(error, 'Cannot revoke the invitation') })
    }
  }
  if (intent !== 'create') throw unknownIntent(intent)
  const submission = parseInvitationForm(formData)
  if (submission.status !== 'success') return json({ result: submission.reply(), created: null, repeated: false }, { status: 400 })
  const { intent: _intent, ...invitation } = submission.value
  try {
    const answer = await createOnce(request, formData, () => createInvitation(session, invitation))
    // This form was posted before (a reload of the answer that showed the code): nothing more is created.
    if (answer.repeated) return json({ result: submission.reply(), created: null, repeated: true }, { status: 409 })
    const created = answer.value
    // Answered, not redirected: the code exists only in this answer (the backend keeps a hash of it), never in a flash message.
    return json(
      {
        result: submission.reply({ resetForm: true }),
        created: { code: created.code, organization: created.organization_name, expiresAt: created.expires_at, links: registrationLinks(request.url, created.code) },
        repeated: false,
      },
      { headers: answer.headers },
    )
  } catch (error) {
    if (!(error instanceof ApiError) || error.status >= 500) throw error
    const fieldErrors = fieldErrorsInFormWords(toConformErrors(error.fieldErrors()), INVITATION_LABELS)
    if (fieldErrors.organization_id) {
      const name = await organizationName(invitation.organization_id)
      fieldErrors.organization_id = fieldErrors.organization_id.map((message) => organizationRefusal(message, name))
    }
    return json(
      { result: submission.reply({ fieldErrors, formErrors: Object.keys(fieldErrors).length ? [] : [error.message] }), created: null, repeated: false },
      { status: error.status },
    )
  }
}

export default function InvitationsRoute() {
  const { invitations, invitationsFailure, organizations, organizationsFailure, registration, registrationFailure, startingOrganizationId, once } =
    useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const navigation = useNavigation()
  const [form, fields] = useForm({
    id: 'create-invitation',
    lastResult: navigation.state === 'idle' ? actionData?.result : undefined,
    constraint: getZodConstraint(InvitationForm),
    defaultNoValidate: false,
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseInvitationForm(formData),
  })
  const created = actionData?.created
  const isBusy = navigation.state === 'submitting'
  const policy = registration ? registrationPolicyNotice(registration) : null
  return (
    <>
      <section className={layout.card} aria-labelledby="invitations-heading">
        <p>
          <Link to="/users">← Users</Link>
        </p>
        <h1 id="invitations-heading">Invitation codes</h1>
        <p className={layout.muted}>
          With a code made here a person registers their own account, on the registration page, into the code’s organisation with the User role.
          Each code works once. To make an account for someone yourself, use <Link to="/users/new">Add user</Link> or{' '}
          <Link to="/users/new?invite=1">Invite user</Link>.
        </p>
        <FailureMessage failure={registrationFailure} />
        {policy ? (
          <p role="note" className={layout.notice} data-severity={policy.isByInvitation ? undefined : 'warn'} id="registration-policy">
            {policy.text}
          </p>
        ) : null}
        {created ? (
          <OneTimeSecret
            id="new-invitation-code"
            heading="Invitation code created"
            label="Invitation code"
            value={created.code}
            note={
              <>
                Give it to the person you invite: it registers one account in {created.organization}, until <LocalTime iso={created.expiresAt} />.
                {policy && !policy.isByInvitation ? ' It works only once the registration policy is “invite”.' : ''}
              </>
            }
          >
            <p>
              They register at <a href={created.links.page}>{created.links.page}</a>, typing the code in “Invitation code”, or open this address,
              which fills it in for them:
            </p>
            <SecretField id="new-invitation-link" label="Registration address with the code" value={created.links.withCode} />
          </OneTimeSecret>
        ) : null}
        {actionData?.repeated && navigation.state === 'idle' ? (
          <p role="alert" className={styles.formError}>
            {REPEATED}
          </p>
        ) : null}
        <FailureMessage failure={invitationsFailure} />
        <TableScroll label="Invitations">
          {/* On a phone each invitation is a card of its facts, each after its column's title (data-label). */}
          <table aria-label="Invitations" className={table.stacksOnPhone}>
            <thead>
              <tr>
                <th scope="col" className={invitationsTable.note}>
                  Note
                </th>
                {FACT_COLUMNS.map((column) => (
                  <th key={column} scope="col">
                    {column}
                  </th>
                ))}
                <th scope="col">Revoke</th>
              </tr>
            </thead>
            <tbody>
              {invitations.map((invitation) => (
                <InvitationRow key={invitation.id} invitation={invitation} isBusy={isBusy} />
              ))}
              {invitations.length === 0 && !invitationsFailure ? (
                <tr>
                  <td colSpan={FACT_COLUMNS.length + 2}>No invitations yet.</td>
                </tr>
              ) : null}
            </tbody>
          </table>
        </TableScroll>
      </section>
      <section className={layout.card} aria-labelledby="create-invitation-heading">
        <h2 id="create-invitation-heading">Create an invitation code</h2>
        <FailureMessage failure={organizationsFailure} />
        <Form method="post" {...getFormProps(form)} aria-labelledby="create-invitation-heading">
          <FormErrors id={form.errorId} errors={form.errors} />
          <input type="hidden" name={ONE_TIME_FIELD} value={once} />
          {/* Made anew after each code, so that with scripts too the next one starts from the defaults, as without them
              (the select and the number field keep what was chosen through a form reset). */}
          <div className={styles.grid} key={created?.code ?? 'new'}>
            <Select
              label={INVITATION_LABELS.organization_id}
              {...fieldProps(fields.organization_id, startingOrganizationId === null ? '' : String(startingOrganizationId))}
              options={organizations.map((organization) => ({ value: String(organization.id), label: organization.name }))}
              description="The invitee registers into it, with the User role."
            />
            <NumberField
              label={INVITATION_LABELS.expires_in_days}
              {...fieldProps(fields.expires_in_days, INVITATION_DAYS)}
              min={1}
              max={INVITATION_DAYS_MAX}
              isRequired
              description={`From now; at most ${INVITATION_DAYS_MAX} days.`}
            />
            <TextField
              label={INVITATION_LABELS.note}
              {...fieldProps(fields.note)}
              maxLength={200}
              description="Who it is for, to know it in this list. The invitee does not see it."
            />
          </div>
          <Button name="intent" value="create" isDisabled={isBusy}>
            Create invitation code
          </Button>
        </Form>
      </section>
    </>
  )
}

function InvitationRow({ invitation, isBusy }: { invitation: Invitation; isBusy: boolean }) {
  const name = invitation.note ? `the invitation “${invitation.note}”` : `invitation ${invitation.id}`
  // Each value is one element: on a phone it sits beside its column's title.
  return (
    <tr>
      <td className={invitationsTable.note}>{invitation.note || <span className={layout.muted}>No note</span>}</td>
      <td data-label={FACT_COLUMNS[0]} className={invitationsTable.longValue}>
        <span>{invitation.organization_name}</span>
      </td>
      <td data-label={FACT_COLUMNS[1]}>
        <span>{INVITATION_STATE_LABELS[invitation.status]}</span>
      </td>
      <td data-label={FACT_COLUMNS[2]}>
        <LocalTime iso={invitation.expires_at} />
      </td>
      <td data-label={FACT_COLUMNS[3]}>
        <span>
          <LocalTime iso={invitation.created_at} />
          {invitation.created_by_username ? <span className={layout.muted}> by {invitation.created_by_username}</span> : null}
        </span>
      </td>
      <td data-label={FACT_COLUMNS[4]} className={invitationsTable.longValue}>
        <span>
          {invitation.used_by !== null ? (
            <>
              <Link to={`/users/${invitation.used_by}`}>
                <BreakableText text={invitation.used_by_username ?? `User ${invitation.used_by}`} />
              </Link>
              {invitation.used_at ? (
                <span className={layout.muted}>
                  {' '}
                  on <LocalTime iso={invitation.used_at} />
                </span>
              ) : null}
            </>
          ) : invitation.used_at ? (
            // The account made with it was deleted; the date stays.
            <LocalTime iso={invitation.used_at} />
          ) : (
            '—'
          )}
        </span>
      </td>
      <td>
        {invitation.status === 'used' ? (
          <span className={layout.muted}>Kept as the record of that registration</span>
        ) : (
          <details>
            <summary aria-label={`Revoke ${name}…`}>Revoke…</summary>
            <Form method="post" aria-label={`Revoke ${name}`}>
              <input type="hidden" name="id" value={invitation.id} />
              <p>
                {invitation.status === 'expired'
                  ? 'It has expired already: revoking removes it from this list.'
                  : 'The code stops working at once: nobody can register with it. This cannot be undone.'}
              </p>
              <Button name="intent" value="revoke" variant="danger" isDisabled={isBusy}>
                Yes, revoke invitation
              </Button>
            </Form>
          </details>
        )}
      </td>
    </tr>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
