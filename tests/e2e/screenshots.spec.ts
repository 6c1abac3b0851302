import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { expect, test } from '@playwright/test'
import { themeServers } from './support/screens'

// Full-page screenshots of every screen, in the three themes at both sizes, are taken by screen-walk.spec.ts.

// The README's pictures of Ask: a question, its answer and a follow-up in one thread, in the three themes, on a laptop
// (1366 × 900) and a phone (390 × 844). Taken once, with scripts. `UPDATE_DOCS_SCREENSHOTS=1` writes them to
// docs/screenshots/ask-<theme>-<desktop|phone>.png (the files the README links); otherwise they stay test artifacts.
const README_SIZES = [
  { name: 'desktop', viewport: { width: 1366, height: 900 } },
  { name: 'phone', viewport: { width: 390, height: 844 } },
]

test.describe('README screenshots of Ask', () => {
  test('a question, its answer and a follow-up, in three themes at 1366 and 390 px', async ({ browser }, testInfo) => {
    test.skip(testInfo.project.name !== 'js', 'one set of pictures, taken with scripts')
    test.setTimeout(180_000)
    const servers = themeServers()
    // One thread, asked on the first server; every themed server shows it (they share the backend and, in demo mode,
    // the signed-in administrator).
    const asking = await browser.newContext({ baseURL: servers[0].baseURL, viewport: README_SIZES[0].viewport })
    const page = await asking.newPage()
    await page.goto('/ask')
    await page.getByRole('textbox', { name: 'Question', exact: true }).fill('How do I add an article?')
    await page.getByRole('button', { name: 'Ask', exact: true }).click()
    await expect(page.getByRole('region', { name: 'Answer' }).getByRole('list', { name: 'Sources' })).toBeVisible()
    await page.getByRole('textbox', { name: 'Follow-up question', exact: true }).fill('And how do I publish it?')
    await page.getByRole('button', { name: 'Ask', exact: true }).click()
    await expect(page.getByRole('region', { name: 'Earlier in this thread' })).toBeVisible()
    const thread = new URL(page.url()).searchParams.get('thread')
    await asking.close()

    const directory = process.env.UPDATE_DOCS_SCREENSHOTS ? path.join(process.cwd(), 'docs', 'screenshots') : path.join(testInfo.outputDir, 'readme')
    mkdirSync(directory, { recursive: true })
    for (const server of servers) {
      for (const size of README_SIZES) {
        const context = await browser.newContext({ baseURL: server.baseURL, viewport: size.viewport })
        try {
          const shown = await context.newPage()
          await shown.goto(`/ask?thread=${thread}`)
          await expect(shown.getByRole('region', { name: 'Answer' })).toContainText('You asked: And how do I publish it?')
          await shown.waitForLoadState('networkidle', { timeout: 3_000 }).catch(() => undefined)
          // The picture starts at the top of the page, with nothing focused.
          await shown.evaluate(() => {
            ;(document.activeElement as HTMLElement | null)?.blur()
            window.scrollTo(0, 0)
          })
          const overflow = await shown.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
          expect(overflow, `${server.key} ${size.name} scrolls sideways`).toBeLessThanOrEqual(0)
          const image = await shown.screenshot({ fullPage: true, animations: 'disabled' })
          writeFileSync(path.join(directory, `ask-${server.key}-${size.name}.png`), image)
          await testInfo.attach(`ask-${server.key}-${size.name}`, { body: image, contentType: 'image/png' })
        } finally {
          await context.close()
        }
      }
    }
  })
})
