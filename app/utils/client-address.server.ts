import { AsyncLocalStorage } from 'node:async_hooks'

/**
 * The address of the browser whose request is being answered, as the web server (scripts/web-server.mjs) saw it.
 * Every backend call made while answering it names that address (X-Client-Address, with the API key), so the
 * backend throttles sign-ins and registrations per browser rather than counting every browser as this server.
 */
const clientAddress = new AsyncLocalStorage<string>()

/** Runs `answer` with the browser's address known to the backend calls it makes. */
export function runWithClientAddress<T>(address: string | undefined, answer: () => T): T {
  return address ? clientAddress.run(address, answer) : answer()
}

/** The header naming the browser's address, when the request came through the web server. */
export function clientAddressHeader(): Record<string, string> {
  const address = clientAddress.getStore()
  return address ? { 'x-client-address': address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '') } : {}
}
