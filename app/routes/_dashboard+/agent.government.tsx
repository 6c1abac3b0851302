import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { Link } from '@remix-run/react'
import { AgentConsole } from '~/components/agent/agent-console'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { actAgentScreen, loadAgentScreen } from '~/utils/agent-route.server'
import { screenMeta } from '~/sponsors/meta'

export const meta: MetaFunction = ({ matches }) => screenMeta(matches, 'Government agent')

export const loader = ({ request }: LoaderFunctionArgs) => loadAgentScreen(request, 'government')
export const action = ({ request }: ActionFunctionArgs) => actAgentScreen(request, 'government')

export default function GovernmentAgentRoute() {
  return (
    <>
      <nav aria-label="Agent variants" style={{ marginBottom: '1rem' }}>
        <Link to="/agent">General agent</Link> · <strong>Government agent</strong>
      </nav>
      <AgentConsole title="Government agent" description="Choose a template; the agent fills it section by section from the knowledge base, each section with its sources." />
    </>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
