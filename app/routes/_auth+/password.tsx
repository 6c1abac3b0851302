import { getFormProps, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { z } from 'zod'
import { Password } from '../../../contracts/users'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { Button } from '~/components/ui/button'
import * as controls from '~/components/ui/controls.css'
import { TextField } from '~/components/ui/text-field'
import { ApiError } from '~/models/api.server'
import { setPasswordWithCode } from '~/models/administration.server'
import { screenMeta } from '~/sponsors/meta'
import * as layout from '~/styles/layout.css'
import { assertSameOrigin } from '~/utils/auth.server'
import { getEnv } from '~/utils/env.server'
import { readFormData } from '~/utils/form.server'
import { fieldErrorsInFormWords, formatErrorInFormWords } from '~/utils/form-words'
import { redirectWithToast } from '~/utils/session.server'

export const meta: MetaFunction = ({ matches }) => screenMeta(matches, 'Set your password')

const SetPasswordForm = z
  .object({
    code: z.string({ error: 'This link has no code: open the whole link you were given' }).trim().min(1).max(200),
    password: z.string({ error: 'Please choose a password' }).pipe(Password),
    password_again: z.string({ error: 'Please type the password again' }),
  })
  .refine((form) => form.password === form.password_again, { path: ['password_again'], message: 'The two passwords differ' })

/** Its messages name the field as the form does ("Password must be at least 8 characters"). */
const PASSWORD_LABELS = { password: 'New password' }

/** The page an invitation or a password reset link opens: the code comes in the address and goes back in the form. */
export async function loader({ request }: LoaderFunctionArgs) {
  if (!getEnv().AUTH_ENABLED) throw redirect('/ask')
  const code = (new URL(request.url).searchParams.get('code') ?? '').trim().slice(0, 200)
  return json({ code })
}

export async function action({ request }: ActionFunctionArgs) {
  assertSameOrigin(request)
  if (!getEnv().AUTH_ENABLED) throw redirect('/ask')
  const submission = parseWithZod(await readFormData(request), { schema: SetPasswordForm, formatError: formatErrorInFormWords(PASSWORD_LABELS) })
  if (submission.status !== 'success') return json({ result: submission.reply({ hideFields: ['password', 'password_again'] }) }, { status: 400 })
  try {
    const used = await setPasswordWithCode(submission.value.code, submission.value.password)
    return redirectWithToast(request, '/login', { summary: 'All Ok', message: `Password set. Sign in as ${used.username}.` })
  } catch (error) {
    if (!(error instanceof ApiError) || error.status >= 500) throw error
    const fieldErrors = error.fieldErrors()
    const reply = fieldErrors.password
      ? { fieldErrors: fieldErrorsInFormWords({ password: fieldErrors.password }, PASSWORD_LABELS) }
      : { formErrors: [error.status === 429 ? error.message : 'This link is not valid, has been used or has expired: ask an administrator for a new one.'] }
    return json({ result: submission.reply({ ...reply, hideFields: ['password', 'password_again'] }) }, { status: error.status })
  }
}

export default function SetPasswordRoute() {
  const { code } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const navigation = useNavigation()
  const [form, fields] = useForm({
    id: 'set-password',
    lastResult: actionData?.result,
    constraint: getZodConstraint(SetPasswordForm),
    defaultNoValidate: false,
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: SetPasswordForm, formatError: formatErrorInFormWords(PASSWORD_LABELS) }),
  })
  return (
    <section className={layout.card} aria-labelledby="set-password-heading">
      <h1 id="set-password-heading">Set your password</h1>
      {code ? (
        <>
          <p className={layout.muted}>Choose the password for your account. The link works once; after this you sign in with your username and this password.</p>
          <Form method="post" {...getFormProps(form)} aria-labelledby="set-password-heading">
            <input type="hidden" name="code" value={code} />
            {form.errors?.length ? (
              <p id={form.errorId} role="alert" className={controls.error}>
                {form.errors.join(' ')}
              </p>
            ) : null}
            <TextField label="New password" type="password" name={fields.password.name} id={fields.password.id} errors={fields.password.errors} isRequired maxLength={200} description="At least 8 characters, not only letters or only digits." />
            <TextField label="New password again" type="password" name={fields.password_again.name} id={fields.password_again.id} errors={fields.password_again.errors} isRequired maxLength={200} />
            <Button isDisabled={navigation.state === 'submitting'}>Set password</Button>
          </Form>
        </>
      ) : (
        <p role="alert">This address has no code. Open the whole link an administrator gave you, or ask them for a new one.</p>
      )}
      <p>
        <Link to="/login">Sign in</Link>
      </p>
    </section>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
