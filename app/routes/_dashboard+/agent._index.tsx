import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { Link } from '@remix-run/react'
import { AgentConsole } from '~/components/agent/agent-console'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { actAgentScreen, loadAgentScreen } from '~/utils/agent-route.server'
import { screenMeta } from '~/sponsors/meta'

export const meta: MetaFunction = ({ matches }) => screenMeta(matches, 'Agent')

export const loader = ({ request }: LoaderFunctionArgs) => loadAgentScreen(request, 'general')
export const action = ({ request }: ActionFunctionArgs) => actAgentScreen(request, 'general')

export default function GeneralAgentRoute() {
  return (
    <>
      <nav aria-label="Agent variants" style={{ marginBottom: '1rem' }}>
        <strong>General agent</strong> · <Link to="/agent/government">Government agent</Link>
      </nav>
      <AgentConsole title="General agent" description="Give the agent a command; it plans, searches the knowledge base, checks its evidence and answers with sources." />
    </>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
