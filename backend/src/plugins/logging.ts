import type { FastifyServerOptions } from 'fastify'

/** Where log lines go; standard output unless a test passes its own. */
export interface LogStream {
  write(line: string): void
}

// Query parameters that carry a secret: the shared API key may be sent as ?apikey=, and nothing that grants
// access may reach a log file. Names are compared decoded and case-blind, as the query parser reads them.
const SECRET_PARAMETERS = new Set(['apikey', 'api_key', 'access_token', 'token', 'password'])
export const REDACTED = '[redacted]'

/** A request URL fit for a log line: the value of every secret query parameter replaced by [redacted]. */
export function redactUrl(url: string): string {
  const queryStart = url.indexOf('?')
  if (queryStart < 0) return url
  const fragmentStart = url.indexOf('#', queryStart)
  const query = url.slice(queryStart + 1, fragmentStart < 0 ? undefined : fragmentStart)
  const redacted = query
    .split('&')
    .map((pair) => {
      const separator = pair.indexOf('=')
      const name = separator < 0 ? pair : pair.slice(0, separator)
      return SECRET_PARAMETERS.has(decodeName(name).toLowerCase()) ? `${name}=${REDACTED}` : pair
    })
    .join('&')
  return `${url.slice(0, queryStart)}?${redacted}${fragmentStart < 0 ? '' : url.slice(fragmentStart)}`
}

function decodeName(name: string): string {
  try {
    return decodeURIComponent(name.replaceAll('+', ' '))
  } catch {
    return name
  }
}

interface LoggedRequest {
  method: string
  url: string
  host?: string
  ip?: string
  socket?: { remotePort?: number }
}

/**
 * The backend's logger: the level from LOG_LEVEL, request URLs with their secrets redacted, and the apikey,
 * authorization and cookie headers censored wherever a log line carries headers.
 */
export function loggerOptions(level: string, stream?: LogStream): FastifyServerOptions['logger'] {
  if (level === 'silent') return false
  const headerPaths = ['apikey', 'authorization', 'cookie', '["set-cookie"]'].flatMap((header) => {
    const path = header.startsWith('[') ? header : `.${header}`
    return [`req.headers${path}`, `headers${path}`, `request.headers${path}`]
  })
  return {
    level,
    ...(stream ? { stream } : {}),
    redact: { paths: headerPaths, censor: REDACTED },
    serializers: {
      req: (request: LoggedRequest) => ({
        method: request.method,
        url: redactUrl(request.url),
        host: request.host,
        remoteAddress: request.ip,
        remotePort: request.socket?.remotePort,
      }),
    },
  }
}
