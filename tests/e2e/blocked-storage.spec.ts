import { expect, test } from '@playwright/test'

// Strict privacy settings, or a frame on another site, block web storage: reading window.sessionStorage throws.
// The pages must still work, scripts and all.

test.describe('With browser storage blocked', () => {
  test.beforeEach(async ({ page }, testInfo) => {
    test.skip(testInfo.project.name === 'no-js', 'storage matters only to scripts')
    await page.addInitScript(() => {
      for (const name of ['sessionStorage', 'localStorage']) {
        Object.defineProperty(window, name, {
          configurable: true,
          get() {
            throw new DOMException(`Access to '${name}' is denied for this document.`, 'SecurityError')
          },
        })
      }
    })
  })

  test('the pages work: asking, and moving between screens without reloading', async ({ page }) => {
    const errors: string[] = []
    page.on('pageerror', (error) => errors.push(error.message))
    await page.goto('/ask')
    await expect(page.getByRole('heading', { level: 1, name: 'Ask' })).toBeVisible()
    await page.getByRole('textbox', { name: 'Question', exact: true }).fill('How do I add an article?')
    await page.getByRole('button', { name: 'Ask', exact: true }).click()
    await expect(page.getByRole('region', { name: 'Answer' })).toContainText('Add article')

    // Client-side navigation: the new screens are found and shown without a full page load.
    await page.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true))
    const nav = page.getByRole('navigation', { name: 'Dashboard' })
    await nav.getByRole('link', { name: 'Saved queries' }).click()
    await expect(page.getByRole('heading', { level: 1, name: 'Saved queries' })).toBeVisible()
    await nav.getByRole('link', { name: 'Articles', exact: true }).click()
    await expect(page.getByRole('heading', { level: 1, name: 'Articles' })).toBeVisible()
    await page.goBack()
    await expect(page.getByRole('heading', { level: 1, name: 'Saved queries' })).toBeVisible()
    expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true)

    await expect(page.getByText('Something went wrong.')).toHaveCount(0)
    expect(errors).toEqual([])
  })
})
