// @vitest-environment jsdom
import { createElement, type ReactElement } from 'react'
import { act } from 'react'
import { createRoot, type Root } from 'react-dom/client'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'

// The vanilla-extract files need the bundler's plugin; class names do not matter here.
vi.mock('./error-boundary.css', () => ({ panel: 'panel', heading: 'heading', summary: 'summary', label: 'label', code: 'code' }))
vi.mock('./toast.css', () => ({ region: 'region', toast: 'toast', text: 'text', summary: 'summary', message: 'message', dismiss: 'dismiss' }))

const { ComponentErrorBoundary, ErrorDetails } = await import('./error-boundary')
const { ToastMessage } = await import('./toast')

;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true

let container: HTMLElement
let root: Root

beforeEach(() => {
  container = document.createElement('div')
  document.body.append(container)
  root = createRoot(container)
})

afterEach(() => {
  act(() => root.unmount())
  container.remove()
  vi.useRealTimers()
  vi.restoreAllMocks()
})

const render = (element: ReactElement) => act(() => root.render(element))

describe('error boundary', () => {
  it('shows the heading and, in a collapsible block, the error text', () => {
    render(createElement(ErrorDetails, { error: new Error('The graph could not be drawn') }))
    expect(container.querySelector('h2')?.textContent).toBe('Something went wrong.')
    const details = container.querySelector('details')
    expect(details?.open).toBe(false)
    expect(details?.querySelector('summary')?.textContent).toBe('Error details')
    expect(details?.querySelector('[data-testid="error-text"]')?.textContent).toBe('The graph could not be drawn')
    expect(details?.querySelector('[data-testid="error-stack"]')?.textContent).toContain('The graph could not be drawn')
  })

  it('shows React’s component stack of a render error it catches', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined)
    function AgentGraph(): ReactElement {
      throw new Error('vis-network failed')
    }
    render(createElement(ComponentErrorBoundary, null, createElement('section', null, createElement(AgentGraph))))
    expect(container.querySelector('[role="alert"] h2')?.textContent).toBe('Something went wrong.')
    expect(container.querySelector('[data-testid="error-text"]')?.textContent).toBe('vis-network failed')
    expect(container.querySelector('[data-testid="error-component-stack"]')?.textContent).toMatch(/AgentGraph[\s\S]*section/)
  })

  it('tries again when its reset key changes', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined)
    let isBroken = true
    function Widget() {
      if (isBroken) throw new Error('broken')
      return createElement('p', null, 'working')
    }
    render(createElement(ComponentErrorBoundary, { resetKey: 1, children: createElement(Widget) }))
    expect(container.textContent).toContain('Something went wrong.')
    isBroken = false
    render(createElement(ComponentErrorBoundary, { resetKey: 2, children: createElement(Widget) }))
    expect(container.textContent).toBe('working')
  })

  it('describes an error response by its status and message, and says what happened', () => {
    const response = { status: 404, statusText: 'Not Found', internal: false, data: 'There is no page at this address.' }
    render(createElement(ErrorDetails, { error: response, headingLevel: 1 }))
    expect(container.querySelector('h1')?.textContent).toBe('Not found')
    expect(container.textContent).toContain('There is no page at this address.')
    expect(container.querySelector('[data-testid="error-text"]')?.textContent).toBe('404 Not Found: There is no page at this address.')
    // A response a loader throws has no status text.
    render(createElement(ErrorDetails, { error: { ...response, statusText: '' }, headingLevel: 1 }))
    expect(container.querySelector('[data-testid="error-text"]')?.textContent).toBe('404: There is no page at this address.')
  })

  it('names each kind of failure, with what to do, and keeps SEED’s heading for the rest', () => {
    const response = (status: number, statusText: string, message?: string) => ({ status, statusText, internal: false, data: message ? { message } : null })
    const cases: [unknown, string, string][] = [
      [response(403, 'Forbidden', 'Your role (user) does not open this page.'), 'Not allowed', 'ask an administrator'],
      [response(401, 'Unauthorized'), 'Please sign in', 'Sign in'],
      [response(503, 'Service Unavailable', 'The backend could not be reached (fetch failed)'), 'The service cannot be reached', 'Try again'],
      [response(409, 'Conflict', 'The organisation still has 3 users.'), 'That could not be done', 'still has 3 users'],
      [response(500, 'Internal Server Error'), 'Something went wrong.', 'Error details'],
      [new Error('render failed'), 'Something went wrong.', 'Error details'],
    ]
    for (const [error, heading, text] of cases) {
      render(createElement(ErrorDetails, { error, retryHref: '/articles?page=2' }))
      expect(container.querySelector('h2')?.textContent).toBe(heading)
      expect(container.textContent).toContain(text)
    }
    render(createElement(ErrorDetails, { error: response(503, 'Service Unavailable'), retryHref: '/articles?page=2' }))
    expect(container.querySelector('a')?.getAttribute('href')).toBe('/articles?page=2')
    // The backend's own message for a server failure stays in the details, never as the page's words.
    render(createElement(ErrorDetails, { error: response(503, 'Service Unavailable', 'connect ECONNREFUSED 127.0.0.1:3311') }))
    expect(container.querySelector('section > p')?.textContent).not.toContain('ECONNREFUSED')
  })
})

describe('toast', () => {
  const feedback = { summary: 'Feedback sent', message: 'Thank you for your feedback! It helps us improve.', severity: 'success' as const, life: 2000 }

  it('renders the summary and message in a status region', () => {
    render(createElement(ToastMessage, { toast: feedback }))
    const region = container.querySelector('[role="status"]')
    expect(region?.getAttribute('aria-live')).toBe('polite')
    expect(region?.textContent).toContain('Feedback sent')
    expect(region?.textContent).toContain('Thank you for your feedback! It helps us improve.')
    expect(region?.querySelector('[data-severity="success"]')).not.toBeNull()
    expect(region?.querySelector('strong')?.textContent).toBe('Success: Feedback sent')
    // A summary that is its kind is said once.
    render(createElement(ToastMessage, { toast: { ...feedback, summary: 'Success', message: 'User created' } }))
    expect(container.querySelector('[role="status"] strong')?.textContent).toBe('Success')
  })

  it('goes away after its life of 2000 ms, and a download’s after 4000 ms', () => {
    vi.useFakeTimers()
    render(createElement(ToastMessage, { toast: feedback }))
    act(() => vi.advanceTimersByTime(1999))
    expect(container.textContent).toContain('Feedback sent')
    act(() => vi.advanceTimersByTime(1))
    expect(container.textContent).not.toContain('Feedback sent')

    render(createElement(ToastMessage, { toast: { summary: 'All Ok', message: 'Query logs file downloaded', severity: 'success', life: 4000 } }))
    act(() => vi.advanceTimersByTime(3999))
    expect(container.textContent).toContain('Query logs file downloaded')
    act(() => vi.advanceTimersByTime(1))
    expect(container.textContent).not.toContain('Query logs file downloaded')
  })

  it('waits while the pointer is on it', () => {
    vi.useFakeTimers()
    render(createElement(ToastMessage, { toast: feedback }))
    const toast = container.querySelector('[data-severity]') as HTMLElement
    act(() => vi.advanceTimersByTime(1500))
    act(() => {
      toast.dispatchEvent(new MouseEvent('mouseover', { bubbles: true, relatedTarget: document.body }))
    })
    act(() => vi.advanceTimersByTime(5000))
    expect(container.textContent).toContain('Feedback sent')
    act(() => {
      toast.dispatchEvent(new MouseEvent('mouseout', { bubbles: true, relatedTarget: document.body }))
    })
    act(() => vi.advanceTimersByTime(499))
    expect(container.textContent).toContain('Feedback sent')
    act(() => vi.advanceTimersByTime(1))
    expect(container.textContent).not.toContain('Feedback sent')
  })

  it('can be dismissed once scripts run, and keeps a toast when the next data has none', () => {
    render(createElement(ToastMessage, { toast: feedback }))
    render(createElement(ToastMessage, { toast: null }))
    expect(container.textContent).toContain('Feedback sent')
    const dismiss = container.querySelector('button[aria-label="Dismiss notification"]') as HTMLButtonElement
    act(() => dismiss.click())
    expect(container.querySelector('[data-severity]')).toBeNull()
    expect(container.querySelector('[role="status"]')).not.toBeNull()
  })

  it('shows a new toast in place of the one before', () => {
    render(createElement(ToastMessage, { toast: feedback }))
    render(createElement(ToastMessage, { toast: { summary: 'Hey', message: 'You need to provide a command', severity: 'warn', life: 2000 } }))
    expect(container.textContent).toContain('You need to provide a command')
    expect(container.textContent).not.toContain('Feedback sent')
    expect(container.querySelector('[data-severity="warn"]')).not.toBeNull()
  })
})
