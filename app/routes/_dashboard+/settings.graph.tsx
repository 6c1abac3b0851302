import { json, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import * as styles from '~/components/settings/settings.css'
import { WorkflowGraph } from '~/components/workflow-graph/workflow-graph'
import { getStateFields, getWorkflowGraph } from '~/models/settings.server'
import * as layout from '~/styles/layout.css'
import { requireApiSession } from '~/utils/auth.server'
import { screenMeta } from '~/sponsors/meta'

export const meta: MetaFunction = ({ matches }) => screenMeta(matches, 'Workflow graph · Settings')

const VARIANTS = [
  { value: 'general', label: 'General agent' },
  { value: 'government', label: 'Government agent' },
] as const
type Variant = (typeof VARIANTS)[number]['value']

export async function loader({ request }: LoaderFunctionArgs) {
  const requested = new URL(request.url).searchParams.get('variant')
  const variant: Variant = requested === 'government' ? 'government' : 'general'
  const session = await requireApiSession(request)
  const [graph, stateFields] = await Promise.all([getWorkflowGraph(session, variant), getStateFields(session)])
  return json({ variant, graph, stateFields })
}

const GROUPS = [
  { group: 'step', heading: 'Steps' },
  { group: 'agent', heading: 'Agents' },
  { group: 'tool', heading: 'Tools' },
] as const

export default function WorkflowGraphRoute() {
  const { variant, graph, stateFields } = useLoaderData<typeof loader>()
  const label = (id: string) => graph.nodes.find((node) => node.id === id)?.label ?? id
  const variantLabel = VARIANTS.find((entry) => entry.value === variant)!.label
  return (
    <>
      <h2>Agent workflow graph</h2>
      <p>
        The steps an agent goes through, the agents it delegates to and the tools they use, as configured in <Link to="/settings/agent">Agent settings</Link>.
      </p>
      <nav aria-label="Workflow variant" className={styles.subnav}>
        {VARIANTS.map((entry) => (
          <Link
            key={entry.value}
            to={`/settings/graph?variant=${entry.value}`}
            className={styles.subnavLink}
            aria-current={entry.value === variant ? 'page' : undefined}
            preventScrollReset
          >
            {entry.label}
          </Link>
        ))}
      </nav>
      <WorkflowGraph key={variant} graph={graph} title={`Workflow of the ${variantLabel.toLowerCase()}`} descriptionId="workflow-text" />

      <section aria-labelledby="workflow-text-heading" id="workflow-text">
        <h3 id="workflow-text-heading">The workflow in words</h3>
        <div className={styles.grid}>
          {GROUPS.map(({ group, heading }) => {
            const nodes = graph.nodes.filter((node) => node.group === group)
            return (
              <div key={group}>
                <h4>{heading}</h4>
                {nodes.length ? (
                  <ul aria-label={heading}>
                    {nodes.map((node) => (
                      <li key={node.id}>
                        <strong>{node.label}</strong>
                        {node.title ? `: ${node.title}` : ''}
                      </li>
                    ))}
                  </ul>
                ) : (
                  <p className={layout.muted}>None.</p>
                )}
              </div>
            )
          })}
        </div>
        <h4>Connections</h4>
        <ul aria-label="Connections">
          {graph.edges.map((edge, index) => (
            <li key={`${edge.from}->${edge.to}-${index}`}>
              {label(edge.from)} → {label(edge.to)}
              {edge.label ? ` (${edge.label})` : ''}
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="state-fields-heading">
        <h3 id="state-fields-heading">State fields</h3>
        <p>What an agent run keeps track of from step to step.</p>
        <ul aria-label="State fields">
          {stateFields.map((field) => (
            <li key={field}>
              <code>{field}</code>
            </li>
          ))}
        </ul>
      </section>
    </>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
