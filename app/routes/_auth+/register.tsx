import { getFormProps, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData, useLocation, useNavigation } from '@remix-run/react'
import type { RegistrationInfo } from '../../../contracts/users'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { FailureMessage, FormErrors } from '~/components/settings/failure-message'
import * as styles from '~/components/settings/settings.css'
import { Button } from '~/components/ui/button'
import { fieldProps, TextField } from '~/components/ui/text-field'
import * as layout from '~/styles/layout.css'
import { screenMeta } from '~/sponsors/meta'
import { formatErrorInFormWords } from '~/utils/form-words'
import { REGISTER_LABELS, REGISTRATION_CLOSED, registerSchema } from '~/utils/register-form'
import { actRegister, loadRegisterScreen } from '~/utils/register-route.server'

export const meta: MetaFunction = ({ matches }) => screenMeta(matches, 'Register')

/**
 * The backend's registration policy decides what this page offers; an outsider never picks an organisation. A link
 * with `?invitation=CODE` fills in the invitation code.
 */
export const loader = ({ request }: LoaderFunctionArgs) => loadRegisterScreen(request)

export const action = ({ request }: ActionFunctionArgs) => actRegister(request)

export default function RegisterRoute() {
  const { registration, invitation, failure } = useLoaderData<typeof loader>()
  // A new location (after "User registered") starts a new, empty form; a refused one keeps what was typed.
  const location = useLocation()
  return (
    <section className={layout.card} aria-labelledby="register-heading">
      <h1 id="register-heading">Register</h1>
      <FailureMessage failure={failure} />
      {registration?.policy === 'off' ? (
        <p role="status">{REGISTRATION_CLOSED}</p>
      ) : registration ? (
        <>
          <p>{describePolicy(registration)}</p>
          <RegisterForm key={location.key} policy={registration.policy} invitationCode={invitation} />
        </>
      ) : null}
      <p>
        Already have an account? <Link to="/login">Sign in</Link>
      </p>
    </section>
  )
}

function describePolicy(registration: RegistrationInfo): string {
  const where = registration.organization ? ` in ${registration.organization.name}` : ''
  return registration.policy === 'invite'
    ? `Create an account with the invitation code an administrator gave you.`
    : `Create an account${where}.`
}

function RegisterForm({ policy, invitationCode }: { policy: 'open' | 'invite'; invitationCode: string }) {
  const actionData = useActionData<typeof action>()
  const navigation = useNavigation()
  const schema = registerSchema(policy)
  const [form, fields] = useForm({
    id: 'register',
    lastResult: actionData?.result,
    constraint: getZodConstraint(schema),
    defaultNoValidate: false,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema, formatError: formatErrorInFormWords(REGISTER_LABELS) }),
  })
  // Only the invitation form has the field (the two schemas differ there alone).
  const invitation = policy === 'invite' ? (fields as unknown as Record<'invitation', typeof fields.username>).invitation : undefined
  return (
    <Form method="post" {...getFormProps(form)}>
      <FormErrors id={form.errorId} errors={form.errors} />
      <div className={styles.grid}>
        {invitation ? <TextField label="Invitation code" {...fieldProps(invitation, invitationCode)} isRequired maxLength={200} /> : null}
        <TextField label="Username" {...fieldProps(fields.username)} isRequired maxLength={60} />
        <TextField label="Email" type="email" {...fieldProps(fields.email)} isRequired maxLength={254} />
        <TextField label="First name" {...fieldProps(fields.firstName)} isRequired maxLength={100} />
        <TextField label="Last name" {...fieldProps(fields.lastName)} isRequired maxLength={100} />
        <TextField label="Cellphone" type="text" {...fieldProps(fields.cellphone)} maxLength={40} />
        <TextField
          label="Password"
          type="password"
          name={fields.password.name}
          id={fields.password.id}
          errors={fields.password.errors}
          description="At least 8 characters, not only letters or only digits."
          isRequired
        />
        <TextField
          label="Password again"
          type="password"
          name={fields.password_again.name}
          id={fields.password_again.id}
          errors={fields.password_again.errors}
          isRequired
        />
      </div>
      <div className={styles.actions}>
        <Button isDisabled={navigation.state === 'submitting'}>Register</Button>
      </div>
    </Form>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
