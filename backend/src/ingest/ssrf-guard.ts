import { lookup } from 'node:dns/promises'
import { isIP } from 'node:net'
import ipaddr from 'ipaddr.js'

/** Every address a host name resolves to. Injected so tests never send a DNS query off the machine. */
export type HostResolver = (hostname: string) => Promise<string[]>

/** The system resolver (getaddrinfo), all addresses, in the order the system prefers. */
export const resolveWithSystemDns: HostResolver = async (hostname) => (await lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address)

export interface FetchPolicy {
  /** ALLOW_PRIVATE_FETCH: an administrator lets server-side fetches reach private, loopback and link-local addresses. */
  allowPrivate: boolean
  /** FETCH_ALLOW_HOSTS: `host` or `host:port` entries exempt from the check (one intranet site, say). */
  allowedHosts: string[]
}

/** A fetch the guard would not let through; nothing was sent to the address. */
export class FetchRefusedError extends Error {
  override readonly name = 'FetchRefusedError'
}

// ipaddr.js range names, in words an administrator reads in an error message.
const RANGE_LABELS: Record<string, string> = {
  loopback: 'loopback',
  private: 'private',
  linkLocal: 'link-local',
  uniqueLocal: 'private (unique local)',
  carrierGradeNat: 'shared (carrier-grade NAT)',
  unspecified: 'unspecified',
  broadcast: 'broadcast',
  multicast: 'multicast',
  reserved: 'reserved',
  rfc6052: 'NAT64',
  rfc6145: 'IPv4-translated',
  '6to4': '6to4',
  teredo: 'Teredo',
}

/** The kind of a non-public address ("loopback", "private"…), or undefined when the address is public unicast. */
export function describeNonPublicAddress(address: string): string | undefined {
  // process() turns an IPv4-mapped IPv6 address (::ffff:127.0.0.1) back into the IPv4 address it carries.
  const parsed = ipaddr.process(address)
  const range = parsed.range()
  return range === 'unicast' ? undefined : (RANGE_LABELS[range] ?? range)
}

export interface FetchTarget {
  address: string
  family: 4 | 6
}

/**
 * Checks a URL before anything is sent: http(s) only, no credentials, and, unless the policy allows it, every
 * address its host resolves to must be public. Returns the checked address, which is the one to connect to,
 * so a second resolution cannot swap in another (DNS rebinding).
 */
export async function resolveFetchTarget(url: URL, policy: FetchPolicy, resolve: HostResolver): Promise<FetchTarget> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new FetchRefusedError(`Refused to fetch ${url.href}: only http and https addresses are fetched`)
  if (url.username || url.password) throw new FetchRefusedError(`Refused to fetch ${url.origin}: addresses with credentials are not fetched`)
  const hostname = url.hostname.replace(/^\[|\]$/g, '').toLowerCase()
  const port = url.port || (url.protocol === 'https:' ? '443' : '80')
  const isExempt = policy.allowPrivate || policy.allowedHosts.includes(hostname) || policy.allowedHosts.includes(`${hostname}:${port}`)

  let addresses: string[]
  if (isIP(hostname)) {
    addresses = [hostname]
  } else {
    try {
      addresses = await resolve(hostname.replace(/\.$/, ''))
    } catch (error) {
      throw new Error(`Could not resolve ${hostname}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`)
    }
    if (addresses.length === 0) throw new Error(`Could not resolve ${hostname}: no address`)
  }
  if (!isExempt) {
    for (const address of addresses) {
      const kind = describeNonPublicAddress(address)
      if (!kind) continue
      const subject = isIP(hostname) ? `${address} is a ${kind} address` : `${hostname} resolves to ${address}, a ${kind} address`
      throw new FetchRefusedError(`Refused to fetch ${url.origin}: ${subject} (set ALLOW_PRIVATE_FETCH to allow it)`)
    }
  }
  const address = addresses[0]
  return { address, family: isIP(address) === 6 ? 6 : 4 }
}
