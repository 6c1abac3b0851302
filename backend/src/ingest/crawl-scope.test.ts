import robotsParser from 'robots-parser'
import { describe, expect, it } from 'vitest'
import { compileExclusion, CrawlScope } from './crawl-scope'

describe('crawl scope', () => {
  const robots = robotsParser('https://garden.test/robots.txt', 'User-agent: *\nDisallow: /private/\nCrawl-delay: 120\n')
  const scope = new CrawlScope('https://garden.test/start', ['/drafts', '*.pdf', '/tag/*/feed'], robots)

  it('stays on the start URL’s site', () => {
    expect(scope.judge('https://garden.test/guide')).toEqual({ isAllowed: true })
    expect(scope.judge('http://garden.test/guide')).toEqual({ isAllowed: false, reason: 'on another site' })
    expect(scope.judge('https://shop.garden.test/')).toEqual({ isAllowed: false, reason: 'on another site' })
  })

  it('applies exclusion patterns to the path and query', () => {
    expect(scope.judge('https://garden.test/old/drafts/1')).toEqual({ isAllowed: false, reason: 'matches the exclusion pattern "/drafts"' })
    expect(scope.judge('https://garden.test/files/Plan.PDF')).toMatchObject({ isAllowed: false })
    expect(scope.judge('https://garden.test/tag/peas/feed')).toMatchObject({ isAllowed: false })
    expect(scope.judge('https://garden.test/tag/peas')).toEqual({ isAllowed: true })
  })

  it('honours robots.txt', () => {
    expect(scope.judge('https://garden.test/private/notes')).toEqual({ isAllowed: false, reason: 'disallowed by robots.txt' })
  })

  it('caps the crawl delay robots.txt asks for', () => {
    expect(scope.crawlDelaySeconds(10)).toBe(10)
  })

  it('treats regular-expression characters in patterns literally', () => {
    expect(compileExclusion('/a+b(c)').test('/a+b(c)/x')).toBe(true)
    expect(compileExclusion('/a+b(c)').test('/aab')).toBe(false)
  })
})
