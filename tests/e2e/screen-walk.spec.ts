import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { expect, test as base, type BrowserContext, type Page } from '@playwright/test'
import { analyzeAccessibility, BLOCKING_IMPACTS, copyWithoutScripts, describeViolation, pageWidth, rawMarkdownIn, rowControlsOutside, widestElements } from './support/checks'
import { openScreen, screensToCheck, themeServers } from './support/screens'

// Screenshots are taken outside CI, or in it with E2E_SCREENSHOTS=1 (see below).
const TAKES_SCREENSHOTS = !process.env.CI || process.env.E2E_SCREENSHOTS === '1'

// A laptop and a phone held upright (SEED.md asks for every screen to be usable at 390 px).
const SIZES = [
  { name: 'laptop', viewport: { width: 1366, height: 900 } },
  { name: 'phone', viewport: { width: 390, height: 844 } },
]

// Where the no-js pages are copied to be scanned (copyWithoutScripts): one context per worker, for all its tests.
const test = base.extend<object, { scanContext: BrowserContext }>({
  scanContext: [
    async ({ browser }, use) => {
      const context = await browser.newContext({ javaScriptEnabled: true })
      await use(context)
      await context.close()
    },
    { scope: 'worker' },
  ],
})

// Every screen found in app/routes (plus an answer on Ask and the not-found pages), in each of the three themed web
// servers of playwright.config.ts, with scripts on (js) and off (no-js), at 1366×900 and at 390×844. At each size:
// the page never scrolls sideways (nor, on the phone, does a table to show a row's links and buttons), axe finds
// nothing serious or critical, text people read carries no raw Markdown, and a full-page screenshot is kept as a test
// artifact (test-results/screenshots/<theme>/<project>/<screen>-<size>.png, also attached to the test for the HTML
// report). Not in CI (CI set), whose list reporter shows no attachment and whose clone is thrown away: there the
// screenshots are about a tenth of the walk's time for pictures nobody sees. E2E_SCREENSHOTS=1 takes them anyway.
//
// One visit per screen, theme and project: the screen is opened (and made, when it needs a record) once, at the first
// size it is checked at, then the window is resized to the phone. The product has no script that reads the window's
// size, so a resized page lays out as one opened at that size. Everything is checked again at each size, axe included: a layout can hide,
// show or overlap elements differently, which changes what axe sees (a folded menu, a scroll box, contrast over a
// different background). The tests of one theme run in parallel over the workers.
//
// The default theme is walked in both projects and at both sizes; the other sponsor themes only with scripts on (tag
// @scripts-on-only, which the no-js project of playwright.config.ts leaves out) and only at 390×844. A theme changes
// colours, fonts and the logo, never the markup or a script, so what scripts change is the same in every theme and the
// default theme's no-js walk covers it; a theme's fonts and logo overflow at the phone's width first, and its colours
// (axe's contrast) are the same at both sizes (ADR 150, amended).
for (const server of themeServers()) {
  const isDefault = server.key === 'default'
  const tag = isDefault ? [] : ['@scripts-on-only']
  const sizes = isDefault ? SIZES : SIZES.filter((size) => size.name === 'phone')
  test.describe(`Screen walk, ${server.key} theme`, { tag }, () => {
    test.describe.configure({ mode: 'parallel' })
    test.use({ baseURL: server.baseURL, viewport: sizes[0].viewport })

    for (const screen of screensToCheck()) {
      test(`${screen.slug}: fits ${sizes.map((size) => size.viewport.width).join(' and ')} px, no raw Markdown, no serious or critical axe violations`, async ({ page, scanContext }, testInfo) => {
        const opened = await test.step('open', () => openScreen(page, screen))
        test.skip(!opened.isOpen, opened.reason)
        if (screen.status) expect(opened.status).toBe(screen.status)
        else expect(opened.status ?? 0, `${page.url()} answered ${opened.status}`).toBeLessThan(400)

        const withScripts = testInfo.project.name === 'js'
        // Let hydration and lazy route discovery finish; pages that poll never go quiet for long, so do not insist.
        if (withScripts) await test.step('settle', () => page.waitForLoadState('networkidle', { timeout: 3_000 }).catch(() => undefined))
        // Without scripts axe scans a copy of the received markup (copyWithoutScripts), made once for both sizes.
        let copy: Page | undefined
        const directory = path.join(testInfo.project.outputDir, 'screenshots', server.key, testInfo.project.name)
        mkdirSync(directory, { recursive: true })
        try {
          for (const size of sizes) {
            await test.step(`${size.name} ${size.viewport.width}×${size.viewport.height}`, async () => {
              await page.setViewportSize(size.viewport)
              const where = `${page.url()} at ${size.viewport.width} px`

              const width = await pageWidth(page)
              const limit = size.viewport.width + 1
              const culprits = width > limit ? (await widestElements(page, size.viewport.width)).join(', ') : ''
              expect.soft(width, `${where} is ${width} px wide: ${culprits}`).toBeLessThanOrEqual(limit)
              // On a phone a table row's links and buttons are in the window, not behind a sideways scroll of its box.
              if (size.name === 'phone') expect.soft(await rowControlsOutside(page, size.viewport.width), `table rows' controls beyond the window on ${where}`).toEqual([])
              // Text people read is rendered, never raw Markdown (editors' text areas and code blocks are left out).
              expect.soft(await rawMarkdownIn(page), `raw Markdown on ${where}`).toEqual([])

              if (!withScripts && !copy) {
                copy = await copyWithoutScripts(page, scanContext, (description) => testInfo.annotations.push({ type: 'meta refresh', description }))
              }
              await copy?.setViewportSize(size.viewport)
              const results = await test.step('axe', () => analyzeAccessibility(copy ?? page))
              await testInfo.attach(`axe ${size.name}.json`, { body: JSON.stringify(results.violations, null, 2), contentType: 'application/json' })
              const blocking = results.violations.filter((violation) => BLOCKING_IMPACTS.has(violation.impact ?? ''))
              expect.soft(blocking.map(describeViolation), `serious or critical axe violations on ${where}`).toEqual([])

              if (!TAKES_SCREENSHOTS) return
              const image = await test.step('screenshot', () => page.screenshot({ fullPage: true, animations: 'disabled' }))
              const file = path.join(directory, `${screen.slug}-${size.name}.png`)
              writeFileSync(file, image)
              await testInfo.attach(`${server.key} ${screen.slug} ${size.name} (${testInfo.project.name})`, { path: file, contentType: 'image/png' })
            })
          }
        } finally {
          await copy?.close()
        }
      })
    }
  })
}
