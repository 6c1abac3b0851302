import { json, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { screenMeta } from '~/sponsors/meta'
import * as layout from '~/styles/layout.css'
import { completeSingleSignOn } from '~/utils/auth.server'

export const meta: MetaFunction = ({ matches }) => screenMeta(matches, 'Sign-in failed')

/**
 * The provider sends the browser back here. Success: a new session and a redirect to the saved page's bare path
 * (SEED.md §2: the callback's query is dropped). A bad, stale or replayed answer: 400 with the reason, no session.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const result = await completeSingleSignOn(request)
  if (result.ok) return result.response
  return json({ message: result.message }, { status: 400, headers: result.headers })
}

export default function SignInCallbackRoute() {
  const { message } = useLoaderData<typeof loader>()
  return (
    <section className={layout.card} role="alert" aria-labelledby="sign-in-failed-heading">
      <h1 id="sign-in-failed-heading">Sign-in failed</h1>
      <p>{message}</p>
      <p>
        <Link to="/login" reloadDocument>
          Back to sign-in
        </Link>
      </p>
    </section>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
