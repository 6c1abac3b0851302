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
    // A response thrown by a loader has no status text: "404: …", not "404 : …".
    return `${[error.status, error.statusText].filter(Boolean).join(' ')}${message ? `: ${message}` : ''}`
  }
  if (error instanceof Error) return error.message || error.name
  if (typeof error === 'string') return error
  try {
    return JSON.stringify(error) ?? String(error)
  } catch {
    return String(error)
  }
}

/** The message a 4xx/5xx answer carried, if any. */
function messageOf(error: unknown): string | null {
  if (!isRouteErrorResponse(error)) return null
  const data = error.data as unknown
  if (typeof data === 'string') return data || null
  return data && typeof data === 'object' && 'message' in data && typeof data.message === 'string' ? data.message : null
}

/** What kind of failure a page shows: each says what happened and what to do; only the rest is SEED's generic one. */
export type ErrorKind = 'not-found' | 'not-allowed' | 'sign-in' | 'unreachable' | 'refused' | 'failed'

export function errorKindOf(error: unknown): ErrorKind {
  if (!isRouteErrorResponse(error)) return 'failed'
  if (error.status === 404) return 'not-found'
  if (error.status === 403) return 'not-allowed'
  if (error.status === 401) return 'sign-in'
  if (error.status === 502 || error.status === 503 || error.status === 504) return 'unreachable'
  if (error.status >= 400 && error.status < 500) return 'refused'
  return 'failed'
}

const HEADINGS: Record<ErrorKind, string> = {
  'not-found': 'Not found',
  'not-allowed': 'Not allowed',
  'sign-in': 'Please sign in',
  unreachable: 'The service cannot be reached',
  refused: 'That could not be done',
  // SEED.md §2: the generic heading is kept for everything else, render errors above all.
  failed: 'Something went wrong.',
}

const ADVICE: Record<ErrorKind, string | null> = {
  'not-found': 'Nothing is at this address: it may have been deleted or moved, or the link is mistyped.',
  'not-allowed': 'If you need this page, ask an administrator to give your account a role that opens it.',
  'sign-in': 'Your session has ended or you are not signed in.',
  unreachable: 'The knowledge base is not answering right now. Nothing you entered was saved by this attempt; try again in a moment.',
  refused: null,
  failed: null,
}

interface ErrorDetailsProps {
  error: unknown
  /** React's component stack (from componentDidCatch) when the error was caught by ComponentErrorBoundary. */
  componentStack?: string | null
  headingLevel?: HeadingLevel
  /** The address to try again (the page's own), offered when the service could not be reached. */
  retryHref?: string
}

/**
 * A failure in words: not found, not allowed (with what to do), sign-in needed, the service unreachable (with a
 * link to try again), a refusal with the server's reason; anything else, render errors above all, gets SEED.md §2's
 * heading 'Something went wrong.'. Every kind keeps the collapsible block with the error text and the stacks.
 */
export function ErrorDetails({ error, componentStack, headingLevel = 2, retryHref }: ErrorDetailsProps) {
  const Heading = `h${headingLevel}` as const
  const headingId = useId()
  const kind = errorKindOf(error)
  const text = describeError(error)
  // Remix strips server stacks in production; what remains is the browser's, which holds nothing secret.
  const stack = error instanceof Error && error.stack ? error.stack : null
  const components = componentStack?.replace(/^\s*\n/, '') || null
  // A refusal the server explained (a 4xx answer with a message) is said in plain words, not only in the details.
  const reason = isRouteErrorResponse(error) && error.status < 500 ? messageOf(error) : null
  const advice = ADVICE[kind]
  return (
    <section className={styles.panel} role="alert" aria-labelledby={headingId} data-error-kind={kind}>
      <Heading id={headingId} className={styles.heading}>
        {HEADINGS[kind]}
      </Heading>
      {reason ? <p>{reason}</p> : null}
      {advice ? <p>{advice}</p> : null}
      {kind === 'unreachable' && retryHref ? (
        <p>
          <a href={retryHref}>Try again</a>
        </p>
      ) : null}
      {kind === 'sign-in' ? (
        <p>
          <a href="/login">Sign in</a>
        </p>
      ) : (
        <p>
          <a href="/ask">Back to Ask</a>
        </p>
      )}
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
  const location = useLocation()
  return <ErrorDetails error={error} headingLevel={headingLevel} retryHref={`${location.pathname}${location.search}`} />
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
