import { Readability } from '@mozilla/readability'
import { JSDOM, VirtualConsole } from 'jsdom'
import { convertHtmlToMarkdown } from './html-to-markdown'

export interface ReadablePage {
  title: string
  /** The page's one top heading (its only `<h1>`), when it has one: what tells apart pages of a site sharing a `<title>`. */
  heading?: string
  /** The main content as Markdown: menus, headers, footers and sidebars left out. */
  content: string
  /** Absolute http(s) links of the page, fragments removed; empty when the page asks robots not to follow. */
  links: string[]
  /** The page asks robots not to index it (`<meta name="robots" content="noindex">`). */
  isNoIndex: boolean
}

// Page chrome that is never the main content; removed when Readability finds no article.
const CHROME_SELECTORS = 'nav, header, footer, aside, [role="navigation"], [role="banner"], [role="contentinfo"], [role="complementary"], [aria-hidden="true"]'

/** Reads the main content of an HTML page (Mozilla Readability), its title and its links. Scripts never run. */
export function extractReadableHtml(html: string, options: { url?: string; fallbackTitle: string }): ReadablePage {
  // A silent console: page CSS and markup errors are not ours to log.
  const dom = new JSDOM(html, { url: options.url, virtualConsole: new VirtualConsole() })
  try {
    const document = dom.window.document
    const robots = (document.querySelector('meta[name="robots" i]')?.getAttribute('content') ?? '').toLowerCase()
    const links = robots.includes('nofollow') ? [] : collectLinks(document)
    const pageTitle = document.title.trim() || document.querySelector('h1')?.textContent?.trim() || ''
    const headings = document.querySelectorAll('h1')
    const heading = headings.length === 1 ? headings[0].textContent?.replace(/\s+/g, ' ').trim() : undefined

    // Readability rewrites the document it reads: it gets a copy, the original stays for the fallback.
    const article = new Readability(document.cloneNode(true) as Document, { charThreshold: 200 }).parse()
    let content = article?.content ? convertHtmlToMarkdown(article.content) : ''
    if (!content) {
      document.querySelectorAll(CHROME_SELECTORS).forEach((element) => element.remove())
      content = convertHtmlToMarkdown(document.body?.innerHTML ?? '')
    }
    // "Watering tomatoes | Fixture Gardens": the page's own heading, when the title merely wraps it, drops the site name.
    let title = article?.title?.trim() || pageTitle || options.fallbackTitle
    if (heading && title !== heading && title.includes(heading)) title = heading
    title = title.replace(/\s+/g, ' ').slice(0, 300)
    return { title, heading: heading ? heading.slice(0, 300) : undefined, content, links, isNoIndex: robots.includes('noindex') || robots.includes('none') }
  } finally {
    dom.window.close()
  }
}

function collectLinks(document: Document): string[] {
  const found = new Set<string>()
  for (const anchor of document.querySelectorAll<HTMLAnchorElement>('a[href]')) {
    if ((anchor.getAttribute('rel') ?? '').toLowerCase().split(/\s+/).includes('nofollow')) continue
    let url: URL
    try {
      url = new URL(anchor.href)
    } catch {
      continue
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') continue
    url.hash = ''
    found.add(url.toString())
  }
  return [...found]
}
