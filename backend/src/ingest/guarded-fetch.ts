import http, { type IncomingHttpHeaders, type IncomingMessage } from 'node:http'
import https from 'node:https'
import type { LookupFunction } from 'node:net'
import type { Readable } from 'node:stream'
import zlib from 'node:zlib'
import { FetchRefusedError, resolveFetchTarget, resolveWithSystemDns, type FetchPolicy, type HostResolver } from './ssrf-guard'

export const USER_AGENT = 'KnowledgeAssistantBot/0.1'
export const ROBOTS_AGENT = 'KnowledgeAssistantBot'

export interface FetchOptions {
  /** For the whole fetch: every redirect hop, headers and body. */
  timeoutMs: number
  /** Largest body accepted, counted after decompression. */
  maxBytes: number
  maxRedirects?: number
  accept?: string
  /** Aborts the fetch (the backend is stopping). */
  signal?: AbortSignal
  /** Says why a redirect must not be followed (say, to another site), or undefined to follow it. */
  refuseRedirect?: (target: URL) => string | undefined
}

export interface FetchedResource {
  /** The address the body came from, after redirects. */
  url: string
  status: number
  headers: IncomingHttpHeaders
  /** Media type without parameters, lower case ('' when absent). */
  mediaType: string
  charset: string | undefined
  /** Empty for answers other than 2xx: they are not read. */
  body: Buffer
}

export type FetchFailure = 'timeout' | 'too-large' | 'redirect' | 'network' | 'aborted'

/** A fetch that did not produce an answer; `kind` says why. */
export class FetchError extends Error {
  override readonly name = 'FetchError'
  constructor(
    message: string,
    readonly kind: FetchFailure,
  ) {
    super(message)
  }
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308])

/**
 * Every server-side fetch of the backend (crawler, robots.txt, transcripts) goes through here: the SSRF guard
 * runs on every hop, redirects are followed by hand so each target is checked before it is contacted, the
 * connection goes to the address that was checked, and time and decompressed size are bounded.
 */
export class GuardedFetcher {
  constructor(
    private readonly policy: FetchPolicy,
    private readonly resolve: HostResolver = resolveWithSystemDns,
  ) {}

  /** Runs the guard alone, without fetching: to refuse a bad address when it is submitted, not later in a job. */
  async check(address: string | URL): Promise<void> {
    await resolveFetchTarget(new URL(address), this.policy, this.resolve)
  }

  async fetch(address: string | URL, options: FetchOptions): Promise<FetchedResource> {
    const timeout = new AbortController()
    const timer = setTimeout(() => timeout.abort(), options.timeoutMs)
    const signal = options.signal ? AbortSignal.any([options.signal, timeout.signal]) : timeout.signal
    const chain: string[] = []
    let url = new URL(address)
    try {
      for (;;) {
        url.hash = ''
        chain.push(url.href)
        const response = await this.request(url, options, signal)
        const location = response.headers.location
        if (REDIRECT_STATUSES.has(response.statusCode ?? 0) && location) {
          response.destroy()
          const next = new URL(location, url)
          next.hash = ''
          if (chain.includes(next.href)) throw new FetchError(`Redirect loop: ${[...chain, next.href].map(shorten).join(' → ')}`, 'redirect')
          if (chain.length > (options.maxRedirects ?? 5)) throw new FetchError(`More than ${options.maxRedirects ?? 5} redirects from ${chain[0]}`, 'redirect')
          // The guard speaks first: a redirect into a private range is reported as such, whatever else is wrong with it.
          await resolveFetchTarget(next, this.policy, this.resolve).catch((error: Error) => {
            if (error instanceof FetchRefusedError) throw error
          })
          const refusal = options.refuseRedirect?.(next)
          if (refusal) throw new FetchError(refusal, 'redirect')
          url = next
          continue
        }
        const status = response.statusCode ?? 0
        const [mediaType, ...parameters] = String(response.headers['content-type'] ?? '').split(';')
        const charset = parameters.map((parameter) => /^\s*charset=["']?([^"';\s]+)/i.exec(parameter)?.[1]).find(Boolean)
        let body: Buffer = Buffer.alloc(0)
        if (status >= 200 && status < 300) body = await readBody(response, options.maxBytes)
        else response.destroy()
        return { url: url.href, status, headers: response.headers, mediaType: mediaType.trim().toLowerCase(), charset, body }
      }
    } catch (error) {
      if (timeout.signal.aborted) throw new FetchError(`No complete answer from ${shorten(url.href)} within ${options.timeoutMs} ms`, 'timeout')
      if (options.signal?.aborted) throw new FetchError('The fetch was interrupted', 'aborted')
      throw error
    } finally {
      clearTimeout(timer)
    }
  }

  /** One hop: checks the target, then connects to exactly the address that was checked. */
  private async request(url: URL, options: FetchOptions, signal: AbortSignal): Promise<IncomingMessage> {
    const target = await resolveFetchTarget(url, this.policy, this.resolve).catch((error: Error) => {
      if (error instanceof FetchRefusedError) throw error
      throw new FetchError(error.message, 'network')
    })
    signal.throwIfAborted()
    const pinnedLookup: LookupFunction = (_hostname, lookupOptions, callback) => {
      if (lookupOptions.all) callback(null, [target])
      else callback(null, target.address, target.family)
    }
    const transport = url.protocol === 'https:' ? https : http
    return new Promise<IncomingMessage>((resolve, reject) => {
      const request = transport.request(url, {
        method: 'GET',
        // A fresh connection per hop: a pooled socket could belong to an address checked for another name.
        agent: false,
        lookup: pinnedLookup,
        signal,
        headers: {
          'user-agent': USER_AGENT,
          accept: options.accept ?? '*/*',
          'accept-encoding': 'gzip, deflate, br',
        },
      })
      request.once('response', resolve)
      request.once('error', (error) => reject(signal.aborted ? error : new FetchError(`Could not fetch ${shorten(url.href)}: ${describeNetworkError(error)}`, 'network')))
      request.end()
    })
  }
}

/** Reads a body, decompressing it, and stops as soon as it passes `maxBytes` (a zip bomb stops there too). */
async function readBody(response: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const declared = Number(response.headers['content-length'])
  const encoding = String(response.headers['content-encoding'] ?? 'identity').trim().toLowerCase()
  if (encoding === 'identity' && Number.isFinite(declared) && declared > maxBytes) {
    response.destroy()
    throw new FetchError(`The answer is ${declared} bytes, more than the limit of ${maxBytes}`, 'too-large')
  }
  let stream: Readable = response
  if (encoding === 'gzip' || encoding === 'x-gzip') stream = response.pipe(zlib.createGunzip())
  else if (encoding === 'deflate') stream = response.pipe(zlib.createInflate())
  else if (encoding === 'br') stream = response.pipe(zlib.createBrotliDecompress())
  else if (encoding !== 'identity' && encoding !== '') {
    response.destroy()
    throw new FetchError(`The answer uses an unknown content encoding (${encoding})`, 'network')
  }
  const chunks: Buffer[] = []
  let size = 0
  try {
    for await (const chunk of stream) {
      size += (chunk as Buffer).length
      if (size > maxBytes) throw new FetchError(`The answer is larger than the limit of ${maxBytes} bytes`, 'too-large')
      chunks.push(chunk as Buffer)
    }
  } catch (error) {
    response.destroy()
    stream.destroy()
    if (error instanceof FetchError) throw error
    throw new FetchError(`The answer could not be read: ${(error as Error).message}`, 'network')
  }
  return Buffer.concat(chunks)
}

function describeNetworkError(error: Error): string {
  const code = (error as NodeJS.ErrnoException).code
  return code ? `${code}${error.message && !error.message.includes(code) ? ` (${error.message})` : ''}` : error.message
}

/** A URL cut to a length fit for an error message. */
function shorten(href: string): string {
  return href.length > 200 ? `${href.slice(0, 197)}…` : href
}

/** Text of a fetched body in its declared charset (UTF-8 when none or unknown). */
export function decodeBody(resource: FetchedResource): string {
  try {
    return new TextDecoder(resource.charset ?? 'utf-8').decode(resource.body)
  } catch {
    return new TextDecoder('utf-8').decode(resource.body)
  }
}
