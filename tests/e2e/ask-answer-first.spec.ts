import { expect, test } from '@playwright/test'

// After asking, the answer is where the eye is: its first line inside the window on a laptop and on a phone, the
// focus on its heading with scripts (without them the page opens at #answer), and no sideways scrolling on a phone.
const VIEWPORTS = [
  { width: 1366, height: 900 },
  { width: 390, height: 844 },
]

for (const viewport of VIEWPORTS) {
  test(`the answer opens in view at ${viewport.width}x${viewport.height}`, async ({ page }, testInfo) => {
    await page.setViewportSize(viewport)
    await page.goto('/ask')
    await page.getByRole('textbox', { name: 'Question', exact: true }).fill('How do I add an article?')
    await page.getByRole('button', { name: 'Ask', exact: true }).click()

    const answer = page.getByRole('region', { name: 'Answer' })
    await expect(answer.getByRole('list', { name: 'Sources' })).toBeVisible()
    await expect(answer).toContainText('Add article')
    await expect(page).toHaveURL(/#answer$/)

    const heading = answer.getByRole('heading', { name: 'Answer', level: 2 })
    const firstLine = page.locator('#answer-text > :first-child')
    await expect(heading).toBeInViewport({ ratio: 1 })
    await expect(firstLine).toBeInViewport()
    const box = await firstLine.boundingBox()
    // The first line of text (not only some pixel of its paragraph) is above the bottom of the window.
    expect(box && box.y >= 0 && box.y + Math.min(box.height, 32) <= viewport.height).toBe(true)
    if (testInfo.project.name === 'js') await expect(heading).toBeFocused()

    // The answer comes before the shortcuts and Bot info, right after the question.
    const order = await page.evaluate(() => {
      const ids = ['ask-heading', 'answer-heading', 'bot-info-heading']
      return ids.map((id) => document.getElementById(id)?.getBoundingClientRect().top ?? Number.NaN)
    })
    expect(order[0]).toBeLessThan(order[1])
    expect(order[1]).toBeLessThan(order[2])

    if (viewport.width === 390) {
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
      expect(overflow).toBeLessThanOrEqual(0)
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
  await expect(sources.getByRole('link').first()).toHaveAttribute('href', /^\/read\/\d+\?passage=\d+#passage$/)
})

for (const viewport of VIEWPORTS) {
  test(`a follow-up's answer opens in view, before the earlier turn, at ${viewport.width}x${viewport.height}`, async ({ page }, testInfo) => {
    await page.setViewportSize(viewport)
    await page.goto('/ask')
    await page.getByRole('textbox', { name: 'Question', exact: true }).fill('How do I add an article?')
    await page.getByRole('button', { name: 'Ask', exact: true }).click()
    await expect(page.getByRole('region', { name: 'Answer' }).getByRole('list', { name: 'Sources' })).toBeVisible()
    await page.getByRole('textbox', { name: 'Follow-up question', exact: true }).fill('And how do I publish it?')
    await page.getByRole('button', { name: 'Ask', exact: true }).click()

    const answer = page.getByRole('region', { name: 'Answer' })
    await expect(answer).toContainText('You asked: And how do I publish it?')
    await expect(page).toHaveURL(/\?thread=\d+&task=[^#]+#answer$/)
    await expect(page.locator('#answer-text > :first-child')).toBeInViewport()
    if (testInfo.project.name === 'js') await expect(answer.getByRole('heading', { name: 'Answer', level: 2 })).toBeFocused()
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
    expect(overflow).toBeLessThanOrEqual(0)
  })
}
