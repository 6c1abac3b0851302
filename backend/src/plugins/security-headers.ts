import helmet from '@fastify/helmet'
import type { FastifyInstance } from 'fastify'

/**
 * The API answers JSON and files, never pages to render: nothing may load from it, frame it, or sniff its types.
 * The same policy is sent by hand on the few answers Fastify gives before any hook runs (a malformed URL).
 */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"

/** The documentation pages (Swagger UI at /docs): their own scripts, styles and the OpenAPI document, nothing else. */
export const DOCS_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; " +
  "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"

/** Headers for an answer sent outside the hooks (see API_CSP). */
export const BASELINE_HEADERS: Record<string, string> = {
  'content-security-policy': API_CSP,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-resource-policy': 'same-origin',
}

/**
 * Security headers on every answer, through @fastify/helmet: the strict policy above, X-Frame-Options DENY,
 * nosniff, Referrer-Policy no-referrer, HSTS (honoured by browsers only over HTTPS), and helmet's other defaults.
 * Registered before every other hook, so that refusals (a missing apikey, a missing token) carry them too.
 */
export async function registerSecurityHeaders(app: FastifyInstance): Promise<void> {
  await app.register(helmet, {
    global: true,
    contentSecurityPolicy: {
      useDefaults: false,
      directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"], baseUri: ["'none'"], formAction: ["'none'"] },
    },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
  })
}
