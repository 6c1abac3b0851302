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
  it('matches a pattern with `*` against the whole path and query, or the whole URL; one without anywhere in them', () => {
    const matches = (pattern: string, url: string) => !new CrawlScope('https://garden.test/', [pattern], robots).judge(url).isAllowed
    expect(matches('/tag/*', 'https://garden.test/tag/peas?page=2')).toBe(true)
    expect(matches('/tag/*', 'https://garden.test/old/tag/peas')).toBe(false)
    expect(matches('https://garden.test/tag/*', 'https://garden.test/tag/peas')).toBe(true)
    expect(matches('*/feed', 'https://garden.test/tag/peas/feed')).toBe(true)
    expect(matches('*/feed', 'https://garden.test/tag/peas/feed/atom')).toBe(false)
    expect(matches('*sort=*', 'https://garden.test/list?sort=name')).toBe(true)
    expect(matches('/drafts', 'https://garden.test/x/drafts/1')).toBe(true)
    expect(matches('sort=', 'https://garden.test/list?SORT=name')).toBe(true)
    expect(matches('/TAG/*/FEED', 'https://garden.test/tag/peas/feed')).toBe(true)
    expect(matches('/**', 'https://garden.test/')).toBe(true)
    expect(matches('/a*b*c', 'https://garden.test/abbbc')).toBe(true)
    expect(matches('/a*b*c', 'https://garden.test/acb')).toBe(false)
  })

  it('treats `?` and other characters but `*` literally', () => {
    expect(compileExclusion('/page?').test('/pages')).toBe(false)
    expect(compileExclusion('/page?*').test('/page?id=1')).toBe(true)
    expect(compileExclusion('/a.c*').test('/abc')).toBe(false)
    expect(compileExclusion('/[ab]*').test('/[ab]/x')).toBe(true)
    expect(compileExclusion('/é*').test('/É')).toBe(true)
  })

  it('judges a link against a pattern of many stars at once, however long the link', () => {
    const evil = `*/${'a*'.repeat(20)}Z`
    const judgeWith = (url: string) => new CrawlScope('http://site/start', [evil], robotsParser('http://site/robots.txt', '')).judge(url)
    expect(judgeWith(`http://site/${'a'.repeat(60)}`)).toEqual({ isAllowed: true })
    expect(judgeWith(`http://site/${'a'.repeat(2000)}`)).toEqual({ isAllowed: true })
    expect(judgeWith(`http://site/${'a'.repeat(2000)}z`)).toMatchObject({ isAllowed: false })
    expect(compileExclusion(`${'*a'.repeat(150)}*`).test('/' + 'a'.repeat(2000))).toBe(true)
    expect(compileExclusion(`${'*a'.repeat(150)}*`).test('/' + 'ab'.repeat(100))).toBe(false)
  })
})
