import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { z } from 'zod'
import { GroupCreate, OrganizationInput } from '../../../contracts/organizations'
import type { Group } from '../../../contracts/users'
import { TableScroll } from '~/components/data-table/table-scroll'
import * as table from '~/components/data-table/data-table.css'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { NAME_LABELS, nameField } from '~/components/administration/name-field'
import { FailureMessage } from '~/components/settings/failure-message'
import { toFailure } from '~/components/settings/form-errors'
import * as styles from '~/components/settings/settings.css'
import { Button } from '~/components/ui/button'
import * as controls from '~/components/ui/controls.css'
import { Select } from '~/components/ui/select'
import { TextField } from '~/components/ui/text-field'
import { createGroup, deleteGroup, deleteOrganization, renameOrganization, updateGroup } from '~/models/administration.server'
import { ApiError } from '~/models/api.server'
import { listGroups, listOrganizations } from '~/models/users.server'
import { screenMeta } from '~/sponsors/meta'
import * as layout from '~/styles/layout.css'
import { requireApiSession } from '~/utils/auth.server'
import { badForm, readFormData, unknownIntent } from '~/utils/form.server'
import { inFormWords } from '~/utils/form-words'
import { ROLE_LABELS, ROLE_OPTIONS, RoleChoice } from '~/utils/role-labels'
import { redirectWithToast } from '~/utils/session.server'

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => screenMeta(matches, `${data?.organization.name ?? 'Organisation'} · Organisations`)

const MAX_ID = 2_147_483_647

function organizationId(params: { id?: string }) {
  const id = Number(params.id)
  if (!Number.isInteger(id) || id <= 0 || id > MAX_ID) throw new Response('No such organisation', { status: 404 })
  return id
}

const OrganisationName = nameField(OrganizationInput.shape.name)
const GroupName = nameField(GroupCreate.shape.name)
const GroupId = z.coerce.number().int().positive().max(MAX_ID)

/** Every form of this page, told apart by its intent; a row's form names its group. */
const OrganisationForms = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('rename'), name: OrganisationName }),
  z.object({ intent: z.literal('delete'), confirm: z.literal('on', { error: 'Please confirm the deletion' }) }),
  z.object({ intent: z.literal('create-group'), name: GroupName, role: RoleChoice }),
  z.object({ intent: z.literal('update-group'), group_id: GroupId, name: GroupName, role: RoleChoice }),
  z.object({ intent: z.literal('delete-group'), group_id: GroupId }),
])

/** What the page shows after a refused form: which form (by intent and group), the reason in words and what was typed in it. */
interface Refusal {
  intent: string
  groupId: number | null
  message: string
  values: TypedValues
}

/** The fields a person types or chooses in this page's forms, as posted. */
interface TypedValues {
  name?: string
  role?: string
}

function typedValuesOf(formData: FormData): TypedValues {
  const text = (field: string) => {
    const value = formData.get(field)
    return typeof value === 'string' ? value : undefined
  }
  return { name: text('name'), role: text('role') }
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const id = organizationId(params)
  const session = await requireApiSession(request)
  let organizations
  try {
    organizations = await listOrganizations()
  } catch (error) {
    if (!(error instanceof ApiError)) throw error
    throw await redirectWithToast(request, '/organisations', { severity: 'error', ...toFailure(error, 'Cannot get organizations') })
  }
  const organization = organizations.find((candidate) => candidate.id === id)
  if (!organization) throw new Response('No such organisation', { status: 404 })
  try {
    return json({ organization, groups: await listGroups(session, id), groupsFailure: null })
  } catch (error) {
    if (!(error instanceof ApiError)) throw error
    return json({ organization, groups: [] as Group[], groupsFailure: toFailure(error, 'Cannot get groups') })
  }
}

export async function action({ request, params }: ActionFunctionArgs) {
  const id = organizationId(params)
  const session = await requireApiSession(request)
  const formData = await readFormData(request)
  const intent = formData.get('intent')
  if (!['rename', 'delete', 'create-group', 'update-group', 'delete-group'].includes(String(intent))) throw unknownIntent(intent)
  const parsed = OrganisationForms.safeParse(Object.fromEntries(formData))
  // The group a refused row's form names; none for the organisation's own forms (rename, create a group), which send
  // no group_id (Number(null) would be 0, and their message would go to no form).
  const groupIdOf = (value: FormDataEntryValue | null) => (typeof value === 'string' && value !== '' && Number.isInteger(Number(value)) ? Number(value) : null)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    if (issue.path[0] === 'group_id') throw badForm('This form names no group of this organisation.')
    return json(
      { refusal: { intent: String(intent), groupId: groupIdOf(formData.get('group_id')), message: inFormWords(issue.message, NAME_LABELS), values: typedValuesOf(formData) } satisfies Refusal },
      { status: 400 },
    )
  }
  const form = parsed.data
  const here = `/organisations/${id}`
  try {
    switch (form.intent) {
      case 'rename':
        return redirectWithToast(request, here, { summary: 'All Ok', message: (await renameOrganization(session, id, form.name)).message })
      case 'delete':
        return redirectWithToast(request, '/organisations', { summary: 'All Ok', message: (await deleteOrganization(session, id)).message })
      case 'create-group':
        return redirectWithToast(request, here, { summary: 'All Ok', message: (await createGroup(session, id, { name: form.name, role: form.role })).message })
      case 'update-group':
        return redirectWithToast(request, here, { summary: 'All Ok', message: (await updateGroup(session, id, form.group_id, { name: form.name, role: form.role })).message })
      case 'delete-group':
        return redirectWithToast(request, here, { summary: 'All Ok', message: (await deleteGroup(session, id, form.group_id)).message })
    }
  } catch (error) {
    // A refusal (a taken name, an organisation or group that still holds something) is said beside its form.
    if (!(error instanceof ApiError) || error.status >= 500) throw error
    const groupId = 'group_id' in form ? form.group_id : null
    return json({ refusal: { intent: form.intent, groupId, message: error.message, values: typedValuesOf(formData) } satisfies Refusal }, { status: error.status })
  }
}

export default function OrganisationRoute() {
  const { organization, groups, groupsFailure } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const navigation = useNavigation()
  const refusal = navigation.state === 'idle' ? actionData?.refusal : undefined
  const isRefused = (intent: string, groupId: number | null = null) => refusal?.intent === intent && refusal.groupId === groupId
  /** What a refused form comes back with, so nothing typed is lost; the saved values otherwise. */
  const typed = (intent: string, groupId: number | null = null): TypedValues => (isRefused(intent, groupId) ? refusal!.values : {})
  const refusalFor = (intent: string, groupId: number | null = null) =>
    refusal && isRefused(intent, groupId) ? (
      <p role="alert" className={styles.formError}>
        {refusal.intent === 'delete' ? <strong>Not deleted. </strong> : null}
        {refusal.message}
      </p>
    ) : null
  const isBusy = navigation.state === 'submitting'
  return (
    <>
      <section className={layout.card} aria-labelledby="organisation-heading">
        <p>
          <Link to="/organisations">← Organisations</Link>
        </p>
        <h1 id="organisation-heading">{organization.name}</h1>
        <Form method="post" aria-label="Rename the organisation">
          {refusalFor('rename')}
          <TextField label="Organisation name" name="name" id="organisation-name" defaultValue={typed('rename').name ?? organization.name} isRequired maxLength={100} />
          <Button name="intent" value="rename" isDisabled={isBusy}>
            Rename
          </Button>
        </Form>
      </section>

      <section className={layout.card} aria-labelledby="groups-heading">
        <h2 id="groups-heading">Groups</h2>
        <p className={layout.muted}>A group carries a role: what its members may do. The three role groups cannot be deleted and keep their role.</p>
        <FailureMessage failure={groupsFailure} />
        <TableScroll label="Groups">
          <table aria-label="Groups">
            <thead>
              <tr>
                <th scope="col">Name and role</th>
                <th scope="col">Delete</th>
              </tr>
            </thead>
            <tbody>
              {groups.map((group) => (
                <tr key={group.id}>
                  <td>
                    <Form method="post" aria-label={`Edit group ${group.name}`} className={styles.rowActions}>
                      <input type="hidden" name="group_id" value={group.id} />
                      <label>
                        <span className={controls.label}>Name </span>
                        <input name="name" defaultValue={typed('update-group', group.id).name ?? group.name} required maxLength={100} aria-label={`Name of group ${group.name}`} className={table.control} />
                      </label>
                      <label>
                        <span className={controls.label}>Role </span>
                        <select name="role" defaultValue={typed('update-group', group.id).role ?? group.role} aria-label={`Role of group ${group.name}`} className={table.control}>
                          {ROLE_OPTIONS.map((option) => (
                            <option key={option.value} value={option.value}>
                              {option.label}
                            </option>
                          ))}
                        </select>
                      </label>
                      <Button name="intent" value="update-group" variant="secondary" isDisabled={isBusy}>
                        Save group
                      </Button>
                    </Form>
                    {refusalFor('update-group', group.id)}
                  </td>
                  <td>
                    <details>
                      <summary aria-label={`Delete group ${group.name}…`}>Delete…</summary>
                      <Form method="post" aria-label={`Delete group ${group.name}`}>
                        <input type="hidden" name="group_id" value={group.id} />
                        <p>
                          Delete the group “{group.name}” ({ROLE_LABELS[group.role]})? Only an empty group that is not a role group can go.
                        </p>
                        <Button name="intent" value="delete-group" variant="danger" isDisabled={isBusy}>
                          Yes, delete group
                        </Button>
                      </Form>
                    </details>
                    {refusalFor('delete-group', group.id)}
                  </td>
                </tr>
              ))}
              {groups.length === 0 && !groupsFailure ? (
                <tr>
                  <td colSpan={2}>No groups.</td>
                </tr>
              ) : null}
            </tbody>
          </table>
        </TableScroll>
        <h3 id="create-group-heading">Create a group</h3>
        <Form method="post" aria-labelledby="create-group-heading">
          {refusalFor('create-group')}
          <div className={styles.grid}>
            <TextField label="Group name" name="name" id="group-name" defaultValue={typed('create-group').name} isRequired maxLength={100} />
            <Select label="Role" name="role" id="group-role" options={ROLE_OPTIONS} defaultValue={typed('create-group').role ?? 'user'} description="What the group's members may do." />
          </div>
          <Button name="intent" value="create-group" isDisabled={isBusy}>
            Create group
          </Button>
        </Form>
      </section>

      <section className={layout.card} aria-labelledby="delete-organisation-heading">
        <h2 id="delete-organisation-heading">Delete the organisation</h2>
        <p className={layout.muted}>
          Only an organisation that no longer has users, groups of its own, keys for integrations or query logs can be deleted. Nothing is moved for you: if
          something remains, you are told what.
        </p>
        <Form method="post" aria-labelledby="delete-organisation-heading">
          {refusalFor('delete')}
          <p className={controls.field}>
            <label>
              <input type="checkbox" name="confirm" required /> Yes, delete “{organization.name}”
            </label>
          </p>
          <Button name="intent" value="delete" variant="danger" isDisabled={isBusy}>
            Delete organisation
          </Button>
        </Form>
      </section>
    </>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
