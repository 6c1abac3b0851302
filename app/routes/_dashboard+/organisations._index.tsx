import { getFormProps, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { z } from 'zod'
import { OrganizationInput } from '../../../contracts/organizations'
import type { Organization } from '../../../contracts/users'
import { NAME_LABELS, nameField } from '~/components/administration/name-field'
import { TableScroll } from '~/components/data-table/table-scroll'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { FailureMessage, FormErrors } from '~/components/settings/failure-message'
import { toConformErrors, toFailure } from '~/components/settings/form-errors'
import { Button } from '~/components/ui/button'
import { fieldProps, TextField } from '~/components/ui/text-field'
import { createOrganization } from '~/models/administration.server'
import { ApiError } from '~/models/api.server'
import { listOrganizations } from '~/models/users.server'
import { screenMeta } from '~/sponsors/meta'
import * as layout from '~/styles/layout.css'
import { requireApiSession } from '~/utils/auth.server'
import { readFormData } from '~/utils/form.server'
import { formatErrorInFormWords } from '~/utils/form-words'
import { redirectWithToast } from '~/utils/session.server'

export const meta: MetaFunction = ({ matches }) => screenMeta(matches, 'Organisations')

const CreateOrganizationForm = z.object({ name: nameField(OrganizationInput.shape.name) })
const parseCreateOrganizationForm = (formData: FormData) => parseWithZod(formData, { schema: CreateOrganizationForm, formatError: formatErrorInFormWords(NAME_LABELS) })

export async function loader({ request }: LoaderFunctionArgs) {
  await requireApiSession(request)
  try {
    return json({ organizations: await listOrganizations(), failure: null })
  } catch (error) {
    if (!(error instanceof ApiError)) throw error
    return json({ organizations: [] as Organization[], failure: toFailure(error, 'Cannot get organizations') }, { status: error.status >= 500 ? 502 : error.status })
  }
}

export async function action({ request }: ActionFunctionArgs) {
  const session = await requireApiSession(request)
  const submission = parseCreateOrganizationForm(await readFormData(request))
  if (submission.status !== 'success') return json({ result: submission.reply() }, { status: 400 })
  try {
    const saved = await createOrganization(session, submission.value.name)
    return redirectWithToast(request, `/organisations/${saved.organization.id}`, { summary: 'All Ok', message: saved.message })
  } catch (error) {
    if (!(error instanceof ApiError) || error.status >= 500) throw error
    const fieldErrors = toConformErrors(error.fieldErrors())
    return json({ result: submission.reply({ fieldErrors, formErrors: Object.keys(fieldErrors).length ? [] : [error.message] }) }, { status: error.status })
  }
}

export default function OrganisationsRoute() {
  const { organizations, failure } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const navigation = useNavigation()
  const [form, fields] = useForm({
    id: 'create-organisation',
    lastResult: navigation.state === 'idle' ? actionData?.result : undefined,
    constraint: getZodConstraint(CreateOrganizationForm),
    defaultNoValidate: false,
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseCreateOrganizationForm(formData),
  })
  return (
    <>
      <section className={layout.card} aria-labelledby="organisations-heading">
        <h1 id="organisations-heading">Organisations</h1>
        <p className={layout.muted}>
          Users, their query logs and keys for integrations belong to an organisation; articles are shared by all. Each organisation has three role groups
          (administrators, editors, users) and any groups you add.
        </p>
        <FailureMessage failure={failure} />
        <TableScroll label="Organisations">
          <table aria-label="Organisations">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Id</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {organizations.map((organization) => (
                <tr key={organization.id}>
                  <td>
                    <Link to={`/organisations/${organization.id}`}>{organization.name}</Link>
                  </td>
                  <td>{organization.id}</td>
                  <td>
                    <Link to={`/organisations/${organization.id}`} aria-label={`Manage ${organization.name}`}>
                      Manage
                    </Link>
                  </td>
                </tr>
              ))}
              {organizations.length === 0 && !failure ? (
                <tr>
                  <td colSpan={3}>No organisations yet.</td>
                </tr>
              ) : null}
            </tbody>
          </table>
        </TableScroll>
      </section>
      <section className={layout.card} aria-labelledby="create-organisation-heading">
        <h2 id="create-organisation-heading">Create an organisation</h2>
        <Form method="post" {...getFormProps(form)} aria-labelledby="create-organisation-heading">
          <FormErrors id={form.errorId} errors={form.errors} />
          <TextField label="Organisation name" {...fieldProps(fields.name)} isRequired maxLength={100} description="Its three role groups are created with it." />
          <Button isDisabled={navigation.state === 'submitting'}>Create organisation</Button>
        </Form>
      </section>
    </>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
