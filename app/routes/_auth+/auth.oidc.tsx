import { redirect, type ActionFunctionArgs } from '@remix-run/node'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { startSingleSignOn } from '~/utils/auth.server'
import { getEnv, isSingleSignOnEnabled } from '~/utils/env.server'
import { readFormData } from '~/utils/form.server'

/** Nothing to show here: the sign-in page posts to this route. */
export const loader = () => redirect('/login')

/** Starts single sign-on: to the provider with state, PKCE and nonce; the page to return to is kept in the session. */
export async function action({ request }: ActionFunctionArgs) {
  if (!isSingleSignOnEnabled(getEnv())) throw redirect('/login')
  const form = await readFormData(request)
  return startSingleSignOn(request, String(form.get('redirectTo') ?? ''))
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
