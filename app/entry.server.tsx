import { PassThrough } from 'node:stream'
import type { AppLoadContext, EntryContext, HandleDataRequestFunction, HandleErrorFunction } from '@remix-run/node'
import { createReadableStreamFromReadable } from '@remix-run/node'
import { isRouteErrorResponse, RemixServer } from '@remix-run/react'
import { isbot } from 'isbot'
import { renderToPipeableStream } from 'react-dom/server'
import { getEnv, isSingleSignOnEnabled } from '~/utils/env.server'
import { NonceContext } from '~/utils/nonce'
import { setPlainFormMessages } from '~/utils/plain-form-messages'
import { addMissingHeaders, createNonce, isHttpsRequest, securityHeaders } from '~/utils/security-headers'

// Schema messages no form wrote itself read as a person's words (a crafted post's answer).
setPlainFormMessages()

// scripts/web-server.mjs sets these headers on every answer that does not carry them already (files, downloads,
// its own refusals) with the nonce it passed in the load context; exported here so it uses this same code.
export { createNonce, securityHeaders } from '~/utils/security-headers'
// And it runs every request with the browser's address, which backend calls name (client-address.server.ts).
export { runWithClientAddress } from '~/utils/client-address.server'
// The web server's own refusal of cross-site posts judges as the app does (scripts/web-server.mjs).
export { crossSiteReason } from '~/utils/same-origin'

const ABORT_DELAY = 5_000

/**
 * Pages and data answers are the signed-in person's own (their questions, answers, saved queries): the browser keeps
 * none of them, so after Sign out its Back button asks again (and lands on sign-in) instead of showing the last
 * person's pages on a shared computer. A route that says otherwise (its own Cache-Control) wins.
 */
const NOT_KEPT = { 'Cache-Control': 'private, no-store' }

/** What scripts/web-server.mjs passes to every request: the nonce of this response's Content-Security-Policy. */
interface WebLoadContext {
  cspNonce?: string
}

/** The headers for this request: the nonce from the web server, or a new one when run without it (remix-serve). */
function headersFor(request: Request, nonce: string | undefined) {
  const env = getEnv()
  return securityHeaders({
    nonce,
    isHttps: isHttpsRequest(request),
    formActionOrigins: isSingleSignOnEnabled(env) ? [new URL(env.OIDC_AUTHORITY!).origin] : [],
  })
}

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const nonce = (loadContext as WebLoadContext).cspNonce ?? createNonce()
  for (const [name, value] of Object.entries(headersFor(request, nonce))) responseHeaders.set(name, value)
  addMissingHeaders(responseHeaders, NOT_KEPT)
  // Bots get the whole page at once; browsers get the shell as soon as it is ready.
  const readyEvent = isbot(request.headers.get('user-agent') ?? '') || remixContext.isSpaMode ? 'onAllReady' : 'onShellReady'
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false
    const { pipe, abort } = renderToPipeableStream(
      <NonceContext.Provider value={nonce}>
        <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce} />
      </NonceContext.Provider>,
      {
        nonce,
        [readyEvent]() {
          shellRendered = true
          const body = new PassThrough()
          responseHeaders.set('Content-Type', 'text/html; charset=utf-8')
          resolve(new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status: responseStatusCode }))
          pipe(body)
        },
        onShellError(error: unknown) {
          reject(error)
        },
        onError(error: unknown) {
          responseStatusCode = 500
          // Errors of the first render are logged by Remix when it renders the error boundary instead.
          if (shellRendered) console.error(error)
        },
      },
    )
    setTimeout(abort, ABORT_DELAY)
  })
}

/** Answers to the browser's data requests (client navigation, fetchers) and their redirects carry the headers too. */
export const handleDataRequest: HandleDataRequestFunction = (response, { request, context }) => {
  const wanted = { ...headersFor(request, (context as WebLoadContext).cspNonce), ...NOT_KEPT }
  try {
    addMissingHeaders(response.headers, wanted)
    return response
  } catch {
    // A response with immutable headers (one passed through from fetch): copy it.
    const headers = new Headers(response.headers)
    addMissingHeaders(headers, wanted)
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers })
  }
}

/** Logs what went wrong on the server, except requests the browser gave up on. */
export const handleError: HandleErrorFunction = (error, { request }) => {
  if (request.signal.aborted) return
  console.error(isRouteErrorResponse(error) && 'error' in error && error.error ? error.error : error)
}
