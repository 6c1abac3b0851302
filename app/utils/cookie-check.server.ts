import { getEnv, isCookieSecure, type WebEnv } from './env.server'
import { requestProtocol } from './security-headers'

/**
 * Hosts browsers treat as secure even over plain HTTP, where they keep Secure cookies: localhost (and *.localhost),
 * 127.0.0.0/8 and ::1.
 */
export function isLocalHostname(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '')
  if (host === 'localhost' || host.endsWith('.localhost') || host === '::1') return true
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)
}

/**
 * Why sign-in cannot last at this address, or null: the session cookie is marked Secure (COOKIE_SECURE) but the
 * browser came over plain HTTP to a real host name, so it drops the cookie and every page sends it back to sign-in.
 */
export function secureCookieProblem(request: Request, env: Pick<WebEnv, 'COOKIE_SECURE' | 'NODE_ENV'> = getEnv()): string | null {
  if (!isCookieSecure(env)) return null
  if (requestProtocol(request) === 'https') return null
  if (isLocalHostname(new URL(request.url).hostname)) return null
  return (
    'Signing in cannot work at this address: it is plain HTTP, and the sign-in cookie is marked Secure (COOKIE_SECURE), ' +
    'which browsers keep only over HTTPS. Open the app over HTTPS (a proxy in front should send X-Forwarded-Proto: https), ' +
    'or have the operator set COOKIE_SECURE=false on the web server to allow signing in over plain HTTP.'
  )
}
