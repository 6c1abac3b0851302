import { getFormProps, useForm } from '@conform-to/react'
import { getZodConstraint } from '@conform-to/zod/v4'
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { z } from 'zod'
import { Password, type Organization } from '../../../contracts/users'
import { OneTimeSecret } from '~/components/administration/one-time-secret'
import { organizationName, startingOrganizationId } from '~/components/administration/user-form.server'
import { parseUserForm, PERSON_LABELS, PersonFields, requiredText } from '~/components/administration/user-form'
import { fieldErrorsInFormWords } from '~/utils/form-words'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { FailureMessage, FormErrors } from '~/components/settings/failure-message'
import { toConformErrors, toFailure, type Failure } from '~/components/settings/form-errors'
import * as styles from '~/components/settings/settings.css'
import { Button } from '~/components/ui/button'
import { Select } from '~/components/ui/select'
import { fieldProps, TextField } from '~/components/ui/text-field'
import { createUserAccount, passwordLinkUrl } from '~/models/administration.server'
import { ApiError } from '~/models/api.server'
import { listOrganizations } from '~/models/users.server'
import { screenMeta } from '~/sponsors/meta'
import * as layout from '~/styles/layout.css'
import { requireApiSession } from '~/utils/auth.server'
import { readFormData, unknownIntent } from '~/utils/form.server'
import { ONE_TIME_FIELD } from '~/utils/one-time-form'
import { createOnce, newOneTimeToken } from '~/utils/one-time-form.server'
import { ROLE_LABELS, ROLE_OPTIONS, RoleChoice } from '~/utils/role-labels'
import { redirectWithToast } from '~/utils/session.server'

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => screenMeta(matches, data?.isInvite ? 'Invite user' : 'Add user')

const Person = {
  ...PersonFields,
  role: RoleChoice,
  organization_id: z.number({ error: 'Please choose an organisation' }).int().positive(),
}

const LABELS = { ...PERSON_LABELS, password: 'Password' }

const REPEATED = 'This user was already invited; the link was shown once. If you did not copy it, open the user and create a reset link.'

/** "Add user" sets the password now; "Invite user" leaves it to the person, through a one-time link. */
const NewUserForm = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('add'), ...Person, password: requiredText('Please choose a password, or invite the user instead', Password) }),
  z.object({ intent: z.literal('invite'), ...Person }),
])

export async function loader({ request }: LoaderFunctionArgs) {
  const session = await requireApiSession(request)
  const isInvite = new URL(request.url).searchParams.has('invite')
  try {
    const organizations = await listOrganizations()
    return json({
      isInvite,
      once: newOneTimeToken(),
      organizations,
      startingOrganizationId: await startingOrganizationId(session, organizations),
      organizationsFailure: null as Failure | null,
    })
  } catch (error) {
    if (!(error instanceof ApiError)) throw error
    return json({
      isInvite,
      once: newOneTimeToken(),
      organizations: [] as Organization[],
      startingOrganizationId: null,
      organizationsFailure: toFailure(error, 'Cannot get organizations'),
    })
  }
}

export async function action({ request }: ActionFunctionArgs) {
  const session = await requireApiSession(request)
  const formData = await readFormData(request)
  const intent = formData.get('intent')
  if (intent !== 'add' && intent !== 'invite') throw unknownIntent(intent)
  const submission = parseUserForm(formData, NewUserForm, LABELS)
  if (submission.status !== 'success') return json({ result: submission.reply({ hideFields: ['password'] }), invited: null, repeated: false }, { status: 400 })
  const { intent: _chosen, ...person } = submission.value
  try {
    const create = () => createUserAccount(session, { ...person, password: submission.value.intent === 'add' ? submission.value.password : undefined })
    // An invitation is answered in place, so a reload posts its form again: its one-time token makes that create
    // nothing and say so (rather than "username taken"). "Add user" redirects, and is never posted again by a reload.
    const answer = submission.value.intent === 'invite' ? await createOnce(request, formData, create) : { repeated: false as const, value: await create(), headers: {} }
    if (answer.repeated) return json({ result: submission.reply(), invited: null, repeated: true }, { status: 409 })
    const created = answer.value
    if (!created.invitation) return redirectWithToast(request, `/users/${created.id}`, { summary: 'Success', message: 'User created' })
    // Answered, not redirected: the link exists only in this answer (the backend keeps a hash of its code).
    return json(
      {
        result: submission.reply({ resetForm: true }),
        invited: { id: created.id, username: person.username, link: passwordLinkUrl(request, created.invitation.code), expiresAt: created.invitation.expires_at },
        repeated: false,
      },
      { headers: answer.headers },
    )
  } catch (error) {
    if (!(error instanceof ApiError) || error.status >= 500) throw error
    const fieldErrors = fieldErrorsInFormWords(toConformErrors(error.fieldErrors()), LABELS)
    // The backend says it with the organisation's id ("Organisation 5 has no group for the editor role").
    if (fieldErrors.role) fieldErrors.role = [`${await organizationName(person.organization_id)} has no group for the ${ROLE_LABELS[person.role]} role: choose another role.`]
    return json(
      {
        result: submission.reply({ hideFields: ['password'], fieldErrors, formErrors: Object.keys(fieldErrors).length ? [] : [error.message] }),
        invited: null,
        repeated: false,
      },
      { status: error.status },
    )
  }
}

export default function NewUserRoute() {
  const { isInvite, once, organizations, organizationsFailure, startingOrganizationId } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const navigation = useNavigation()
  const [form, fields] = useForm({
    id: 'new-user',
    lastResult: navigation.state === 'idle' ? actionData?.result : undefined,
    constraint: getZodConstraint(NewUserForm),
    defaultNoValidate: false,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseUserForm(formData, NewUserForm, LABELS),
  })
  const invited = actionData?.invited
  const isBusy = navigation.state === 'submitting'
  const text = (value: unknown, fallback: string) => (typeof value === 'string' && value ? value : fallback)
  return (
    <section className={layout.card} aria-labelledby="new-user-heading">
      <p>
        <Link to="/users">← Users</Link>
      </p>
      <h1 id="new-user-heading">{isInvite ? 'Invite user' : 'Add user'}</h1>
      {invited ? (
        <>
          <OneTimeSecret
            id="invitation-link"
            heading={`${invited.username} is invited`}
            label="Invitation link"
            value={invited.link}
            note={`Send it to them yourself: with it they choose their password and can sign in. It works once, until ${new Date(invited.expiresAt).toUTCString()}.`}
          />
          <p>
            <Link to={`/users/${invited.id}`}>Open {invited.username}</Link>
          </p>
        </>
      ) : null}
      <p className={layout.muted}>
        {isInvite
          ? 'The account is created now; the person sets their own password with a one-time link you hand them.'
          : 'Set a password to hand over, or leave it to the person with “Invite user”.'}{' '}
        This works whatever the registration setting is.
      </p>
      {actionData?.repeated && navigation.state === 'idle' ? (
        <p role="alert" className={styles.formError}>
          {REPEATED}
        </p>
      ) : null}
      <FailureMessage failure={organizationsFailure} />
      <Form method="post" {...getFormProps(form)} aria-labelledby="new-user-heading">
        <FormErrors id={form.errorId} errors={form.errors} />
        <input type="hidden" name={ONE_TIME_FIELD} value={once} />
        <fieldset className={styles.fieldset}>
          <legend className={styles.legend}>Access</legend>
          <div className={styles.grid}>
            <Select
              label="Organisation"
              name={fields.organization_id.name}
              id={fields.organization_id.id}
              options={organizations.map((organization) => ({ value: String(organization.id), label: organization.name }))}
              defaultValue={text(fields.organization_id.initialValue, startingOrganizationId === null ? '' : String(startingOrganizationId))}
              errors={fields.organization_id.errors}
            />
            <Select
              label="Role"
              name={fields.role.name}
              id={fields.role.id}
              options={ROLE_OPTIONS}
              defaultValue={text(fields.role.initialValue, 'user')}
              errors={fields.role.errors}
              description="The user joins the organisation's group for this role."
            />
          </div>
        </fieldset>
        <fieldset className={styles.fieldset}>
          <legend className={styles.legend}>Account</legend>
          <div className={styles.grid}>
            <TextField label="Username" {...fieldProps(fields.username)} isRequired maxLength={60} />
            <TextField label="Email" type="email" {...fieldProps(fields.email)} isRequired maxLength={254} />
            <TextField label="First name" {...fieldProps(fields.firstName)} maxLength={100} />
            <TextField label="Last name" {...fieldProps(fields.lastName)} maxLength={100} />
            <TextField label="Cellphone" {...fieldProps(fields.cellphone)} maxLength={40} />
            {isInvite ? null : (
              <TextField
                label="Password"
                type="password"
                name={fields.password.name}
                id={fields.password.id}
                errors={fields.password.errors}
                maxLength={200}
                description="At least 8 characters, not only letters or only digits."
              />
            )}
          </div>
        </fieldset>
        <div className={styles.actions}>
          {isInvite ? (
            <Button name="intent" value="invite" isDisabled={isBusy}>
              Invite user
            </Button>
          ) : (
            <>
              <Button name="intent" value="add" isDisabled={isBusy}>
                Add user
              </Button>
              <Link to="/users/new?invite=1">Invite instead</Link>
            </>
          )}
          <Link to="/users">Cancel</Link>
        </div>
      </Form>
    </section>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
