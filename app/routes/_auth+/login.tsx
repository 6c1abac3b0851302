import { getFormProps, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { z } from 'zod'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { Button } from '~/components/ui/button'
import * as controls from '~/components/ui/controls.css'
import { TextField } from '~/components/ui/text-field'
import { screenMeta } from '~/sponsors/meta'
import * as layout from '~/styles/layout.css'
import { assertSameOrigin, getSignedInUser, safeReturnPath, signInWithPassword } from '~/utils/auth.server'
import { getEnv, isSingleSignOnEnabled } from '~/utils/env.server'
import { secureCookieProblem } from '~/utils/cookie-check.server'
import { readFormData } from '~/utils/form.server'
import { useAnswerCount } from '~/utils/use-answer-count'
import { getRegistrationInfo } from '~/models/users.server'

const SignInForm = z.object({
  username: z.string({ error: 'Please enter your username' }).trim().min(1, 'Please enter your username').max(200),
  password: z.string({ error: 'Please enter your password' }).min(1, 'Please enter your password').max(1000),
  redirectTo: z.string().optional(),
})

export const meta: MetaFunction = ({ matches }) => screenMeta(matches, 'Sign in')

export async function loader({ request }: LoaderFunctionArgs) {
  const env = getEnv()
  if (!env.AUTH_ENABLED) throw redirect('/ask')
  const redirectTo = safeReturnPath(new URL(request.url).searchParams.get('redirectTo'))
  if (await getSignedInUser(request)) throw redirect(redirectTo)
  // After registering, the new username is filled in (?username=).
  const username = new URL(request.url).searchParams.get('username')?.slice(0, 200) ?? ''
  // Registration closed: the page does not offer it. Where the backend cannot say, the link stays (its page explains).
  const registration = await getRegistrationInfo().catch(() => null)
  // A question or command typed when the session ended comes back after sign-in, in the address (ADR 324).
  const kept = new URL(redirectTo, 'http://return.invalid').searchParams
  return json({
    redirectTo,
    keepsDraft: kept.has('draft') ? { isCut: kept.get('cut') === '1' } : null,
    username,
    isSingleSignOnEnabled: isSingleSignOnEnabled(env),
    cookieProblem: secureCookieProblem(request),
    mayRegister: registration?.policy !== 'off',
  })
}

export async function action({ request }: ActionFunctionArgs) {
  assertSameOrigin(request)
  if (!getEnv().AUTH_ENABLED) throw redirect('/ask')
  const submission = parseWithZod(await readFormData(request), { schema: SignInForm })
  if (submission.status !== 'success') return json({ result: submission.reply({ hideFields: ['password'] }) }, { status: 400 })
  const { username, password, redirectTo } = submission.value
  const result = await signInWithPassword(request, { username, password, redirectTo: safeReturnPath(redirectTo) })
  if (!result.ok) return json({ result: submission.reply({ formErrors: [result.message], hideFields: ['password'] }) }, { status: result.status })
  // The browser would drop the session cookie and the next page would send it back here: say so instead.
  if (secureCookieProblem(request)) {
    return json({ result: submission.reply({ formErrors: [SIGNED_IN_BUT_DROPPED], hideFields: ['password'] }) }, { status: 400, headers: result.headers })
  }
  return result.response
}

const SIGNED_IN_BUT_DROPPED = 'Your username and password were accepted, but this browser cannot stay signed in at this address (see above).'

export default function LoginRoute() {
  const { redirectTo, keepsDraft, username, isSingleSignOnEnabled, cookieProblem, mayRegister } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const navigation = useNavigation()
  const [form, fields] = useForm({
    id: 'sign-in',
    lastResult: actionData?.result,
    constraint: getZodConstraint(SignInForm),
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: SignInForm }),
  })
  const isSubmitting = navigation.state === 'submitting' && navigation.formAction?.startsWith('/login')
  // A refused sign-in empties the password field (with scripts on the form is not reloaded, so remount it).
  const attempt = useAnswerCount(actionData)
  return (
    <section className={layout.card} aria-labelledby="sign-in-heading">
      <h1 id="sign-in-heading">Sign in</h1>
      {keepsDraft ? (
        <p className={layout.muted} id="draft-kept">
          What you typed was not sent: it will be back in its field when you have signed in
          {keepsDraft.isCut ? ', but only its beginning, as it was too long to keep whole' : ''}.
        </p>
      ) : null}
      {cookieProblem ? (
        <p role="alert" className={controls.error} data-testid="cookie-problem">
          {cookieProblem}
        </p>
      ) : null}
      {isSingleSignOnEnabled ? (
        <>
          {/* A document post: the provider's page is another site, and the state cookie is set on this answer. */}
          <Form method="post" action="/auth/oidc" reloadDocument>
            <input type="hidden" name="redirectTo" value={redirectTo} />
            <Button>Sign in with single sign-on</Button>
          </Form>
          <p className={layout.muted}>Or sign in with a local account:</p>
        </>
      ) : null}
      {/* Posted to its own address, return path included: a refused sign-in comes back here still knowing where to go. */}
      <Form method="post" action={`/login?${new URLSearchParams({ redirectTo })}`} {...getFormProps(form)} aria-label="Sign in with a local account">
        <input type="hidden" name="redirectTo" value={redirectTo} />
        {form.errors?.length ? (
          <p id={form.errorId} role="alert" className={controls.error}>
            {form.errors.join(' ')}
          </p>
        ) : null}
        <TextField
          label="Username"
          name={fields.username.name}
          id={fields.username.id}
          errors={fields.username.errors}
          defaultValue={typeof fields.username.initialValue === 'string' ? fields.username.initialValue : username || undefined}
          isRequired
          maxLength={200}
        />
        <TextField key={`password-${attempt}`} label="Password" type="password" name={fields.password.name} id={fields.password.id} errors={fields.password.errors} isRequired maxLength={1000} />
        <Button isDisabled={isSubmitting}>Sign in</Button>
      </Form>
      <p>{mayRegister ? <>No account yet? <Link to="/register">Register</Link></> : 'No account yet? Ask an administrator for one.'}</p>
    </section>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
