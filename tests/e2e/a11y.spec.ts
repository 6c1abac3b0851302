import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Browser, type Page } from '@playwright/test'
import { openScreen, screensForTheme, themeServers } from './support/screens'

type AxeResults = Awaited<ReturnType<AxeBuilder['analyze']>>

const BLOCKING_IMPACTS = new Set(['serious', 'critical'])

// Every screen found in app/routes (plus an answer on Ask and the error page) in the default theme, and a sample of
// them in the other themed web servers of playwright.config.ts (screensForTheme), with scripts on (js) and off (no-js).
for (const [index, server] of themeServers().entries()) {
  test.describe(`Accessibility, ${server.key} theme`, () => {
    test.use({ baseURL: server.baseURL })

    for (const screen of screensForTheme(index)) {
      test(`${screen.slug}: no serious or critical axe violations`, async ({ page, browser }, testInfo) => {
        const opened = await openScreen(page, screen)
        test.skip(!opened.isOpen, opened.reason)
        if (screen.status) expect(opened.status).toBe(screen.status)
        else expect(opened.status ?? 0, `${page.url()} answered ${opened.status}`).toBeLessThan(400)

        const results = testInfo.project.name === 'no-js' ? await analyzeWithoutScripts(page, browser, testInfo) : await analyzeWithScripts(page)
        await testInfo.attach('axe-results.json', { body: JSON.stringify(results.violations, null, 2), contentType: 'application/json' })
        const blocking = results.violations.filter((violation) => BLOCKING_IMPACTS.has(violation.impact ?? ''))
        expect(blocking.map(describeViolation), `serious or critical violations on ${page.url()}`).toEqual([])
      })
    }
  })
}

async function analyzeWithScripts(page: Page): Promise<AxeResults> {
  // Let hydration and lazy route discovery finish; pages that poll never go quiet for long, so do not insist.
  await page.waitForLoadState('networkidle', { timeout: 3_000 }).catch(() => undefined)
  return new AxeBuilder({ page }).analyze()
}

/**
 * axe runs inside the page, which a context without JavaScript cannot do. So the markup the no-js browser received
 * is scanned in a second context that forbids every page script (CSP script-src 'none'): the same document, styles
 * and images, unhydrated. <noscript> content is shown as a browser without scripts shows it.
 */
async function analyzeWithoutScripts(page: Page, browser: Browser, testInfo: { annotations: { type: string; description?: string }[] }): Promise<AxeResults> {
  const url = page.url()
  let html = (await page.content()).replace(/<\/?noscript>/gi, '')
  // A <meta http-equiv="refresh"> (how pages poll without scripts) would reload the copy halfway through the scan.
  const refresh = /<meta[^>]*http-equiv="refresh"[^>]*>/gi
  if (refresh.test(html)) {
    testInfo.annotations.push({ type: 'meta refresh', description: 'this state polls with <meta http-equiv="refresh">, left out of the scan' })
    html = html.replace(refresh, '')
  }
  const context = await browser.newContext({ javaScriptEnabled: true })
  try {
    const copy = await context.newPage()
    await copy.route(url, (route) =>
      route.fulfill({ status: 200, body: html, headers: { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': "script-src 'none'" } }),
    )
    await copy.goto(url)
    return await new AxeBuilder({ page: copy }).analyze()
  } finally {
    await context.close()
  }
}

function describeViolation(violation: AxeResults['violations'][number]): string {
  const targets = violation.nodes.slice(0, 5).map((node) => node.target.join(' '))
  return `${violation.id} (${violation.impact}): ${violation.help} at ${targets.join(', ')}${violation.nodes.length > 5 ? ` and ${violation.nodes.length - 5} more` : ''}`
}
