import type { Page } from '@playwright/test'
import { createLocalAccount, dashboardNav, expect, signInLocally, test } from './support'

// The sign-in screens and the signed-in bar (name and Sign out beside the menu) on a phone held upright.
const PHONE = { width: 390, height: 844 }
// Measured once the page and its stylesheets have loaded: a URL that has just changed may still be laid out without them.
const pageWidth = async (page: Page) => {
  await page.waitForLoadState('load')
  return page.evaluate(() => document.documentElement.scrollWidth)
}

test.describe('Phone layout with sign-in', () => {
  test.use({ viewport: PHONE })

  for (const path of ['/login', '/register']) {
    test(`${path} never scrolls sideways at ${PHONE.width} px`, async ({ page }) => {
      const response = await page.goto(path)
      expect(response?.status()).toBe(200)
      expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width + 1)
    })
  }

  test('a signed-in administrator reaches every screen through the menu, and signs out, on a phone', async ({ page }) => {
    const account = await createLocalAccount('admin')
    await signInLocally(page, account)
    await expect(page).toHaveURL(/\/ask$/)
    const navigation = dashboardNav(page)
    await expect(navigation.getByText(account.username)).toBeVisible()
    await expect(navigation.getByRole('button', { name: 'Sign out' })).toBeVisible()
    expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width + 1)

    await navigation.getByText('Menu', { exact: true }).click()
    for (const name of ['Ask', 'Articles', 'Logs', 'Settings', 'Agent', 'Saved queries', 'Users']) {
      await expect(navigation.getByRole('link', { name, exact: true })).toBeVisible()
    }
    await navigation.getByRole('link', { name: 'Users', exact: true }).click()
    await expect(page).toHaveURL(/\/users$/)
    expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width + 1)

    await navigation.getByRole('button', { name: 'Sign out' }).click()
    await expect(page).toHaveURL(/\/login/)
  })

  test('a plain user is offered only the screens of the role', async ({ page }) => {
    const account = await createLocalAccount('user')
    await signInLocally(page, account)
    await expect(page).toHaveURL(/\/ask$/)
    const navigation = dashboardNav(page)
    await navigation.getByText('Menu', { exact: true }).click()
    await expect(navigation.getByRole('link', { name: 'Saved queries', exact: true })).toBeVisible()
    for (const name of ['Articles', 'Logs', 'Settings', 'Users']) await expect(navigation.getByRole('link', { name, exact: true })).toHaveCount(0)

    // Their name beside Sign out opens Your account, whose password form fits the phone too.
    await navigation.getByRole('link', { name: `${account.username} (your account)` }).click()
    await expect(page).toHaveURL(/\/account$/)
    await expect(page.getByRole('form', { name: 'Change password' })).toBeVisible()
    expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width + 1)
  })
})
