import { getFormProps, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { z } from 'zod'
import { ApiKeyCreate, type ApiKey } from '../../../contracts/api-keys'
import type { Organization } from '../../../contracts/users'
import { OneTimeSecret } from '~/components/administration/one-time-secret'
import { startingOrganizationId } from '~/components/administration/user-form.server'
import * as table from '~/components/data-table/data-table.css'
import { TableScroll } from '~/components/data-table/table-scroll'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { LocalTime } from '~/components/local-time'
import { FailureMessage, FormErrors } from '~/components/settings/failure-message'
import { toConformErrors, toFailure, type Failure } from '~/components/settings/form-errors'
import * as styles from '~/components/settings/settings.css'
import { Button } from '~/components/ui/button'
import { Select } from '~/components/ui/select'
import { fieldProps, TextField } from '~/components/ui/text-field'
import { createApiKey, listApiKeys, revokeApiKey } from '~/models/administration.server'
import { ApiError } from '~/models/api.server'
import { listOrganizations } from '~/models/users.server'
import { screenMeta } from '~/sponsors/meta'
import * as layout from '~/styles/layout.css'
import { requireApiSession } from '~/utils/auth.server'
import { badForm, readFormData, unknownIntent } from '~/utils/form.server'
import { fieldErrorsInFormWords, formatErrorInFormWords } from '~/utils/form-words'
import { ROLE_LABELS, ROLE_OPTIONS, RoleChoice } from '~/utils/role-labels'
import { ONE_TIME_FIELD } from '~/utils/one-time-form'
import { createOnce, newOneTimeToken } from '~/utils/one-time-form.server'
import { redirectWithToast } from '~/utils/session.server'

export const meta: MetaFunction = ({ matches }) => screenMeta(matches, 'API keys')

const CreateKeyForm = z.object({
  intent: z.literal('create'),
  name: z.string({ error: 'Please enter a name' }).pipe(ApiKeyCreate.shape.name),
  role: RoleChoice,
  organization_id: z.number({ error: 'Please choose an organisation' }).int().positive(),
})

/** The form's labels: the contract's messages name fields as the API does ('name is required'). */
const CREATE_KEY_LABELS = { name: 'Name', role: 'Role', organization_id: 'Organisation' } as const
const parseCreateKeyForm = (formData: FormData) => parseWithZod(formData, { schema: CreateKeyForm, formatError: formatErrorInFormWords(CREATE_KEY_LABELS) })

const REPEATED = 'This key was already created; its secret was shown once. Revoke it and create another if you did not copy it.'

const RevokeKeyForm = z.object({ intent: z.literal('revoke'), id: z.coerce.number().int().positive().max(2_147_483_647) })

export async function loader({ request }: LoaderFunctionArgs) {
  const session = await requireApiSession(request)
  const [keys, organizations] = await Promise.all([
    listApiKeys(session).then(
      (list) => ({ keys: list, keysFailure: null as Failure | null }),
      (error) => {
        if (!(error instanceof ApiError)) throw error
        return { keys: [] as ApiKey[], keysFailure: toFailure(error, 'Cannot get API keys') }
      },
    ),
    listOrganizations().then(
      (list) => ({ organizations: list, organizationsFailure: null as Failure | null }),
      (error) => {
        if (!(error instanceof ApiError)) throw error
        return { organizations: [] as Organization[], organizationsFailure: toFailure(error, 'Cannot get organizations') }
      },
    ),
  ])
  return json({ ...keys, ...organizations, startingOrganizationId: await startingOrganizationId(session, organizations.organizations), once: newOneTimeToken() })
}

export async function action({ request }: ActionFunctionArgs) {
  const session = await requireApiSession(request)
  const formData = await readFormData(request)
  const intent = formData.get('intent')
  if (intent === 'revoke') {
    const parsed = RevokeKeyForm.safeParse(Object.fromEntries(formData))
    if (!parsed.success) throw badForm('This form names no key.')
    try {
      const revoked = await revokeApiKey(session, parsed.data.id)
      return redirectWithToast(request, '/api-keys', { summary: 'All Ok', message: revoked.message })
    } catch (error) {
      if (!(error instanceof ApiError) || error.status >= 500) throw error
      return redirectWithToast(request, '/api-keys', { severity: 'error', ...toFailure(error, 'Cannot revoke the key') })
    }
  }
  if (intent !== 'create') throw unknownIntent(intent)
  const submission = parseCreateKeyForm(formData)
  if (submission.status !== 'success') return json({ result: submission.reply(), created: null, repeated: false }, { status: 400 })
  try {
    const { intent: _intent, ...key } = submission.value
    const answer = await createOnce(request, formData, () => createApiKey(session, key))
    // This form was posted before (a reload of the answer that showed the key): nothing more is created.
    if (answer.repeated) return json({ result: submission.reply(), created: null, repeated: true }, { status: 409 })
    const created = answer.value
    // Answered, not redirected: the key exists only in this answer and is never kept, not even in a flash message.
    return json({ result: submission.reply({ resetForm: true }), created: { name: created.name, key: created.key }, repeated: false }, { headers: answer.headers })
  } catch (error) {
    if (!(error instanceof ApiError) || error.status >= 500) throw error
    const fieldErrors = fieldErrorsInFormWords(toConformErrors(error.fieldErrors()), CREATE_KEY_LABELS)
    return json(
      { result: submission.reply({ fieldErrors, formErrors: Object.keys(fieldErrors).length ? [] : [error.message] }), created: null, repeated: false },
      { status: error.status },
    )
  }
}

export default function ApiKeysRoute() {
  const { keys, keysFailure, organizations, organizationsFailure, startingOrganizationId, once } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const navigation = useNavigation()
  const [form, fields] = useForm({
    id: 'create-key',
    lastResult: navigation.state === 'idle' ? actionData?.result : undefined,
    constraint: getZodConstraint(CreateKeyForm),
    defaultNoValidate: false,
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseCreateKeyForm(formData),
  })
  const created = actionData?.created
  const isBusy = navigation.state === 'submitting'
  return (
    <>
      <section className={layout.card} aria-labelledby="keys-heading">
        <h1 id="keys-heading">API keys</h1>
        <p className={layout.muted}>
          Keys for integrations: a program that sends one as its <code>apikey</code> (header or query parameter) acts with the key’s role in its
          organisation. Only the first characters of a key are kept in view.
        </p>
        {created ? (
          <OneTimeSecret
            id="new-api-key"
            heading={`Key “${created.name}” created`}
            label="The new key"
            value={created.key}
            note="Only its fingerprint is stored; if it is lost, revoke it and create another."
          />
        ) : null}
        {actionData?.repeated && navigation.state === 'idle' ? (
          <p role="alert" className={styles.formError}>
            {REPEATED}
          </p>
        ) : null}
        <FailureMessage failure={keysFailure} />
        <TableScroll label="API keys">
          <table aria-label="API keys">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Role</th>
                <th scope="col">Organisation</th>
                <th scope="col">Starts with</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col">Revoke</th>
              </tr>
            </thead>
            <tbody>
              {keys.map((key) => (
                <tr key={key.id}>
                  <td>{key.name}</td>
                  <td>{ROLE_LABELS[key.role]}</td>
                  <td>{key.organization_name}</td>
                  <td>
                    <code>{key.prefix}…</code>
                  </td>
                  <td>
                    <LocalTime iso={key.created_at} />
                  </td>
                  <td>{key.last_used_at ? <LocalTime iso={key.last_used_at} /> : 'Never'}</td>
                  <td>
                    <details>
                      <summary aria-label={`Revoke ${key.name}…`}>Revoke…</summary>
                      <Form method="post" aria-label={`Revoke ${key.name}`}>
                        <input type="hidden" name="id" value={key.id} />
                        <p>Programs using “{key.name}” are refused from their next call. This cannot be undone.</p>
                        <Button name="intent" value="revoke" variant="danger" isDisabled={isBusy}>
                          Yes, revoke key
                        </Button>
                      </Form>
                    </details>
                  </td>
                </tr>
              ))}
              {keys.length === 0 && !keysFailure ? (
                <tr>
                  <td colSpan={7}>No keys yet.</td>
                </tr>
              ) : null}
            </tbody>
          </table>
        </TableScroll>
      </section>
      <section className={layout.card} aria-labelledby="create-key-heading">
        <h2 id="create-key-heading">Create a key</h2>
        <FailureMessage failure={organizationsFailure} />
        <Form method="post" {...getFormProps(form)} aria-labelledby="create-key-heading">
          <FormErrors id={form.errorId} errors={form.errors} />
          <input type="hidden" name={ONE_TIME_FIELD} value={once} />
          <div className={styles.grid}>
            <TextField label={CREATE_KEY_LABELS.name} {...fieldProps(fields.name)} isRequired maxLength={100} description="Say which program uses it." />
            <Select label={CREATE_KEY_LABELS.role} {...fieldProps(fields.role, 'user')} options={ROLE_OPTIONS} description="Give it no more than it needs." />
            <Select
              label={CREATE_KEY_LABELS.organization_id}
              {...fieldProps(fields.organization_id, startingOrganizationId === null ? '' : String(startingOrganizationId))}
              options={organizations.map((organization) => ({ value: String(organization.id), label: organization.name }))}
            />
          </div>
          <Button name="intent" value="create" isDisabled={isBusy}>
            Create key
          </Button>
        </Form>
      </section>
    </>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
