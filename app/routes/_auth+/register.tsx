import { getFormProps, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, useActionData, useLoaderData, useLocation, useNavigation } from '@remix-run/react'
import { z } from 'zod'
import { Password, Registration, type Organization } from '../../../contracts/users'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { FailureMessage, FormErrors } from '~/components/settings/failure-message'
import { toConformErrors, toFailure } from '~/components/settings/form-errors'
import * as styles from '~/components/settings/settings.css'
import { Button } from '~/components/ui/button'
import { Select } from '~/components/ui/select'
import { fieldProps, TextField } from '~/components/ui/text-field'
import { ApiError } from '~/models/api.server'
import { listOrganizations, registerUser } from '~/models/users.server'
import * as layout from '~/styles/layout.css'
import { redirectWithToast } from '~/utils/session.server'
import { assertSameOrigin } from '~/utils/auth.server'
import { screenMeta } from '~/sponsors/meta'
import { readFormData } from '~/utils/form.server'

export const meta: MetaFunction = ({ matches }) => screenMeta(matches, 'Register')

/** A field conform sends as missing when blank, checked with the backend's own rule (contracts/users.ts). */
const required = (message: string, rule: z.ZodType<string, string>) => z.string({ error: message }).pipe(rule)

const RegisterSchema = z
  .object({
    username: required('Please enter a username', Registration.shape.username),
    email: required('Please enter an email address', Registration.shape.email),
    firstName: required('Please enter your first name', Registration.shape.firstName),
    lastName: required('Please enter your last name', Registration.shape.lastName),
    cellphone: z.string().pipe(Registration.shape.cellphone.unwrap()).default(''),
    password: required('Please choose a password', Password),
    password_again: z.string({ error: 'Please type the password again' }),
    organization: z.number({ error: 'Please choose an organisation' }).int().positive('Please choose an organisation'),
  })
  .refine((form) => form.password === form.password_again, { path: ['password_again'], message: 'The two passwords differ' })

export async function loader(_args: LoaderFunctionArgs) {
  try {
    return json({ organizations: await listOrganizations(), failure: null })
  } catch (error) {
    if (!(error instanceof ApiError)) throw error
    return json(
      { organizations: [] as Organization[], failure: toFailure(error, 'Cannot get organizations') },
      { status: error.status >= 500 ? 502 : error.status },
    )
  }
}

export async function action({ request }: ActionFunctionArgs) {
  assertSameOrigin(request)
  const submission = parseWithZod(await readFormData(request), { schema: RegisterSchema })
  const hideFields = ['password', 'password_again']
  if (submission.status !== 'success') return json({ result: submission.reply({ hideFields }) }, { status: 400 })
  const { password_again: _again, ...person } = submission.value
  try {
    // SEED.md §5: always enabled, the chosen organisation as a one-item organizations list.
    await registerUser(person)
  } catch (error) {
    if (error instanceof ApiError && error.status < 500) {
      const fieldErrors = toConformErrors(error.fieldErrors(), (field) =>
        field === 'organizations' || field.startsWith('organizations.') ? 'organization' : field,
      )
      return json(
        { result: submission.reply({ hideFields, fieldErrors, formErrors: Object.keys(fieldErrors).length ? [] : [error.message] }) },
        { status: error.status },
      )
    }
    throw error
  }
  return redirectWithToast(request, '/register', { summary: 'All Ok', message: 'User registered' })
}

export default function RegisterRoute() {
  const { organizations, failure } = useLoaderData<typeof loader>()
  // A new location (after "User registered") starts a new, empty form; a refused one keeps what was typed.
  const location = useLocation()
  return (
    <section className={layout.card} aria-labelledby="register-heading">
      <h1 id="register-heading">Register</h1>
      <p>Create an account in your organisation.</p>
      <FailureMessage failure={failure} />
      <RegisterForm key={location.key} organizations={organizations} />
    </section>
  )
}

function RegisterForm({ organizations }: { organizations: Organization[] }) {
  const actionData = useActionData<typeof action>()
  const navigation = useNavigation()
  const [form, fields] = useForm({
    id: 'register',
    lastResult: actionData?.result,
    constraint: getZodConstraint(RegisterSchema),
    defaultNoValidate: false,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: RegisterSchema }),
  })
  return (
    <Form method="post" {...getFormProps(form)}>
      <FormErrors id={form.errorId} errors={form.errors} />
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
          isRequired
          maxLength={100}
        />
        <TextField
          label="Last name"
          {...fieldProps(fields.lastName)}
          isRequired
          maxLength={100}
        />
        <TextField
          label="Cellphone"
          type="text"
          {...fieldProps(fields.cellphone)}
          maxLength={40}
        />
        <Select
          label="Organisation"
          {...fieldProps(fields.organization)}
          options={organizations.map((organization) => ({ value: String(organization.id), label: organization.name }))}
          isRequired
        />
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
        <Button isDisabled={navigation.state === 'submitting' || organizations.length === 0}>Register</Button>
      </div>
    </Form>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
