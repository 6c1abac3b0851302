import { randomBytes } from 'node:crypto'
import { asAdministrator, backend, createLocalAccount, dashboardNav, expect, signInLocally, test } from './support'

/** An account an administrator creates without a password: the answer carries its one-time invitation code. */
async function inviteAccount() {
  const token = await asAdministrator()
  const [organization] = (await backend('/organizations')) as { id: number }[]
  const username = `invited-${randomBytes(4).toString('hex')}`
  const created = await backend('/admin/users', {
    method: 'POST',
    token,
    body: { username, email: `${username}@example.test`, role: 'editor', organization_id: organization.id },
  })
  return { id: created.id as number, username, code: created.invitation.code as string }
}

test.describe('Invitations and password resets', () => {
  test('an invited person sets their password on the link, once, then signs in with it', async ({ page }) => {
    const invited = await inviteAccount()
    const password = 'harbour-light-58'
    await page.goto(`/password?code=${encodeURIComponent(invited.code)}`)
    await expect(page.getByRole('heading', { name: 'Set your password' })).toBeVisible()
    await page.getByLabel('New password', { exact: true }).fill('short1')
    await page.getByLabel('New password again', { exact: true }).fill('short1')
    await page.getByLabel('New password', { exact: true }).evaluate((field) => field.closest('form')?.setAttribute('novalidate', ''))
    await page.getByRole('button', { name: 'Set password' }).click()
    await expect(page.getByText('New password must be at least 8 characters', { exact: true })).toBeVisible()
    await page.getByLabel('New password', { exact: true }).fill(password)
    await page.getByLabel('New password again', { exact: true }).fill('something-else-1')
    await page.getByRole('button', { name: 'Set password' }).click()
    await expect(page.getByText('The two passwords differ')).toBeVisible()

    await page.getByLabel('New password', { exact: true }).fill(password)
    await page.getByLabel('New password again', { exact: true }).fill(password)
    await page.getByRole('button', { name: 'Set password' }).click()
    await expect(page).toHaveURL(/\/login$/)
    await expect(page.getByRole('status').filter({ hasText: `Password set. Sign in as ${invited.username}.` })).toBeVisible()
    await signInLocally(page, { username: invited.username, password })
    await expect(dashboardNav(page).getByRole('link', { name: 'Articles' }).first()).toBeAttached()

    // The link works once.
    await page.goto(`/password?code=${encodeURIComponent(invited.code)}`)
    await page.getByLabel('New password', { exact: true }).fill('another-pass-22')
    await page.getByLabel('New password again', { exact: true }).fill('another-pass-22')
    await page.getByRole('button', { name: 'Set password' }).click()
    await expect(page.getByRole('alert').filter({ hasText: 'This link is not valid, has been used or has expired' })).toBeVisible()
  })

  test('a user disabled by an administrator is signed out at the next page and cannot sign in again', async ({ page }) => {
    const account = await createLocalAccount('user')
    await signInLocally(page, account)
    await expect(page).toHaveURL(/\/ask$/)
    await backend(`/admin/users/${account.id}/disable`, { method: 'POST', body: {}, token: await asAdministrator() })

    await page.goto('/saved')
    await expect(page).toHaveURL(/\/login/)
    await signInLocally(page, account)
    await expect(page.getByText('Invalid username or password.')).toBeVisible()
  })
})
