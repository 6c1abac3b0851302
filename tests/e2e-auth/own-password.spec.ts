import type { Page } from '@playwright/test'
import { analyzeAccessibility, BLOCKING_IMPACTS, describeViolation, pageWidth } from '../e2e/support/checks'
import {
  E2E,
  asAdministrator,
  backend,
  bareUrl,
  cookieHeader,
  createLocalAccount,
  dashboardNav,
  expect,
  signInLocally,
  signInWithProvider,
  test,
  whenHydrated,
} from './support'

/** What Your account says about the signed-in person under a heading (Username, Role, Organisation). */
const fact = (page: Page, term: string) => page.locator('dl > dt').filter({ hasText: new RegExp(`^${term}$`) }).locator('xpath=following-sibling::dd[1]')

// A signed-in person changes their own password on Your account (/account), reached from their name beside Sign out.
test.describe('Changing your own password', () => {
  test('a user changes their password: refusals say why, the other sessions end, and only the new password signs in', async ({ page, browser }, testInfo) => {
    const account = await createLocalAccount('user')
    const newPassword = `${account.password}-new`
    // The account's own organisation: other specs add organisations to the list as they run.
    const { organization_id: organizationId } = await backend(`/admin/users/${account.id}`, { token: await asAdministrator() })
    const organization = ((await backend('/organizations')) as { id: number; name: string }[]).find(({ id }) => id === organizationId)!

    // The same person signed in in another browser: that session ends with the change.
    const elsewhere = await browser.newContext({ javaScriptEnabled: testInfo.project.use.javaScriptEnabled })
    const otherPage = await elsewhere.newPage()
    await signInLocally(otherPage, account)
    await expect(otherPage).toHaveURL(bareUrl('/ask'))

    await signInLocally(page, account)
    await expect(page).toHaveURL(bareUrl('/ask'))
    const accountLink = dashboardNav(page).getByRole('link', { name: `${account.username} (your account)` })
    await accountLink.click()
    await expect(page).toHaveURL(bareUrl('/account'))
    await expect(page).toHaveTitle(/^Your account · /)
    await expect(page.getByRole('heading', { level: 1, name: 'Your account' })).toBeVisible()
    await expect(fact(page, 'Username')).toHaveText(account.username)
    await expect(fact(page, 'Role')).toHaveText('User')
    await expect(fact(page, 'Organisation')).toHaveText(organization.name)

    const form = page.getByRole('form', { name: 'Change password' })
    const current = form.getByLabel('Current password', { exact: true })
    const fresh = form.getByLabel('New password', { exact: true })
    const again = form.getByLabel('Repeat new password', { exact: true })
    const submit = form.getByRole('button', { name: 'Change password' })
    await expect(current).toHaveAttribute('autocomplete', 'current-password')
    await expect(fresh).toHaveAttribute('autocomplete', 'new-password')
    await expect(again).toHaveAttribute('autocomplete', 'new-password')
    await whenHydrated(submit, testInfo)

    // A wrong current password: said beside it, the passwords are not sent back, and the person stays signed in.
    await current.fill('not-the-password-1')
    await fresh.fill(newPassword)
    await again.fill(newPassword)
    await submit.click()
    await expect(form.getByText('The current password is not correct')).toBeVisible()
    await expect(current).toHaveAttribute('aria-invalid', 'true')
    for (const field of [current, fresh, again]) await expect(field).toHaveValue('')
    await expect(page).toHaveURL(bareUrl('/account'))
    await expect(accountLink).toBeVisible()

    // New passwords that differ: said beside the repeated one (in the browser with scripts, by the server without).
    await current.fill(account.password)
    await fresh.fill(newPassword)
    await again.fill(`${newPassword}x`)
    await submit.click()
    await expect(form.getByText('The two new passwords differ')).toBeVisible()
    await expect(again).toHaveAttribute('aria-invalid', 'true')

    await current.fill(account.password)
    await fresh.fill(newPassword)
    await again.fill(newPassword)
    await submit.click()
    await expect(page.getByRole('status').filter({ hasText: 'Password changed. You stay signed in here; your other sessions have ended.' })).toBeVisible()
    await expect(page).toHaveURL(bareUrl('/account'))
    await expect(form.getByRole('alert')).toHaveCount(0)
    for (const field of [current, fresh, again]) await expect(field).toHaveValue('')
    await page.goto('/ask')
    await expect(page).toHaveURL(bareUrl('/ask'))

    // The other browser's session has ended.
    await otherPage.goto('/account')
    await expect(otherPage).toHaveURL(/\/login(\?|$)/)
    await elsewhere.close()

    await dashboardNav(page).getByRole('button', { name: 'Sign out' }).click()
    await expect(page).toHaveURL(/\/login$/)
    await signInLocally(page, account)
    await expect(page.getByRole('form', { name: 'Sign in with a local account' }).getByRole('alert')).toHaveText('Invalid username or password.')
    await signInLocally(page, { username: account.username, password: newPassword })
    await expect(page).toHaveURL(bareUrl('/ask'))
  })

  test('an editor and an administrator open Your account too', async ({ page }) => {
    for (const role of ['editor', 'admin'] as const) {
      const account = await createLocalAccount(role)
      await page.context().clearCookies()
      await signInLocally(page, account, { from: '/login' })
      await expect(page).toHaveURL(bareUrl('/ask'))
      await dashboardNav(page).getByRole('link', { name: `${account.username} (your account)` }).click()
      await expect(page).toHaveURL(bareUrl('/account'))
      await expect(fact(page, 'Role')).toHaveText(role === 'admin' ? 'Administrator' : 'Editor')
      await expect(page.getByRole('form', { name: 'Change password' })).toBeVisible()
    }
  })

  test('Your account fits a phone, refusals included, with nothing serious for axe', async ({ page }, testInfo) => {
    const PHONE = { width: 390, height: 844 }
    await page.setViewportSize(PHONE)
    const account = await createLocalAccount('user')
    await signInLocally(page, account)
    await expect(page).toHaveURL(bareUrl('/ask'))
    await dashboardNav(page).getByRole('link', { name: `${account.username} (your account)` }).click()
    await expect(page).toHaveURL(bareUrl('/account'))
    const form = page.getByRole('form', { name: 'Change password' })
    await whenHydrated(form.getByRole('button', { name: 'Change password' }), testInfo)
    await form.getByLabel('Current password', { exact: true }).fill('not-the-password-2')
    await form.getByLabel('New password', { exact: true }).fill('a-longer-password-7')
    await form.getByLabel('Repeat new password', { exact: true }).fill('a-longer-password-7')
    await form.getByRole('button', { name: 'Change password' }).click()
    await expect(form.getByText('The current password is not correct')).toBeVisible()
    expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width + 1)
    // axe runs inside the page: with scripts on only (the screen walk scans pages without scripts in demo mode).
    if (testInfo.project.use.javaScriptEnabled !== false) {
      const blocking = (await analyzeAccessibility(page)).violations.filter((violation) => BLOCKING_IMPACTS.has(violation.impact ?? ''))
      expect(blocking.map(describeViolation)).toEqual([])
    }
  })

  test('a person who signs in through single sign-on is told to change the password at the provider', async ({ page, context }) => {
    await signInWithProvider(page, 'user')
    await expect(page).toHaveURL(bareUrl('/ask'))
    await dashboardNav(page).getByRole('link', { name: / \(your account\)$/ }).click()
    await expect(page).toHaveURL(bareUrl('/account'))
    await expect(page.getByText('your password is changed there, not here')).toBeVisible()
    await expect(page.getByLabel('Current password')).toHaveCount(0)

    // A change posted anyway gets the backend's reason beside the field, never a server error.
    const response = await fetch(`${E2E.web}/account?_data=${encodeURIComponent('routes/_dashboard+/account')}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { origin: E2E.web, cookie: await cookieHeader(context), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ current_password: 'anything-1', new_password: 'meadow-lantern-73', new_password_again: 'meadow-lantern-73' }).toString(),
    })
    expect(response.status).toBe(400)
    const answer = await response.text()
    expect(JSON.parse(answer).result.error.current_password).toEqual(['This account signs in through the sign-in provider; change the password there'])
    expect(answer).not.toContain('meadow-lantern-73')
  })
})
