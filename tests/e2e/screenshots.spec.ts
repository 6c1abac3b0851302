import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { test } from '@playwright/test'
import { openScreen, screensForTheme, themeServers } from './support/screens'

// A full-page screenshot of every screen in the default theme and of a sample of them in the two other themed web
// servers of playwright.config.ts (screensForTheme), with scripts on and off. Kept as test artifacts: test-results/screenshots/<theme>/<project>/<screen>.png, and attached
// to each test (so the HTML report shows them).
for (const [index, server] of themeServers().entries()) {
  test.describe(`Screenshots, ${server.key} theme`, () => {
    test.use({ baseURL: server.baseURL, viewport: { width: 1280, height: 800 } })

    for (const screen of screensForTheme(index)) {
      test(`${screen.slug}`, async ({ page }, testInfo) => {
        const opened = await openScreen(page, screen)
        test.skip(!opened.isOpen, opened.reason)
        if (testInfo.project.name === 'js') await page.waitForLoadState('networkidle', { timeout: 3_000 }).catch(() => undefined)
        const image = await page.screenshot({ fullPage: true, animations: 'disabled' })
        const directory = path.join(testInfo.project.outputDir, 'screenshots', server.key, testInfo.project.name)
        mkdirSync(directory, { recursive: true })
        writeFileSync(path.join(directory, `${screen.slug}.png`), image)
        await testInfo.attach(`${server.key} ${screen.slug} (${testInfo.project.name})`, { body: image, contentType: 'image/png' })
      })
    }
  })
}
