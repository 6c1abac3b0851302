import type { HostResolver } from './ssrf-guard'

/**
 * A fake DNS for tests: fixed answers, and ENOTFOUND for any other name, so no test ever sends a DNS query
 * off the machine. Names that resolve into private ranges are what the SSRF tests are about.
 */
export const FAKE_DNS: Record<string, string[]> = {
  localhost: ['127.0.0.1'],
  'loopback6.test': ['::1'],
  'intranet.test': ['10.1.2.3'],
  'metadata.test': ['169.254.169.254'],
  'public.test': ['93.184.216.34'],
  'mixed.test': ['93.184.216.34', '192.168.1.10'],
}

export function createFakeResolver(answers: Record<string, string[]> = FAKE_DNS): HostResolver & { lookups: string[] } {
  const lookups: string[] = []
  const resolve = async (hostname: string) => {
    lookups.push(hostname)
    const found = answers[hostname]
    if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' })
    return found
  }
  return Object.assign(resolve, { lookups })
}
