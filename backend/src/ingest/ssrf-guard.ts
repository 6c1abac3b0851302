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

type Address = ipaddr.IPv4 | ipaddr.IPv6

/** A block of addresses that are not globally routable unicast, with the name an administrator reads. */
interface Block {
  range: [Address, number]
  /** Noun phrase: "a loopback address". */
  description: string
}

/** IPv6 forms that carry an IPv4 address, judged by the IPv4 address they carry. */
interface CarrierBlock {
  range: [ipaddr.IPv6, number]
  form: string
  embedded: (address: ipaddr.IPv6) => ipaddr.IPv4
}

const block = (cidr: string, description: string): Block => ({ range: ipaddr.parseCIDR(cidr), description })

// The special-purpose blocks of the IANA IPv4 registry that are not globally reachable, plus multicast and the
// reserved 240/4. Order matters where blocks nest: the first match names the address.
const IPV4_BLOCKS: Block[] = [
  block('0.0.0.0/8', 'an unspecified address ("this network")'),
  block('10.0.0.0/8', 'a private address'),
  block('100.64.0.0/10', 'a shared (carrier-grade NAT) address'),
  block('127.0.0.0/8', 'a loopback address'),
  block('169.254.0.0/16', 'a link-local address'),
  block('172.16.0.0/12', 'a private address'),
  block('192.0.0.0/24', 'an IETF protocol assignment address'),
  block('192.0.2.0/24', 'a documentation address'),
  block('192.88.99.0/24', 'a 6to4 relay anycast address'),
  block('192.168.0.0/16', 'a private address'),
  block('198.18.0.0/15', 'a benchmarking address'),
  block('198.51.100.0/24', 'a documentation address'),
  block('203.0.113.0/24', 'a documentation address'),
  block('224.0.0.0/4', 'a multicast address'),
  block('255.255.255.255/32', 'a broadcast address'),
  block('240.0.0.0/4', 'a reserved address'),
]

const lastFourBytes = (address: ipaddr.IPv6) => {
  const bytes = address.toByteArray()
  return new ipaddr.IPv4(bytes.slice(12, 16))
}

const IPV6_CARRIERS: CarrierBlock[] = [
  { range: ipaddr.IPv6.parseCIDR('::ffff:0:0/96') as [ipaddr.IPv6, number], form: 'an IPv4-mapped address of', embedded: lastFourBytes },
  { range: ipaddr.IPv6.parseCIDR('64:ff9b::/96') as [ipaddr.IPv6, number], form: 'a NAT64 address of', embedded: lastFourBytes },
  {
    range: ipaddr.IPv6.parseCIDR('2002::/16') as [ipaddr.IPv6, number],
    form: 'a 6to4 address of',
    embedded: (address) => new ipaddr.IPv4(address.toByteArray().slice(2, 6)),
  },
]

// Global unicast is 2000::/3; inside it, the blocks the IANA IPv6 registry marks as not globally reachable (or
// documentation and tunnelling forms no web site lives on). Outside it, every block is named for the message.
const IPV6_BLOCKS: Block[] = [
  block('::/128', 'an unspecified address'),
  block('::1/128', 'a loopback address'),
  block('::ffff:0:0:0/96', 'an IPv4-translated address'),
  block('::/96', 'an IPv4-compatible address (a deprecated form)'),
  block('64:ff9b:1::/48', 'a local-use NAT64 address'),
  block('100::/64', 'a discard-only address'),
  block('2001::/32', 'a Teredo address'),
  block('2001:2::/48', 'a benchmarking address'),
  block('2001:10::/28', 'an ORCHID address'),
  block('2001:20::/28', 'an ORCHID address'),
  block('2001::/23', 'an IETF protocol assignment address'),
  block('2001:db8::/32', 'a documentation address'),
  block('3fff::/20', 'a documentation address'),
  block('fc00::/7', 'a private (unique local) address'),
  block('fe80::/10', 'a link-local address'),
  block('fec0::/10', 'a site-local address (a deprecated form)'),
  block('ff00::/8', 'a multicast address'),
]
const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR('2000::/3') as [ipaddr.IPv6, number]

const firstMatch = (address: Address, blocks: Block[]) => blocks.find((candidate) => address.kind() === candidate.range[0].kind() && address.match(candidate.range))

function describeIPv4(address: ipaddr.IPv4): string | undefined {
  return firstMatch(address, IPV4_BLOCKS)?.description
}

/**
 * Reads an address strictly: dotted-decimal IPv4, or IPv6 in any spelling the URL standard accepts. IPv6 text is
 * put in canonical form first, because ipaddr.js reads the IPv4-compatible `::a.b.c.d` as if it were IPv4-mapped.
 */
function parseAddress(text: string): Address | undefined {
  try {
    if (isIP(text) === 4) return ipaddr.IPv4.parse(text)
    const [bare, zone] = text.split('%', 2)
    if (isIP(bare) !== 6) return undefined
    const canonical = new URL(`http://[${bare}]/`).hostname.slice(1, -1)
    const parsed = ipaddr.IPv6.parse(canonical)
    if (zone !== undefined) parsed.zoneId = zone
    return parsed
  } catch {
    return undefined
  }
}

/**
 * Says why an address is not globally routable unicast ("a loopback address", "a NAT64 address of 10.0.0.1, a
 * private address"…), or undefined when it is. Every form is judged: IPv4 literals, IPv6, and the IPv6 forms
 * that carry an IPv4 address (mapped, NAT64, 6to4), which are judged by the address they carry.
 */
export function describeNonPublicAddress(text: string): string | undefined {
  const address = parseAddress(text)
  if (!address) return 'not a readable address'
  if (address.kind() === 'ipv4') return describeIPv4(address as ipaddr.IPv4)
  const v6 = address as ipaddr.IPv6
  for (const carrier of IPV6_CARRIERS) {
    if (!v6.match(carrier.range)) continue
    const embedded = carrier.embedded(v6)
    const inner = describeIPv4(embedded)
    return inner ? `${carrier.form} ${embedded.toString()}, ${inner}` : undefined
  }
  const named = firstMatch(v6, IPV6_BLOCKS)?.description
  if (named) return named
  if (!v6.match(GLOBAL_UNICAST_V6)) return 'a reserved address (outside global unicast)'
  // A zone names a local network interface: it has no meaning on a global address.
  return v6.zoneId ? 'an address bound to a local network interface' : undefined
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
      const description = describeNonPublicAddress(address)
      if (!description) continue
      const subject = isIP(hostname) ? `${address} is ${description}` : `${hostname} resolves to ${address}, ${description}`
      throw new FetchRefusedError(`Refused to fetch ${url.origin}: ${subject}, which this server does not fetch from unless its administrator allows private addresses`)
    }
  }
  const address = addresses[0]
  return { address, family: isIP(address) === 6 ? 6 : 4 }
}
