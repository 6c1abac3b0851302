import type { MetaFunction } from '@remix-run/node'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { screenMeta } from '~/sponsors/meta'

/**
 * Any address no other route answers: a 404 inside the dashboard frame. Without this route Remix renders a 404
 * without running the root loader, so the page would miss the sponsor's theme, title and header.
 */
export async function loader() {
  throw new Response('There is no page at this address.', { status: 404, statusText: 'Not Found' })
}

export const meta: MetaFunction = ({ matches }) => screenMeta(matches, 'Page not found')

export default function NotFound() {
  return null
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary headingLevel={1} />
}
