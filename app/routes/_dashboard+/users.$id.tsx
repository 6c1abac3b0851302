import { getFormProps, useForm, type SubmissionResult } from '@conform-to/react'
import { getZodConstraint } from '@conform-to/zod/v4'
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useActionData, useFetcher, useLoaderData, useNavigation } from '@remix-run/react'
import { useState } from 'react'
import { z } from 'zod'
import { Password, type Group, type Organization } from '../../../contracts/users'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { FailureMessage, FormErrors } from '~/components/settings/failure-message'
import { toConformErrors, toFailure, type Failure } from '~/components/settings/form-errors'
import { DefaultSubmit, IntentButton } from '~/components/settings/intent-button'
import * as styles from '~/components/settings/settings.css'
import { Button } from '~/components/ui/button'
import { isPostedTrue, PostedBoolean, Switch } from '~/components/ui/checkbox'
import { Select, useIsHydrated } from '~/components/ui/select'
import { fieldProps, TextField } from '~/components/ui/text-field'
import { ApiError, type ApiSession } from '~/models/api.server'
import { getUser, listGroups, listOrganizations, updateUser } from '~/models/users.server'
import { AccountActions, ACCOUNT_INTENTS } from '~/components/administration/account-actions'
import { changesOnly, savedUser, shownValues } from '~/components/administration/user-changes'
import { accountAction } from '~/components/administration/account-actions.server'
import { organizationName } from '~/components/administration/user-form.server'
import { parseUserForm, PERSON_LABELS, PersonFields } from '~/components/administration/user-form'
import { fieldErrorsInFormWords } from '~/utils/form-words'
import * as layout from '~/styles/layout.css'
import { requireApiSession } from '~/utils/auth.server'
import { listBack } from '~/utils/list-back'
import { redirectWithToast } from '~/utils/session.server'
import { screenMeta } from '~/sponsors/meta'
import { readFormData } from '~/utils/form.server'
import { newOneTimeToken } from '~/utils/one-time-form.server'

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => screenMeta(matches, `${data?.user.username ?? 'User'} · Users`)

const UserEditForm = z.object({
  ...PersonFields,
  // Blank keeps the current password.
  password: Password.optional(),
  organization_id: z.number({ error: 'Please choose an organisation' }).int().positive(),
  group_id: z.number({ error: 'Please choose a group' }).int().positive(),
  enabled: PostedBoolean,
})

const LABELS = { ...PERSON_LABELS, password: 'New password' }

function userId(params: { id?: string }) {
  const id = Number(params.id)
  if (!Number.isInteger(id) || id <= 0 || id > 2_147_483_647) throw new Response('No such user', { status: 404 })
  return id
}

/** Where to go back to: the list page the editor came from, never another site. */
const backTo = (request: Request) => listBack(request.url, '/users')

/** The groups of an organisation, to offer in the form; a failure to get them is said above the list. */
async function loadGroups(session: ApiSession, organizationId: number): Promise<GroupChoice> {
  try {
    return { groups: await listGroups(session, organizationId), groupsFailure: null, organizationId }
  } catch (error) {
    if (!(error instanceof ApiError)) throw error
    return { groups: [], groupsFailure: toFailure(error, 'Cannot get groups'), organizationId }
  }
}

/** The organisation chosen in a posted form, if it is one at all. */
function chosenOrganization(formData: FormData) {
  const id = Number(formData.get('organization_id'))
  return Number.isInteger(id) && id > 0 && id <= 2_147_483_647 ? id : null
}

/**
 * A refused save goes back with the groups of the organisation chosen, so the group chosen stays offered and chosen
 * (without scripts the page would otherwise offer the groups of the user's saved organisation again).
 */
async function refuse(session: ApiSession, formData: FormData, result: SubmissionResult<string[]>, status: number) {
  const organizationId = chosenOrganization(formData)
  return json({ result, ...(organizationId ? await loadGroups(session, organizationId) : {}) }, { status })
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const id = userId(params)
  const session = await requireApiSession(request)
  const back = backTo(request)
  let user
  try {
    user = await getUser(session, id)
  } catch (error) {
    if (!(error instanceof ApiError)) throw error
    throw await redirectWithToast(request, back, { severity: 'error', ...toFailure(error, 'Cannot get user data') })
  }
  const chosen = Number(new URL(request.url).searchParams.get('organization_id')) || user.organization_id
  const [organizations, groupsOfChosen] = await Promise.all([
    listOrganizations().then(
      (list) => ({ organizations: list, organizationsFailure: null }),
      (error) => {
        if (!(error instanceof ApiError)) throw error
        // The user's own organisation is still a valid choice.
        return {
          organizations: [{ id: user.organization_id, name: user.organization_name }] as Organization[],
          organizationsFailure: toFailure(error, 'Cannot get organizations'),
        }
      },
    ),
    loadGroups(session, chosen),
  ])
  return json({ user, back, once: newOneTimeToken(), ...organizations, ...groupsOfChosen })
}

export async function action({ request, params }: ActionFunctionArgs) {
  const id = userId(params)
  const formData = await readFormData(request)
  const session = await requireApiSession(request)
  const intent = formData.get('intent')
  // Disable or enable, a new password, a reset link: forms of their own below the edit form.
  if (typeof intent === 'string' && (ACCOUNT_INTENTS as readonly string[]).includes(intent)) return accountAction(request, session, id, formData)
  if (intent === 'groups') {
    // Without scripts: show the groups of the organisation just chosen, keeping what was typed (but no password).
    const { password: _password, ...typed } = Object.fromEntries([...formData.keys()].map((key) => [key, formData.getAll(key).map(String)]))
    const initialValue = Object.fromEntries(Object.entries(typed).map(([key, values]) => [key, values.length > 1 ? values : values[0]]))
    return json({ result: { initialValue } as SubmissionResult<string[]>, ...(await loadGroups(session, chosenOrganization(formData) ?? 0)) })
  }
  const submission = parseUserForm(formData, UserEditForm, LABELS)
  if (submission.status !== 'success') return refuse(session, formData, submission.reply({ hideFields: ['password'] }), 400)
  // Only what was changed in the form is saved: the rest stays as it is saved now (see changesOnly).
  const current = await getUser(session, id).catch((error) => {
    if (error instanceof ApiError && error.status < 500) return null // the save is answered the same
    throw error
  })
  const values = changesOnly(submission.value, shownValues(formData.get('shown')), current)
  try {
    await updateUser(session, { id, ...values, enabled: values.enabled === 'true' })
  } catch (error) {
    if (error instanceof ApiError && error.status < 500) {
      const fieldErrors = fieldErrorsInFormWords(toConformErrors(error.fieldErrors()), LABELS)
      const { organization_id: organizationId, group_id: groupId } = values
      if (fieldErrors.group_id && !(await listGroups(session, organizationId).catch(() => [] as Group[])).some((group) => group.id === groupId)) {
        // The backend says it with ids ("Group 3 is not a group of organisation 2"); the list is now that organisation's.
        fieldErrors.group_id = [`The group chosen is not a group of ${await organizationName(organizationId)}: please choose one of its groups.`]
      }
      const formErrors = Object.keys(fieldErrors).length ? [] : [error.message]
      return refuse(session, formData, submission.reply({ hideFields: ['password'], fieldErrors, formErrors }), error.status)
    }
    throw error
  }
  return redirectWithToast(request, backTo(request), { summary: 'Success', message: 'User updated' })
}

/** The groups offered, and the organisation they belong to. */
interface GroupChoice {
  groups: Group[]
  groupsFailure: Failure | null
  organizationId: number
}

export default function EditUserRoute() {
  const { user } = useLoaderData<typeof loader>()
  // Made anew whenever the saved user changes (Disable user or Enable user below, a save), so that the form always
  // starts from what is saved now and never sends back a value that is no longer so.
  return <EditUser key={JSON.stringify(savedUser(user))} />
}

function EditUser() {
  const loaded = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const navigation = useNavigation()
  const isHydrated = useIsHydrated()
  const groupsFetcher = useFetcher<typeof loader>()
  const { user } = loaded
  const saved = savedUser(user)
  const [form, fields] = useForm({
    id: `user-${user.id}`,
    defaultValue: saved as Record<string, string>,
    lastResult: actionData?.result,
    constraint: getZodConstraint(UserEditForm),
    defaultNoValidate: false,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseUserForm(formData, UserEditForm, LABELS),
  })
  // The organisation whose groups are offered: picked with scripts (fetcher), or shown by the "Show groups" button.
  const [pickedOrganization, setPickedOrganization] = useState<number | null>(null)
  const fetched: GroupChoice | null = groupsFetcher.data && pickedOrganization !== null ? groupsFetcher.data : null
  const shown: GroupChoice =
    fetched ??
    (actionData && 'groups' in actionData ? (actionData as unknown as GroupChoice) : loaded)
  const text = (value: unknown) => (typeof value === 'string' ? value : '')
  const organizationValue = fetched ? String(pickedOrganization) : text(fields.organization_id.initialValue) || String(shown.organizationId)
  const groupValue = String(shown.organizationId) === text(fields.organization_id.initialValue) ? text(fields.group_id.initialValue) : ''
  const defaultGroup = shown.groups.find((group) => String(group.id) === groupValue) ?? shown.groups.find((group) => group.role === 'user') ?? shown.groups[0]
  return (
    <section className={layout.card} aria-labelledby="user-heading">
      <p>
        <Link to={loaded.back}>← Users</Link>
      </p>
      <h1 id="user-heading">Edit user {user.username}</h1>
      <FailureMessage failure={loaded.organizationsFailure} />
      <Form method="post" {...getFormProps(form)}>
        <DefaultSubmit />
        {/* What the form was shown with: the save changes only the fields changed since. */}
        <input type="hidden" name="shown" value={JSON.stringify(saved)} />
        <FormErrors id={form.errorId} errors={form.errors} />
        <fieldset className={styles.fieldset}>
          <legend className={styles.legend}>Access</legend>
          <div className={styles.grid}>
            <div>
              <Select
                label="Organisation"
                name={fields.organization_id.name}
                id={fields.organization_id.id}
                options={loaded.organizations.map((organization) => ({ value: String(organization.id), label: organization.name }))}
                defaultValue={organizationValue}
                errors={fields.organization_id.errors}
                onChange={(value) => {
                  setPickedOrganization(Number(value))
                  groupsFetcher.load(`/users/${user.id}?${new URLSearchParams({ organization_id: value, back: loaded.back })}`)
                }}
              />
              {isHydrated ? null : (
                <div className={styles.rowActions}>
                  <IntentButton value="groups">Show groups of this organisation</IntentButton>
                </div>
              )}
            </div>
            <div>
              <FailureMessage failure={shown.groupsFailure} />
              <Select
                key={`${shown.organizationId}-${shown.groups.map((group) => group.id).join(',')}`}
                label="Group"
                name={fields.group_id.name}
                id={fields.group_id.id}
                options={shown.groups.map((group) => ({ value: String(group.id), label: `${group.name} (${group.role})` }))}
                defaultValue={defaultGroup ? String(defaultGroup.id) : ''}
                errors={fields.group_id.errors}
                description={groupsFetcher.state === 'loading' ? 'Loading the groups…' : 'The group decides what the user may do.'}
              />
            </div>
          </div>
          <Switch
            label="Enabled"
            name={fields.enabled.name}
            id={fields.enabled.id}
            defaultSelected={isPostedTrue(fields.enabled.initialValue)}
            errors={fields.enabled.errors}
            description="A disabled user cannot sign in."
          />
        </fieldset>
        <fieldset className={styles.fieldset}>
          <legend className={styles.legend}>Account</legend>
          <div className={styles.grid}>
            <TextField
              label="Username"
              {...fieldProps(fields.username)}
              isRequired
              maxLength={60}
            />
            <TextField
              label="Email"
              type="email"
              {...fieldProps(fields.email)}
              isRequired
              maxLength={254}
            />
            <TextField
              label="First name"
              {...fieldProps(fields.firstName)}
              maxLength={100}
            />
            <TextField
              label="Last name"
              {...fieldProps(fields.lastName)}
              maxLength={100}
            />
            <TextField
              label="Cellphone"
              {...fieldProps(fields.cellphone)}
              maxLength={40}
            />
            <TextField
              label="New password"
              type="password"
              name={fields.password.name}
              id={fields.password.id}
              errors={fields.password.errors}
              description="Leave blank to keep the current password."
            />
          </div>
        </fieldset>
        <div className={styles.actions}>
          <Button name="intent" value="save" isDisabled={navigation.state === 'submitting'}>
            Save user
          </Button>
          <Link to={loaded.back}>Cancel</Link>
        </div>
      </Form>
      <AccountActions user={user} once={loaded.once} />
    </section>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
