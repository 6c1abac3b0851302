import { expect, test, type Page } from '@playwright/test'
import { themeServers } from './support/screens'

// After asking, the answer is where the eye is: its first line inside the window on a laptop and on a phone, in each
// of the three themed web servers (a theme's header and fonts change how much sits above it), the focus on its
// heading with scripts (without them the page opens at #answer), and no sideways scrolling on a phone. The same holds
// for a follow-up's answer, shown before the earlier turn.
const VIEWPORTS = [
  { width: 1366, height: 900 },
  { width: 390, height: 844 },
]

/** The answer's first paragraph is in the window, and so is its first line of text. */
async function expectFirstLineInView(page: Page, viewport: { height: number }) {
  const firstLine = page.locator('#answer-text > :first-child')
  await expect(firstLine).toBeInViewport()
  const box = await firstLine.boundingBox()
  // The first line of text (not only some pixel of its paragraph) is above the bottom of the window.
  expect(box && box.y >= 0 && box.y + Math.min(box.height, 32) <= viewport.height, `first line at ${JSON.stringify(box)}`).toBe(true)
}

// Measured once the page and its stylesheets have loaded (a no-script post may still be loading them).
const sidewaysOverflow = async (page: Page) => {
  await page.waitForLoadState('load')
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
}

for (const server of themeServers()) {
  test.describe(`Answer first, ${server.key} theme`, () => {
    test.use({ baseURL: server.baseURL })

    for (const viewport of VIEWPORTS) {
      test(`the answer, then a follow-up's answer, open in view at ${viewport.width}x${viewport.height}`, async ({ page }, testInfo) => {
        await page.setViewportSize(viewport)
        await page.goto('/ask')
        await page.getByRole('textbox', { name: 'Question', exact: true }).fill('How do I add an article?')
        await page.getByRole('button', { name: 'Ask', exact: true }).click()

        const answer = page.getByRole('region', { name: 'Answer' })
        await expect(answer.getByRole('list', { name: 'Sources' })).toBeVisible()
        await expect(answer).toContainText('Add article')
        await expect(page).toHaveURL(/#answer$/)

        const heading = answer.getByRole('heading', { name: 'Answer', level: 2 })
        await expect(heading).toBeInViewport({ ratio: 1 })
        await expectFirstLineInView(page, viewport)
        if (testInfo.project.name === 'js') await expect(heading).toBeFocused()

        // The answer comes before the shortcuts and Bot info, right after the question (measured once the whole page
        // has arrived: without scripts the answer is shown while the rest of the document still streams in).
        await page.waitForLoadState('load')
        const order = await page.evaluate(() => {
          const ids = ['ask-heading', 'answer-heading', 'bot-info-heading']
          return ids.map((id) => document.getElementById(id)?.getBoundingClientRect().top ?? Number.NaN)
        })
        expect(order[0]).toBeLessThan(order[1])
        expect(order[1]).toBeLessThan(order[2])
        if (viewport.width === 390) expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0)

        // A follow-up in the same thread: its answer opens in view, before the earlier turn.
        await page.getByRole('textbox', { name: 'Follow-up question', exact: true }).fill('And how do I publish it?')
        await page.getByRole('button', { name: 'Ask', exact: true }).click()
        await expect(answer).toContainText('You asked: And how do I publish it?')
        await expect(page).toHaveURL(/\?thread=\d+&task=[^#]+#answer$/)
        await expectFirstLineInView(page, viewport)
        if (testInfo.project.name === 'js') await expect(heading).toBeFocused()
        const answerTop = (await answer.boundingBox())?.y ?? Number.NaN
        const earlierTop = (await page.getByRole('region', { name: 'Earlier in this thread' }).boundingBox())?.y ?? Number.NaN
        expect(answerTop).toBeLessThan(earlierTop)
        expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0)
      })
    }
  })
}

test('each citation links to its source, and each source to the passage in the reader view', async ({ page }) => {
  await page.goto('/ask')
  await page.getByRole('textbox', { name: 'Question', exact: true }).fill('How do I add an article?')
  await page.getByRole('button', { name: 'Ask', exact: true }).click()
  const answer = page.getByRole('region', { name: 'Answer' })
  const sources = answer.getByRole('list', { name: 'Sources' })
  await expect(sources).toBeVisible()
  const citation = page.locator('#answer-text a', { hasText: '[1]' }).first()
  await expect(citation).toHaveAttribute('href', '#source-1')
  await expect(sources.getByRole('listitem').first()).toHaveAttribute('id', 'source-1')
  await expect(sources.getByRole('link').first()).toHaveAttribute('href', /^\/read\/\d+\?passage=\d+(?:&back=[^#&]+)?#passage$/)
})
