/**
 * Whether a state-changing request comes from this site's own pages: its Origin must be this site's origin, scheme,
 * host and port, as the browser addressed it. Used by the app (assertSameOrigin in auth.server.ts) and, before Remix,
 * by the web server (scripts/web-server.mjs, through the build's entry module), so both judge alike. No Node-only code.
 */

export const CROSS_SITE_MESSAGE = 'This form was sent from another site and was refused.'
export const UNREADABLE_ORIGIN_MESSAGE = 'This request names an origin that cannot be read, and was refused.'

/** A request as the check reads it, whichever server holds it (a Fetch API Request, or Express's). */
export interface OriginCheck {
  method: string
  /** A request header by its lower-case name; null or undefined without it. */
  header(name: string): string | null | undefined
  /** The scheme of the connection that reached this server (a proxy in front may say another: see protocolOf). */
  protocol: 'http' | 'https'
  /** The host (and port) the browser addressed, as this server reads it. */
  host: string | null | undefined
}

const READING_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/**
 * `http` or `https` as the browser used it: what a proxy in front says (X-Forwarded-Proto, else Forwarded proto=; the
 * first hop's), else the connection's. A cross-site page cannot make a browser send these headers (they are not
 * CORS-safelisted), so trusting them here never lets another site's post through.
 */
export function protocolOf(header: OriginCheck['header'], connection: 'http' | 'https'): 'http' | 'https' {
  const forwarded = header('x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase()
  if (forwarded === 'https' || forwarded === 'http') return forwarded
  const standard = /(?:^|[;,\s])proto=("?)(https?)\1/i.exec(header('forwarded') ?? '')?.[2]?.toLowerCase()
  if (standard === 'https' || standard === 'http') return standard
  return connection
}

/**
 * Why a state-changing request counts as sent from another site, or null: the browser says Sec-Fetch-Site:
 * cross-site, or its Origin is opaque (`null`), unreadable, or another origin than this site's (another scheme, host or
 * port: a page at http://host may not post to https://host). Without an Origin nothing says it is foreign (SameSite=Lax
 * keeps the session cookie off cross-site posts anyway).
 */
export function crossSiteReason(request: OriginCheck): string | null {
  if (READING_METHODS.has(request.method.toUpperCase())) return null
  if (request.header('sec-fetch-site') === 'cross-site') return CROSS_SITE_MESSAGE
  const origin = request.header('origin')
  if (origin === null || origin === undefined) return null
  if (origin === 'null') return CROSS_SITE_MESSAGE
  let sent: URL
  try {
    sent = new URL(origin)
  } catch {
    return UNREADABLE_ORIGIN_MESSAGE
  }
  const own = ownOrigin(protocolOf(request.header, request.protocol), request.host)
  if (own === null) return CROSS_SITE_MESSAGE
  if (sent.origin === own.origin) return null
  // The same host reached over HTTPS while this server believes it plain HTTP: a proxy that does not say so.
  if (sent.host === own.host && sent.protocol === 'https:' && own.protocol === 'http:') {
    return `${CROSS_SITE_MESSAGE} It came from ${sent.origin}, and this server was reached as ${own.origin}: a proxy that serves this site over HTTPS must send X-Forwarded-Proto: https.`
  }
  return CROSS_SITE_MESSAGE
}

function ownOrigin(protocol: 'http' | 'https', host: string | null | undefined): URL | null {
  if (!host) return null
  try {
    const url = new URL(`${protocol}://${host}`)
    // A Host header with more than a host and port (a path, credentials) is no address of this site.
    return url.pathname === '/' && !url.username && !url.password && !url.search && !url.hash ? url : null
  } catch {
    return null
  }
}
