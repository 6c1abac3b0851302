import { getFormProps, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, useActionData, useLoaderData, useLocation, useNavigation } from '@remix-run/react'
import { PASSWORD_MIN_LENGTH } from '../../../contracts/users'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { FormErrors } from '~/components/settings/failure-message'
import { Button } from '~/components/ui/button'
import { TextField } from '~/components/ui/text-field'
import { ApiError } from '~/models/api.server'
import { changeOwnPassword, getOwnAccount } from '~/models/identity.server'
import { listOrganizations } from '~/models/users.server'
import { screenMeta } from '~/sponsors/meta'
import * as layout from '~/styles/layout.css'
import { assertSameOrigin, getSignIn, redirectToSignIn, requireApiSession } from '~/utils/auth.server'
import { getEnv } from '~/utils/env.server'
import { badForm, readFormData } from '~/utils/form.server'
import {
  NEW_PASSWORD_HINT,
  NO_ACCOUNT_IN_DEMO,
  PASSWORD_AT_PROVIDER,
  PASSWORD_CHANGE_FIELDS,
  PASSWORD_CHANGED,
  PasswordChangeForm,
  passwordChangeRefusal,
} from '~/utils/password-change-form'
import { ROLE_LABELS } from '~/utils/role-labels'
import { useAnswerCount } from '~/utils/use-answer-count'
import { redirectWithToast } from '~/utils/session.server'

export const meta: MetaFunction = ({ matches }) => screenMeta(matches, 'Your account')

/** A refusal or failure of the backend as "unknown": the screen works without what it would have said. */
function unknownOnFailure(error: unknown): null {
  if (error instanceof ApiError) return null
  throw error
}

export async function loader({ request }: LoaderFunctionArgs) {
  if (!getEnv().AUTH_ENABLED) return json({ account: null })
  const session = await requireApiSession(request)
  const signIn = await getSignIn(request)
  if (!signIn) throw await redirectToSignIn(request)
  // The backend's view is the current one (a role changed since sign-in); the session's is the fallback.
  const [current, organizations] = await Promise.all([getOwnAccount(session).catch(unknownOnFailure), listOrganizations().catch(unknownOnFailure)])
  const organisation = current && organizations ? (organizations.find((organization) => organization.id === current.organization_id)?.name ?? null) : null
  return json({
    account: {
      username: current?.username ?? signIn.user.username,
      role: current?.role ?? signIn.user.role,
      organisation,
      isSingleSignOn: signIn.kind === 'oidc',
    },
  })
}

export async function action({ request }: ActionFunctionArgs) {
  assertSameOrigin(request)
  if (!getEnv().AUTH_ENABLED) throw badForm(NO_ACCOUNT_IN_DEMO)
  const session = await requireApiSession(request)
  const submission = parseWithZod(await readFormData(request), { schema: PasswordChangeForm })
  if (submission.status !== 'success') return json({ result: submission.reply({ hideFields: PASSWORD_CHANGE_FIELDS }) }, { status: 400 })
  try {
    await changeOwnPassword(session, { current_password: submission.value.current_password, new_password: submission.value.new_password })
  } catch (error) {
    if (!(error instanceof ApiError)) throw error
    // A failing backend is a 502 here, with the form and a plain message: never a 500 of the web server.
    return json({ result: submission.reply({ ...passwordChangeRefusal(error), hideFields: PASSWORD_CHANGE_FIELDS }) }, { status: error.status >= 500 ? 502 : error.status })
  }
  return redirectWithToast(request, '/account', { summary: 'All Ok', message: PASSWORD_CHANGED })
}

export default function AccountRoute() {
  const { account } = useLoaderData<typeof loader>()
  return (
    <section className={layout.card} aria-labelledby="account-heading">
      <h1 id="account-heading">Your account</h1>
      {account ? (
        <>
          <dl className={layout.facts}>
            <dt>Username</dt>
            <dd>{account.username}</dd>
            <dt>Role</dt>
            <dd>{ROLE_LABELS[account.role]}</dd>
            {account.organisation ? (
              <>
                <dt>Organisation</dt>
                <dd>{account.organisation}</dd>
              </>
            ) : null}
          </dl>
          <h2 id="password-heading">Change password</h2>
          {account.isSingleSignOn ? <p>{PASSWORD_AT_PROVIDER}</p> : <PasswordChange username={account.username} />}
        </>
      ) : (
        <p>{NO_ACCOUNT_IN_DEMO}</p>
      )}
    </section>
  )
}

function PasswordChange({ username }: { username: string }) {
  const actionData = useActionData<typeof action>()
  const navigation = useNavigation()
  const location = useLocation()
  const [form, fields] = useForm({
    id: 'change-password',
    lastResult: navigation.state === 'idle' ? actionData?.result : undefined,
    constraint: getZodConstraint(PasswordChangeForm),
    defaultNoValidate: false,
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: PasswordChangeForm }),
  })
  // With scripts on the page is not reloaded: empty the password fields after each answer (remount them), refused or
  // done, as the page without scripts does.
  const answers = useAnswerCount(actionData)
  const fieldKey = `${location.key}-${answers}`
  return (
    <Form method="post" {...getFormProps(form)} aria-labelledby="password-heading">
      {/* For password managers: the account whose password this is. */}
      <input type="text" name="username" autoComplete="username" value={username} readOnly hidden />
      <FormErrors id={form.errorId} errors={form.errors} />
      <TextField
        key={`current-${fieldKey}`}
        label="Current password"
        type="password"
        autoComplete="current-password"
        name={fields.current_password.name}
        id={fields.current_password.id}
        errors={fields.current_password.errors}
        isRequired
        maxLength={1000}
      />
      <TextField
        key={`new-${fieldKey}`}
        label="New password"
        type="password"
        autoComplete="new-password"
        name={fields.new_password.name}
        id={fields.new_password.id}
        errors={fields.new_password.errors}
        description={NEW_PASSWORD_HINT}
        isRequired
        minLength={PASSWORD_MIN_LENGTH}
        maxLength={200}
      />
      <TextField
        key={`again-${fieldKey}`}
        label="Repeat new password"
        type="password"
        autoComplete="new-password"
        name={fields.new_password_again.name}
        id={fields.new_password_again.id}
        errors={fields.new_password_again.errors}
        isRequired
        maxLength={200}
      />
      <Button isDisabled={navigation.state === 'submitting'}>Change password</Button>
    </Form>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
