import { isRouteErrorResponse, useLocation, useRouteError } from '@remix-run/react'
import { Component, useId, type ErrorInfo, type ReactNode } from 'react'
import * as styles from './error-boundary.css'

type HeadingLevel = 1 | 2 | 3

/** The text of anything thrown: an error response's status and message, an Error's message, or the value itself. */
export function describeError(error: unknown): string {
  if (isRouteErrorResponse(error)) {
    const data = error.data as unknown
    const message =
      typeof data === 'string' ? data : data && typeof data === 'object' && 'message' in data && typeof data.message === 'string' ? data.message : ''
    return `${error.status} ${error.statusText}${message ? `: ${message}` : ''}`
  }
  if (error instanceof Error) return error.message || error.name
  if (typeof error === 'string') return error
  try {
    return JSON.stringify(error) ?? String(error)
  } catch {
    return String(error)
  }
}

/** A refusal the server explained (a 4xx answer with a message) is said in plain words, not only in the details. */
function visibleReason(error: unknown): string | null {
  if (!isRouteErrorResponse(error) || error.status >= 500) return null
  const data = error.data as unknown
  return data && typeof data === 'object' && 'message' in data && typeof data.message === 'string' ? data.message : null
}

interface ErrorDetailsProps {
  error: unknown
  /** React's component stack (from componentDidCatch) when the error was caught by ComponentErrorBoundary. */
  componentStack?: string | null
  headingLevel?: HeadingLevel
}

/** SEED.md §2: the heading 'Something went wrong.' and a collapsible block with the error text and the stacks. */
export function ErrorDetails({ error, componentStack, headingLevel = 2 }: ErrorDetailsProps) {
  const Heading = `h${headingLevel}` as const
  const headingId = useId()
  const text = describeError(error)
  // Remix strips server stacks in production; what remains is the browser's, which holds nothing secret.
  const stack = error instanceof Error && error.stack ? error.stack : null
  const components = componentStack?.replace(/^\s*\n/, '') || null
  const reason = visibleReason(error)
  return (
    <section className={styles.panel} role="alert" aria-labelledby={headingId}>
      <Heading id={headingId} className={styles.heading}>
        Something went wrong.
      </Heading>
      {reason ? <p>{reason}</p> : null}
      <details>
        <summary className={styles.summary}>Error details</summary>
        <p className={styles.label}>Error</p>
        <pre className={styles.code} data-testid="error-text">
          {text}
        </pre>
        {components ? (
          <>
            <p className={styles.label}>Component stack</p>
            <pre className={styles.code} data-testid="error-component-stack">
              {components}
            </pre>
          </>
        ) : null}
        {stack ? (
          <>
            <p className={styles.label}>Stack trace</p>
            <pre className={styles.code} data-testid="error-stack">
              {stack}
            </pre>
          </>
        ) : null}
      </details>
    </section>
  )
}

/**
 * For a route's ErrorBoundary export: shows what the route threw (a response or a render error). React 18 gives the
 * component stack only to a class boundary's componentDidCatch, which Remix keeps to itself; wrap a part of a screen
 * in ComponentErrorBoundary to have it.
 */
export function GeneralErrorBoundary({ headingLevel = 2 }: { headingLevel?: HeadingLevel }) {
  const error = useRouteError()
  return <ErrorDetails error={error} headingLevel={headingLevel} />
}

interface ComponentErrorBoundaryProps {
  children: ReactNode
  headingLevel?: HeadingLevel
  /** When this value changes the boundary tries its children again (for example the location). */
  resetKey?: unknown
}

interface ComponentErrorBoundaryState {
  error: unknown
  hasError: boolean
  componentStack: string | null
  resetKey: unknown
}

/**
 * Catches render errors of a part of a screen (for example a client-only widget) and shows them with React's
 * component stack, which only an error boundary's componentDidCatch receives in React 18.
 */
export class ComponentErrorBoundary extends Component<ComponentErrorBoundaryProps, ComponentErrorBoundaryState> {
  override state: ComponentErrorBoundaryState = { error: null, hasError: false, componentStack: null, resetKey: this.props.resetKey }

  static getDerivedStateFromError(error: unknown): Partial<ComponentErrorBoundaryState> {
    return { error, hasError: true }
  }

  static getDerivedStateFromProps(props: ComponentErrorBoundaryProps, state: ComponentErrorBoundaryState): Partial<ComponentErrorBoundaryState> | null {
    if (props.resetKey === state.resetKey) return null
    return { error: null, hasError: false, componentStack: null, resetKey: props.resetKey }
  }

  override componentDidCatch(_error: unknown, info: ErrorInfo) {
    this.setState({ componentStack: info.componentStack ?? null })
  }

  override render() {
    if (!this.state.hasError) return this.props.children
    return <ErrorDetails error={this.state.error} componentStack={this.state.componentStack} headingLevel={this.props.headingLevel} />
  }
}

/** ComponentErrorBoundary that starts afresh on every navigation. */
export function LocationErrorBoundary({ children, headingLevel }: { children: ReactNode; headingLevel?: HeadingLevel }) {
  const location = useLocation()
  return (
    <ComponentErrorBoundary resetKey={location.key} headingLevel={headingLevel}>
      {children}
    </ComponentErrorBoundary>
  )
}
