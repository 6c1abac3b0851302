// The web server: the Remix build behind Express, as remix-serve runs it (compressed answers, build assets cached for a
// year, public files for an hour, a line per request), plus what must hold for every answer, before Remix sees it:
// - demo mode (sign-in off) is refused on anything but loopback unless explicitly allowed (start-checks.mjs);
// - every answer carries the security headers (Content-Security-Policy with a per-request nonce that Remix's inline
//   scripts carry, no framing, nosniff, Referrer-Policy, Permissions-Policy, HSTS over HTTPS): files, downloads,
//   redirects and refusals as well as pages (the header values come from the build: app/utils/security-headers.ts);
// - a state-changing request from another site (another origin: scheme, host or port) is refused with 403 and a reason
//   (Remix's own check would answer an empty 500);
// - the backend calls made for a request name the browser's address (X-Client-Address; TRUST_PROXY for proxies in
//   front), so the backend's per-address sign-in limits count browsers, not this server.
// Usage: node scripts/web-server.mjs build/server/index.js   (HOST, default 127.0.0.1; PORT, default 3000)
import { createRequire } from 'node:module'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { checkDemoExposure, isOn } from './start-checks.mjs'

process.env.NODE_ENV ??= 'production'
const host = process.env.HOST || '127.0.0.1'
const port = Number(process.env.PORT || 3000)

const exposure = checkDemoExposure({ ...process.env, HOST: host })
if (!exposure.ok) {
  console.error(exposure.error)
  process.exit(1)
}
if (exposure.warning) console.error(exposure.warning)

// remix-serve's server stack, resolved as remix-serve itself resolves it (they are its dependencies).
const requireFromServe = createRequire(createRequire(import.meta.url).resolve('@remix-run/serve/package.json'))
const express = requireFromServe('express')
const compression = requireFromServe('compression')
const morgan = requireFromServe('morgan')
const { createRequestHandler, installGlobals, writeReadableStreamToWritable } = requireFromServe('@remix-run/node')

const buildPath = path.resolve(process.argv[2] ?? 'build/server/index.js')
const build = await import(pathToFileURL(buildPath).href)
installGlobals({ nativeFetch: build.future.v3_singleFetch })
const { createNonce, crossSiteReason, runWithClientAddress, securityHeaders } = build.entry.module
// A build made before this script last changed lacks what it uses: say so at start, not with a 500 on every page.
const missing = Object.entries({ createNonce, crossSiteReason, runWithClientAddress, securityHeaders })
  .filter(([, value]) => typeof value !== 'function')
  .map(([name]) => name)
if (missing.length > 0) {
  console.error(`[web-server] ${buildPath} is older than scripts/web-server.mjs (it has no ${missing.join(', ')}): run npm run build, or start with npm start, which builds first.`)
  process.exit(1)
}
const handleRemixRequest = createRequestHandler(build, process.env.NODE_ENV)

/** Single sign-on sends forms on to the provider (sign-in, sign-out): the policy allows that one origin too. */
const formActionOrigins = (() => {
  if (!isOn(process.env.AUTH_ENABLED) || !process.env.OIDC_AUTHORITY) return []
  try {
    return [new URL(process.env.OIDC_AUTHORITY).origin]
  } catch {
    return []
  }
})()

/** For HSTS only (browsers ignore it over plain HTTP): the connection, or what a proxy in front says. */
const isHttps = (req) => req.secure || (req.get('x-forwarded-proto') ?? '').split(',')[0].trim().toLowerCase() === 'https'

/** The security headers for this request, with the nonce its page's inline scripts carry. */
function headersFor(req, res) {
  res.locals.cspNonce ??= createNonce()
  return securityHeaders({ nonce: res.locals.cspNonce, isHttps: isHttps(req), formActionOrigins })
}

function setSecurityHeaders(req, res) {
  for (const [name, value] of Object.entries(headersFor(req, res))) res.setHeader(name, value)
}

/**
 * Why a state-changing request counts as sent from another site, or null (the app's own rule, from the build:
 * app/utils/same-origin.ts): the browser says Sec-Fetch-Site: cross-site, or the Origin is unreadable, opaque (`null`)
 * or another origin than this site's: another scheme (as the connection, or a proxy's X-Forwarded-Proto, says), or
 * another host and port than X-Forwarded-Host or Host.
 */
function crossSiteReasonOf(req) {
  return crossSiteReason({
    method: req.method,
    header: (name) => req.get(name),
    protocol: req.protocol === 'https' ? 'https' : 'http',
    host: req.get('x-forwarded-host')?.split(',')[0]?.trim() || req.get('host'),
  })
}

/** A refusal in the form the client asked for: JSON for data requests and API clients, else a small HTML page. */
function refuse(req, res, status, message) {
  setSecurityHeaders(req, res)
  const wantsJson = '_data' in req.query || (req.accepts(['html', 'json']) === 'json')
  res.status(status)
  if (wantsJson) {
    if ('_data' in req.query) res.setHeader('X-Remix-Catch', 'yes')
    res.json({ message })
    return
  }
  const escaped = message.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`)
  res
    .type('html')
    .send(
      `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${status} ${res.statusMessage || 'Refused'}</title></head>` +
        `<body><main><h1>Something went wrong.</h1><p>${escaped}</p><p><a href="/ask">Back to the assistant</a></p></main></body></html>`,
    )
}

/**
 * TRUST_PROXY: which proxies in front may tell the browser's address and scheme (X-Forwarded-For, -Proto): unset or
 * false (none: the address is the connection's), true (any), a number of hops, or addresses and subnets (for example
 * `loopback` or `10.0.0.0/8`), as Express reads it.
 */
function trustProxySetting(value) {
  const text = String(value ?? '').trim()
  if (!text || /^(false|0)$/i.test(text)) return false
  if (/^true$/i.test(text)) return true
  if (/^\d+$/.test(text)) return Number(text)
  return text
}

const app = express()
app.disable('x-powered-by')
app.set('trust proxy', trustProxySetting(process.env.TRUST_PROXY))
app.use(compression())
const staticHeaders = (res) => setSecurityHeaders(res.req, res)
app.use(build.publicPath, express.static(build.assetsBuildDirectory, { immutable: true, maxAge: '1y', setHeaders: staticHeaders }))
app.use(express.static('public', { maxAge: '1h', setHeaders: staticHeaders }))
app.use(morgan('tiny'))

/** For start-up checks and container health checks: answers without the backend or a session. */
app.get('/healthz', (req, res) => {
  setSecurityHeaders(req, res)
  res.type('text/plain').send('ok')
})

app.use((req, res, next) => {
  const reason = crossSiteReasonOf(req)
  if (reason) refuse(req, res, 403, reason)
  else next()
})

/**
 * The request's body as a stream Remix reads as it needs, and a way to read and drop what it left unread once the
 * answer is sent: an answer before the whole body arrived (a refusal, a redirect to sign-in) must not end the
 * connection under a browser still sending, which would then see a reset instead of the answer.
 */
function requestBody(req) {
  let isDone = false
  const onData = (chunk) => {
    controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength))
    if ((controller.desiredSize ?? 0) <= 0) req.pause()
  }
  const onEnd = () => {
    if (!isDone) controller.close()
    isDone = true
  }
  const onError = (error) => {
    if (!isDone) controller.error(error)
    isDone = true
  }
  let controller
  const stream = new ReadableStream(
    {
      start(streamController) {
        controller = streamController
        req.on('data', onData)
        req.once('end', onEnd)
        req.once('error', onError)
      },
      pull() {
        req.resume()
      },
      cancel() {
        discardRest()
      },
    },
    { highWaterMark: 64 * 1024, size: (chunk) => chunk.byteLength },
  )
  function discardRest() {
    req.off('data', onData)
    isDone = true
    if (!req.complete) req.resume()
  }
  return { stream, discardRest }
}

/** The Fetch API request Remix handles, for an Express request (aborted when the browser goes away first). */
function toFetchRequest(req, res, body) {
  // Joined as text: a path such as //other.example/x stays a path on this host.
  const url = new URL(`${req.protocol}://${req.get('host') || `${host}:${port}`}${req.originalUrl}`)
  const headers = new Headers()
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const item of value) headers.append(name, item)
    else if (value !== undefined) headers.set(name, value)
  }
  const controller = new AbortController()
  res.on('close', () => {
    if (!res.writableFinished) controller.abort()
  })
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD'
  return new Request(url.href, {
    method: req.method,
    headers,
    signal: controller.signal,
    ...(hasBody ? { body: body.stream, duplex: 'half' } : {}),
  })
}

/** Sends Remix's answer, adding each security header it does not carry itself (a page's own policy, with its nonce, wins). */
async function sendAnswer(res, answer, wanted) {
  res.statusMessage = answer.statusText
  res.status(answer.status)
  for (const [name, value] of answer.headers.entries()) {
    if (name.toLowerCase() === 'set-cookie') continue
    res.append(name, value)
  }
  const cookies = typeof answer.headers.getSetCookie === 'function' ? answer.headers.getSetCookie() : (answer.headers.raw?.()['set-cookie'] ?? [])
  for (const cookie of cookies) res.append('Set-Cookie', cookie)
  for (const [name, value] of Object.entries(wanted)) if (!answer.headers.has(name)) res.setHeader(name, value)
  if (answer.body) await writeReadableStreamToWritable(answer.body, res)
  else res.end()
}

app.all('*', async (req, res, next) => {
  const body = requestBody(req)
  try {
    const wanted = headersFor(req, res)
    // The backend throttles sign-ins per browser: its calls for this request name the browser's address.
    const answer = await runWithClientAddress(req.ip, () => handleRemixRequest(toFetchRequest(req, res, body), { cspNonce: res.locals.cspNonce }))
    await sendAnswer(res, answer, wanted)
  } catch (error) {
    next(error)
  } finally {
    body.discardRest()
  }
})

// Whatever failed outside Remix's own handling: a plain 500 that still carries the headers, details in the log.
app.use((error, req, res, _next) => {
  console.error(error)
  if (res.headersSent) {
    res.end()
    return
  }
  refuse(req, res, 500, 'The web server could not answer this request.')
})

const server = app.listen(port, host, () => {
  console.log(`[web-server] http://${host.includes(':') ? `[${host}]` : host}:${port}`)
})
for (const signal of ['SIGTERM', 'SIGINT']) process.once(signal, () => server.close(() => process.exit(0)))
