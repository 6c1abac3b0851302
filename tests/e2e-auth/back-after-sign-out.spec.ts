import { createLocalAccount, dashboardNav, E2E, expect, signInLocally, test } from './support'

// On a shared computer the next person must not read the last one's pages with the Back button: after Sign out, Back
// asks the server again (the pages are never kept in the browser's cache) and lands on sign-in, with scripts on and off.

test('Back after Sign out shows the sign-in page, not the signed-out person’s pages', async ({ browser }, testInfo) => {
  // A context of its own: the suite's usual one routes requests, and a routed context does not use the browser's cache.
  const context = await browser.newContext({ baseURL: E2E.web, javaScriptEnabled: testInfo.project.use.javaScriptEnabled, viewport: { width: 390, height: 844 } })
  const page = await context.newPage()
  const account = await createLocalAccount('user')
  await signInLocally(page, account, { from: '/login' })
  await expect(page).toHaveURL(/\/ask$/)
  await page.goto('/account')
  await expect(page.getByRole('main')).toContainText(account.username)
  await page.goto('/saved')
  await expect(page.getByRole('heading', { name: 'Saved queries' })).toBeVisible()
  await dashboardNav(page).getByRole('button', { name: 'Sign out' }).click()
  await expect(page).toHaveURL(/\/login/)

  await page.goBack()
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Fsaved$/)
  await expect(page.getByRole('heading', { name: 'Saved queries' })).toHaveCount(0)
  await page.goBack()
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Faccount$/)
  await expect(page.getByText(account.username)).toHaveCount(0)
  await expect(page.getByRole('form', { name: 'Sign in with a local account' })).toBeVisible()
  await context.close()
})
