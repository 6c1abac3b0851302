import { expect, test } from '@playwright/test'

test.describe('Dashboard', () => {
  test('moves between the four tabs, each with its own address', async ({ page }) => {
    await page.goto('/ask')
    const tabs = page.getByRole('navigation', { name: 'Dashboard' })
    for (const [name, path] of [
      ['Articles', '/articles'],
      ['Logs', '/logs'],
      ['Settings', '/settings'],
      ['Ask', '/ask'],
    ]) {
      await tabs.getByRole('link', { name }).click()
      await expect(page).toHaveURL(new RegExp(`${path}$`))
      await expect(tabs.getByRole('link', { name })).toHaveAttribute('aria-current', 'page')
    }
  })

  test('lists asked questions in the logs', async ({ page }, testInfo) => {
    const question = `Where do I find the drafts view? (${testInfo.project.name})`
    await page.goto('/ask')
    await page.getByRole('textbox', { name: 'Question', exact: true }).fill(question)
    await page.getByRole('button', { name: 'Ask', exact: true }).click()
    await expect(page.getByRole('region', { name: 'Answer' })).toBeVisible()
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Logs' }).click()
    await expect(page.getByRole('table', { name: 'Query logs' })).toContainText(question)
  })

  test('says an article that does not exist is not found, in words, with the way back', async ({ page }) => {
    const response = await page.goto('/articles/987654')
    expect(response?.status()).toBe(404)
    await expect(page.getByRole('heading', { name: 'Not found' })).toBeVisible()
    await expect(page.getByRole('alert')).toContainText('deleted or moved')
    await expect(page.getByRole('link', { name: 'Back to Ask' })).toBeVisible()
    await expect(page.getByText('Something went wrong.')).toHaveCount(0)
    // The details say the status once, without an empty status text ("404 : …").
    expect(await page.getByTestId('error-text').textContent()).toMatch(/^404(?: Not Found)?(?:: |$)/)
  })

  test('never sends the API key to the browser', async ({ page }) => {
    const bodies: string[] = []
    page.on('response', async (response) => {
      if (response.url().startsWith('http://127.0.0.1')) bodies.push(await response.text().catch(() => ''))
    })
    await page.goto('/ask')
    await page.getByRole('textbox', { name: 'Question', exact: true }).fill('How do I add an article?')
    await page.getByRole('button', { name: 'Ask', exact: true }).click()
    await expect(page.getByRole('region', { name: 'Answer' })).toBeVisible()
    const html = await page.content()
    expect(html).not.toContain('apikey')
    for (const body of bodies) expect(body).not.toMatch(/apikey|API_KEY/)
  })
})
