import { randomBytes } from 'node:crypto'
import { z } from 'zod'

const booleanString = z.enum(['true', 'false', '1', '0']).transform((value) => value === 'true' || value === '1')

const WebEnv = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  API_BASE_URL: z.string().url().default('http://127.0.0.1:3001'),
  API_KEY: z.string().min(8, 'API_KEY must be at least 8 characters'),
  API_TIMEOUT_MS: z.coerce.number().int().positive().default(300_000),
  SESSION_SECRET: z.string().min(16).optional(),
  AUTH_ENABLED: booleanString.default(false),
  OIDC_AUTHORITY: z.string().url().optional(),
  OIDC_CLIENT_ID: z.string().optional(),
  OIDC_REDIRECT_URI: z.string().url().optional(),
  OIDC_CLIENT_SECRET: z.string().optional(),
  OIDC_SCOPES: z.string().default('openid profile email offline_access'),
  OIDC_POST_LOGOUT_REDIRECT_URI: z.string().url().optional(),
  ADMIN_USERNAME: z.string().min(1).default('admin'),
  ADMIN_PASSWORD: z.string().min(8, 'ADMIN_PASSWORD must be at least 8 characters').optional(),
  /** Whether cookies carry Secure (sent back over HTTPS only): auto = in production. */
  COOKIE_SECURE: z.enum(['auto', 'true', 'false', '1', '0']).default('auto'),
  SPONSOR_THEME: z.string().default('default'),
  TARGET: z.enum(['agent', 'expert']).default('agent'),
})

export type WebEnv = z.infer<typeof WebEnv> & { SESSION_SECRET: string }

/** Whether sign-in through the single sign-on provider is configured (AUTH_ENABLED=true with authority, client and callback). */
export function isSingleSignOnEnabled(env: WebEnv): boolean {
  return env.AUTH_ENABLED && Boolean(env.OIDC_AUTHORITY && env.OIDC_CLIENT_ID && env.OIDC_REDIRECT_URI)
}

/** Whether the session and sign-in cookies are marked Secure: COOKIE_SECURE, or with `auto` when NODE_ENV=production. */
export function isCookieSecure(env: Pick<WebEnv, 'COOKIE_SECURE' | 'NODE_ENV'>): boolean {
  if (env.COOKIE_SECURE === 'auto') return env.NODE_ENV === 'production'
  return env.COOKIE_SECURE === 'true' || env.COOKIE_SECURE === '1'
}

let cached: WebEnv | undefined

/** The web server's configuration; the only module of the web app that reads process.env. Never sent to the browser. */
export function getEnv(): WebEnv {
  if (cached) return cached
  const cleaned = Object.fromEntries(Object.entries(process.env).filter(([, value]) => value !== undefined && value !== ''))
  const parsed = WebEnv.safeParse(cleaned)
  if (!parsed.success) {
    throw new Error(`Invalid web configuration: ${parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`)
  }
  if (!parsed.data.SESSION_SECRET && parsed.data.NODE_ENV === 'production') {
    throw new Error('Invalid web configuration: SESSION_SECRET is required in production')
  }
  if (!parsed.data.AUTH_ENABLED && !parsed.data.ADMIN_PASSWORD) {
    throw new Error('Invalid web configuration: with AUTH_ENABLED=false the web server acts as the local administrator and needs ADMIN_PASSWORD')
  }
  if (parsed.data.AUTH_ENABLED) {
    // Single sign-on needs all three of these; some but not all is a mistake, never a quiet fallback to local accounts.
    const sso = { OIDC_AUTHORITY: parsed.data.OIDC_AUTHORITY, OIDC_CLIENT_ID: parsed.data.OIDC_CLIENT_ID, OIDC_REDIRECT_URI: parsed.data.OIDC_REDIRECT_URI }
    const missing = Object.entries(sso).filter(([, value]) => !value).map(([name]) => name)
    if (missing.length > 0 && missing.length < 3) {
      throw new Error(`Invalid web configuration: single sign-on also needs ${missing.join(', ')} (or unset all OIDC_* for local accounts only)`)
    }
    if (missing.length === 0 && !parsed.data.OIDC_SCOPES.split(/\s+/).includes('openid')) {
      throw new Error('Invalid web configuration: OIDC_SCOPES must include openid')
    }
  }
  // Without a configured secret (development), sessions last as long as this process.
  cached = { ...parsed.data, SESSION_SECRET: parsed.data.SESSION_SECRET ?? randomBytes(32).toString('hex') }
  return cached
}
