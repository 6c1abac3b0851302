import { createHash } from 'node:crypto'
import type { AuthSession } from './session.server'

/**
 * Renewals by the token they replace, kept a while. Loaders run in parallel and a renewed cookie can lose the race
 * against another response's cookie; with this, a request that still carries the old session gets the renewal that
 * already happened instead of renewing twice (a provider that rotates refresh tokens would end the grant on reuse),
 * and a cookie committed for it carries the renewal (session.server.ts), never the replaced token and its nearer end.
 * One web process: several instances behind a load balancer each keep their own (see ADR 040).
 */
const renewals = new Map<string, { renewed: Promise<AuthSession | null>; at: number }>()
const RENEWAL_MEMORY_MS = 30 * 60_000

function renewalKey(auth: AuthSession): string {
  return createHash('sha256')
    .update(`${auth.kind}:${auth.refreshToken ?? auth.token}`)
    .digest('base64url')
}

/** The newest session known for a stored one: follows renewals that happened after its cookie was written. */
export async function latestOf(auth: AuthSession): Promise<AuthSession> {
  let current = auth
  for (let hop = 0; hop < 10; hop++) {
    const renewal = renewals.get(renewalKey(current))
    const next = renewal ? await renewal.renewed : null
    if (!next) break
    current = next
  }
  return current
}

/** Renews a session with `renewWith` once, however many requests ask at the same time; null when it cannot be renewed. */
export function renewOnce(auth: AuthSession, renewWith: (auth: AuthSession) => Promise<AuthSession | null>): Promise<AuthSession | null> {
  const now = Date.now()
  for (const [key, renewal] of renewals) if (now - renewal.at > RENEWAL_MEMORY_MS) renewals.delete(key)
  const key = renewalKey(auth)
  const known = renewals.get(key)
  if (known) return known.renewed
  const renewed = renewWith(auth).catch(() => null)
  renewals.set(key, { renewed, at: now })
  // A failure is not remembered: the next request may try again (the provider may be back).
  void renewed.then((result) => {
    if (!result) renewals.delete(key)
  })
  return renewed
}
