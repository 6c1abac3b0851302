import { createRequire } from 'node:module'
import type AxeBuilder from '@axe-core/playwright'
import type { BrowserContext, Page } from '@playwright/test'

export type AxeResults = Awaited<ReturnType<AxeBuilder['analyze']>>
export type AxeViolation = AxeResults['violations'][number]

/** How wide the page is: more than the viewport means the reader has to scroll sideways. */
// Measured once the page and its stylesheets have loaded: right after a no-script click the address has changed
// while the stylesheets may still be loading, and a page laid out without them is wider than the screen.
export const pageWidth = async (page: Page) => {
  await page.waitForLoadState('load')
  return page.evaluate(() => document.documentElement.scrollWidth)
}

/** What scrolls the page sideways: the outermost elements reaching past the right edge, for the failure message. */
export const widestElements = (page: Page, viewportWidth: number) =>
  page.evaluate((width) => {
    const found: string[] = []
    for (const element of document.body.querySelectorAll('*')) {
      const box = element.getBoundingClientRect()
      if (box.right <= width + 1 || box.width === 0) continue
      // An element inside a box that scrolls on its own does not widen the page.
      let parent = element.parentElement
      let isContained = false
      while (parent && parent !== document.body) {
        if (['auto', 'scroll', 'hidden'].includes(getComputedStyle(parent).overflowX)) isContained = true
        parent = parent.parentElement
      }
      if (!isContained) found.push(`<${element.tagName.toLowerCase()} class="${element.getAttribute('class') ?? ''}"> to ${Math.round(box.right)} px`)
      if (found.length === 5) break
    }
    return found
  }, viewportWidth)

/**
 * What a table row offers to act on (links, buttons, disclosures, fields) that lies beyond the window's sides, or the
 * sides of the box its table scrolls in, as the page opens, table boxes unscrolled: what a reader would have to scroll
 * sideways to find. One line per control.
 */
export const rowControlsOutside = (page: Page, viewportWidth: number) =>
  page.evaluate((width) => {
    const found: string[] = []
    for (const table of document.querySelectorAll('table')) {
      for (const row of table.querySelectorAll('tbody tr')) {
        for (const control of row.querySelectorAll('a[href], button, summary, select, input:not([type="hidden"])')) {
          const box = control.getBoundingClientRect()
          if (box.width === 0 && box.height === 0) continue
          // Inside the window, and inside the box the table scrolls in (what lies past its sides is hidden).
          let left = 0
          let right = width
          for (let parent = control.parentElement; parent; parent = parent.parentElement) {
            if (getComputedStyle(parent).overflowX === 'visible') continue
            const clip = parent.getBoundingClientRect()
            left = Math.max(left, clip.left)
            right = Math.min(right, clip.right)
          }
          if (box.left >= left - 1 && box.right <= right + 1) continue
          const name = control.getAttribute('aria-label') || control.textContent?.trim() || control.getAttribute('name') || control.tagName.toLowerCase()
          found.push(`${table.getAttribute('aria-label') ?? 'table'}: "${name.slice(0, 40)}" at ${Math.round(box.left)}–${Math.round(box.right)} px`)
        }
      }
    }
    return found.slice(0, 10)
  }, viewportWidth)

/** Text on the page that still carries Markdown markers: **bold**, a "## heading" line, a [link](address). */
export const rawMarkdownIn = (page: Page) =>
  page.evaluate(() => {
    const MARKERS = /\*\*[^*\s][^*]*\*\*|^\s*#{1,6}\s+\S|\]\((?:https?:|\/)/m
    const found: string[] = []
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT)
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (node.parentElement?.closest('textarea, pre, code, script, style, noscript, [hidden]')) continue
      const text = node.textContent ?? ''
      if (MARKERS.test(text)) found.push(text.trim().slice(0, 80))
    }
    return found.slice(0, 5)
  })

// The axe-core that @axe-core/playwright is made for (its own dependency, so always the matching version).
const require = createRequire(import.meta.url)
const axeSource: string = createRequire(require.resolve('@axe-core/playwright'))('axe-core').source

/**
 * axe with every rule it runs by default, reporting node details for violations only (passes and incomplete results
 * are what make a scan slow to hand back). axe is put into the page once and run there as many times as asked (once
 * per window size), instead of AxeBuilder's two injections and a second, blank tab per scan: the product has no
 * frames for its frame protocol to serve.
 */
export async function analyzeAccessibility(page: Page): Promise<AxeResults> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource)
  return page.evaluate(() => {
    const { axe } = window as unknown as { axe: { run: (context: Document, options: object) => Promise<unknown> } }
    return axe.run(document, { resultTypes: ['violations'] })
  }) as Promise<AxeResults>
}

/**
 * axe runs inside the page, which a page without JavaScript cannot do. So the markup the no-js browser received is
 * loaded as a new page of `context` (a context with scripts on, at any window size), where every page script is
 * forbidden (CSP script-src 'none'): the same document, styles and images, unhydrated, at the same window size.
 * <noscript> content is shown as a browser without scripts shows it. The copy can be scanned again at other sizes
 * (`setViewportSize` on it: with no script to run, a resized copy lays out exactly as one opened at that size).
 */
export async function copyWithoutScripts(page: Page, context: BrowserContext, note: (description: string) => void): Promise<Page> {
  const url = page.url()
  let html = (await page.content()).replace(/<\/?noscript>/gi, '')
  // A <meta http-equiv="refresh"> (how pages poll without scripts) would reload the copy halfway through the scan.
  const refresh = /<meta[^>]*http-equiv="refresh"[^>]*>/gi
  if (refresh.test(html)) {
    note('this state polls with <meta http-equiv="refresh">, left out of the scan')
    html = html.replace(refresh, '')
  }
  const copy = await context.newPage()
  const viewport = page.viewportSize()
  if (viewport) await copy.setViewportSize(viewport)
  await copy.route(url, (route) =>
    route.fulfill({ status: 200, body: html, headers: { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': "script-src 'none'" } }),
  )
  await copy.goto(url)
  return copy
}

export const BLOCKING_IMPACTS = new Set(['serious', 'critical'])

export function describeViolation(violation: AxeViolation): string {
  const targets = violation.nodes.slice(0, 5).map((node) => node.target.join(' '))
  return `${violation.id} (${violation.impact}): ${violation.help} at ${targets.join(', ')}${violation.nodes.length > 5 ? ` and ${violation.nodes.length - 5} more` : ''}`
}
