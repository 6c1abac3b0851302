import { randomBytes } from 'node:crypto'
import { protocolOf } from './same-origin'

/**
 * The security headers of every web response: the document's Content-Security-Policy (scripts only from this origin
 * or inline with this response's nonce), no framing by any site, no MIME sniffing, no referrer to other sites,
 * no powerful browser features, and HSTS when the request came over HTTPS. Set on documents and data answers by
 * entry.server.tsx, and on everything else (files, downloads, redirects, refusals) by scripts/web-server.mjs.
 */
export interface SecurityHeaderOptions {
  /** The per-request nonce that Remix's inline scripts carry; without it no inline script runs. */
  nonce?: string
  /** Whether the browser reached us over HTTPS (directly, or as the proxy in front says). */
  isHttps?: boolean
  /** Other origins a form may be sent to (the single sign-on provider: sign-in and sign-out go there). */
  formActionOrigins?: readonly string[]
}

/** A fresh nonce for one response (128 random bits). */
export function createNonce(): string {
  return randomBytes(16).toString('base64')
}

export function securityHeaders({ nonce, isHttps = false, formActionOrigins = [] }: SecurityHeaderOptions = {}): Record<string, string> {
  const scripts = nonce ? `'self' 'nonce-${nonce}'` : `'self'`
  const policy = [
    `default-src 'self'`,
    `script-src ${scripts}`,
    // Components set some style attributes inline; styles cannot run code, scripts stay nonce-only.
    `style-src 'self' 'unsafe-inline'`,
    `img-src 'self' data: blob:`,
    `font-src 'self' data:`,
    `connect-src 'self'`,
    `object-src 'none'`,
    `base-uri 'none'`,
    `form-action ${["'self'", ...formActionOrigins].join(' ')}`,
    `frame-ancestors 'none'`,
  ].join('; ')
  return {
    'Content-Security-Policy': policy,
    'X-Frame-Options': 'DENY',
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'same-origin',
    'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=()',
    'Cross-Origin-Opener-Policy': 'same-origin',
    // Browsers ignore HSTS on plain HTTP; sending it only over HTTPS keeps a plain-HTTP test set-up reachable.
    ...(isHttps ? { 'Strict-Transport-Security': 'max-age=31536000' } : {}),
  }
}

/** Whether the request reached us over HTTPS: its own URL, or X-Forwarded-Proto / Forwarded from a proxy in front. */
export function isHttpsRequest(request: Request): boolean {
  return requestProtocol(request) === 'https'
}

/** `http` or `https` as the browser used it: the proxy's X-Forwarded-Proto or Forwarded proto=, else the URL's. */
export function requestProtocol(request: Request): 'http' | 'https' {
  return protocolOf((name) => request.headers.get(name), new URL(request.url).protocol === 'https:' ? 'https' : 'http')
}

/** Sets each header the response does not have yet (a route's own choice wins). */
export function addMissingHeaders(headers: Headers, wanted: Record<string, string>): void {
  for (const [name, value] of Object.entries(wanted)) if (!headers.has(name)) headers.set(name, value)
}
