import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useLoaderData } from '@remix-run/react'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { Button } from '~/components/ui/button'
import { screenMeta } from '~/sponsors/meta'
import * as layout from '~/styles/layout.css'
import { getSignedInUser, signOut } from '~/utils/auth.server'
import { getEnv } from '~/utils/env.server'

export const meta: MetaFunction = ({ matches }) => screenMeta(matches, 'Sign out')

/** A page to confirm signing out (signing out is a POST, so another site cannot do it with a link). */
export async function loader({ request }: LoaderFunctionArgs) {
  if (!getEnv().AUTH_ENABLED) throw redirect('/ask')
  const user = await getSignedInUser(request)
  if (!user) throw redirect('/login')
  return { username: user.username }
}

/** Ends the session here and, for single sign-on, at the provider when it supports that. */
export async function action({ request }: ActionFunctionArgs) {
  if (!getEnv().AUTH_ENABLED) throw redirect('/ask')
  return signOut(request)
}

export default function LogoutRoute() {
  const { username } = useLoaderData<typeof loader>()
  return (
    <section className={layout.card} aria-labelledby="sign-out-heading">
      <h1 id="sign-out-heading">Sign out</h1>
      <p>You are signed in as {username}.</p>
      {/* A document post: with single sign-on the answer sends the browser on to the provider. */}
      <Form method="post" action="/logout" reloadDocument>
        <Button>Sign out</Button>
      </Form>
      <p>
        <Link to="/ask">Back to the assistant</Link>
      </p>
    </section>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
