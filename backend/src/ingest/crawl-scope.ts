import robotsParser from 'robots-parser'
import { FetchError, ROBOTS_AGENT, type GuardedFetcher } from './guarded-fetch'
import { FetchRefusedError } from './ssrf-guard'

export type LinkVerdict = { isAllowed: true } | { isAllowed: false; reason: string }

type Robots = ReturnType<typeof robotsParser>

/**
 * What a crawl may visit: the start URL's site only (same scheme, host and port), not matching any exclusion
 * pattern, and allowed by the site's robots.txt.
 */
export class CrawlScope {
  private readonly origin: string
  private readonly patterns: Array<{ source: string; expression: ExclusionPattern }>

  constructor(
    startUrl: string,
    excludePatterns: string[],
    private readonly robots: Robots,
  ) {
    this.origin = new URL(startUrl).origin
    this.patterns = excludePatterns.map((source) => ({ source, expression: compileExclusion(source) }))
  }

  isSameSite(url: string | URL): boolean {
    return new URL(url).origin === this.origin
  }

  judge(url: string): LinkVerdict {
    if (!this.isSameSite(url)) return { isAllowed: false, reason: 'on another site' }
    const parsed = new URL(url)
    const target = parsed.pathname + parsed.search
    const pattern = this.patterns.find((candidate) => candidate.expression.test(target) || candidate.expression.test(url))
    if (pattern) return { isAllowed: false, reason: `matches the exclusion pattern "${pattern.source}"` }
    if (this.robots.isDisallowed(url, ROBOTS_AGENT)) return { isAllowed: false, reason: 'disallowed by robots.txt' }
    return { isAllowed: true }
  }

  /** Seconds robots.txt asks between requests, capped so a hostile value cannot stall a crawl. */
  crawlDelaySeconds(cap: number): number {
    return Math.min(this.robots.getCrawlDelay(ROBOTS_AGENT) ?? 0, cap)
  }
}

/** An exclusion pattern, ready to test addresses against. */
export interface ExclusionPattern {
  test(text: string): boolean
}

/**
 * An exclusion pattern: `*` matches any run of characters and the pattern must then match the whole path and
 * query (or the whole URL); without a `*` it matches anywhere in the URL's path and query ("/private" excludes
 * /private/a and /x/private). Every other character stands for itself. Compared without regard to case.
 * Matched without a regular expression, in time bounded by the lengths of pattern and address (ADR 301).
 */
export function compileExclusion(pattern: string): ExclusionPattern {
  const folded = foldCase(pattern)
  if (!pattern.includes('*')) return { test: (text) => foldCase(text).includes(folded) }
  return { test: (text) => matchesGlob(folded, foldCase(text)) }
}

/**
 * Whether `text` as a whole matches `pattern`, whose `*` matches any run of characters but a line break (none is
 * left in a parsed URL). Two cursors: on a mismatch only the last `*` met takes one more character, so the work is
 * at most the product of the two lengths, whatever the pattern.
 */
export function matchesGlob(pattern: string, text: string): boolean {
  let p = 0
  let t = 0
  let star = -1
  let starEnd = 0
  while (t < text.length) {
    if (pattern[p] === '*') {
      star = p++
      starEnd = t
    } else if (p < pattern.length && pattern[p] === text[t]) {
      p++
      t++
    } else if (star >= 0 && !isLineBreak(text[starEnd])) {
      // A line break is matched only by the same character in the pattern: no earlier `*` could take it either.
      p = star + 1
      t = ++starEnd
    } else {
      return false
    }
  }
  while (pattern[p] === '*') p++
  return p === pattern.length
}

const isLineBreak = (character: string) => character === '\n' || character === '\r' || character === '\u2028' || character === '\u2029'

/** Each UTF-16 unit to its upper case when that is one unit, not turning a non-ASCII one into ASCII (as /i compares). */
function foldCase(text: string): string {
  let folded = ''
  for (const unit of text.split('')) {
    const upper = unit.toUpperCase()
    folded += upper.length === 1 && !(unit.charCodeAt(0) >= 128 && upper.charCodeAt(0) < 128) ? upper : unit
  }
  return folded
}

/**
 * The robots.txt of the start URL's site (RFC 9309): missing (4xx) allows everything; unreachable or a
 * server error disallows everything, with the reason recorded for the pages it keeps out.
 */
export async function loadRobots(
  startUrl: string,
  fetcher: GuardedFetcher,
  options: { timeoutMs: number; signal?: AbortSignal },
): Promise<{ robots: Robots; problem?: string }> {
  const robotsUrl = new URL('/robots.txt', startUrl).href
  const disallowAll = (problem: string) => ({ robots: robotsParser(robotsUrl, 'User-agent: *\nDisallow: /\n'), problem })
  try {
    const answer = await fetcher.fetch(robotsUrl, {
      timeoutMs: options.timeoutMs,
      maxBytes: 512 * 1024,
      accept: 'text/plain',
      signal: options.signal,
      // RFC 9309 lets a crawler follow robots.txt redirects; within the same site keeps it simple and safe.
      refuseRedirect: (target) => (target.origin === new URL(startUrl).origin ? undefined : 'robots.txt redirects to another site'),
    })
    if (answer.status >= 200 && answer.status < 300) return { robots: robotsParser(robotsUrl, answer.body.toString('utf8')) }
    if (answer.status >= 400 && answer.status < 500) return { robots: robotsParser(robotsUrl, '') }
    return disallowAll(`robots.txt answered HTTP ${answer.status}`)
  } catch (error) {
    if (error instanceof FetchError && error.kind === 'aborted') throw error
    if (error instanceof FetchRefusedError) return disallowAll(error.message)
    return disallowAll(`robots.txt could not be fetched: ${(error as Error).message}`)
  }
}
