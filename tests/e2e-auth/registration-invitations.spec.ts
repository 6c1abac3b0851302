import { randomBytes } from 'node:crypto'
import type { Browser, Page, TestInfo } from '@playwright/test'
import { rowControlsOutside } from '../e2e/support/checks'
import { choose } from '../e2e/support/select'
import { E2E, backend, createLocalAccount, dashboardNav, expect, signInLocally, test, whenHydrated } from './support'

// Registration by invitation, end to end: an administrator makes a code on the Invitation codes screen (Users), the
// invitee registers with it on the registration page, the list shows it used. Against the suite's second product,
// whose registration policy is "invite" (playwright.auth.config.ts); the first one, registration open, says that codes
// are only used by invitation, and refuses the screen to a plain user.

const ADMIN = { username: 'admin', password: E2E.adminPassword }
const PHONE = { width: 390, height: 844 }
const SCREEN = '/users/invitations'

const unique = (prefix: string, testInfo: TestInfo) => `${prefix} ${testInfo.project.name} ${randomBytes(3).toString('hex')}`
const isJs = (testInfo: TestInfo) => testInfo.project.use.javaScriptEnabled !== false
const pageWidth = async (page: Page) => {
  await page.waitForLoadState('load')
  return page.evaluate(() => document.documentElement.scrollWidth)
}

/** Makes an invitation code on the screen: answers the code and the registration address that fills it in. */
async function createInvitation(page: Page, testInfo: TestInfo, { note, days }: { note: string; days?: string }) {
  await page.goto(SCREEN)
  await whenHydrated(page.getByRole('button', { name: 'Create invitation code' }), testInfo)
  if (days) await page.getByLabel('Valid for (days)').fill(days)
  await page.getByLabel('Note', { exact: true }).fill(note)
  await page.getByRole('button', { name: 'Create invitation code' }).click()
  await expect(page.getByRole('heading', { name: 'Invitation code created' })).toBeVisible()
  // Codes have underscores: at the browser's "normal" line height the field cuts them off and they read as spaces.
  const lineHeight = await page.getByTestId('new-invitation-code').evaluate((field) => {
    const style = getComputedStyle(field)
    return Number.parseFloat(style.lineHeight) / Number.parseFloat(style.fontSize)
  })
  expect(lineHeight).toBeGreaterThanOrEqual(1.4)
  return { code: await page.getByTestId('new-invitation-code').inputValue(), link: await page.getByTestId('new-invitation-link').inputValue() }
}

/** A browser of the invitee's own (no administrator's cookie), with scripts as the project has them. */
async function inviteeBrowser(browser: Browser, testInfo: TestInfo) {
  return browser.newContext({ baseURL: E2E.inviteWeb, javaScriptEnabled: isJs(testInfo) })
}

async function fillRegistration(page: Page, testInfo: TestInfo, username: string) {
  await whenHydrated(page.getByRole('button', { name: 'Register' }), testInfo)
  await page.getByLabel('Username', { exact: true }).fill(username)
  await page.getByLabel('Email', { exact: true }).fill(`${username}@example.test`)
  await page.getByLabel('First name', { exact: true }).fill('Ada')
  await page.getByLabel('Last name', { exact: true }).fill('Invited')
  await page.getByLabel('Password', { exact: true }).fill('lantern-bridge-37')
  await page.getByLabel('Password again', { exact: true }).fill('lantern-bridge-37')
}

const invitationRow = (page: Page, note: string) => page.getByRole('table', { name: 'Invitations' }).getByRole('row').filter({ hasText: note })

test.describe('Invitation codes, with registration by invitation', () => {
  test.use({ baseURL: E2E.inviteWeb })

  test('a code made on the screen registers its invitee, once, and the list then shows it used', async ({ page, browser }, testInfo) => {
    const note = unique('For the new clerk', testInfo)
    await signInLocally(page, ADMIN, { from: '/login' })
    await expect(page).toHaveURL(/\/ask$/)
    await page.goto('/users')
    await page.getByRole('link', { name: 'Invitation codes' }).click()
    await expect(page).toHaveURL(new RegExp(`${SCREEN}$`))
    await expect(page.getByRole('heading', { level: 1, name: 'Invitation codes' })).toBeVisible()
    await expect(page).toHaveTitle(/^Invitation codes · Users/)
    await expect(page.getByRole('link', { name: '← Users' })).toHaveAttribute('href', '/users')
    await expect(page.getByRole('note')).toHaveText(/^Registration is by invitation \(registration policy “invite”\)/)

    const { code, link } = await createInvitation(page, testInfo, { note, days: '14' })
    expect(code).toMatch(/^[A-Za-z0-9_-]{32}$/)
    expect(link).toBe(`${E2E.inviteWeb}/register?invitation=${code}`)
    await expect(page.getByRole('status').getByRole('link', { name: `${E2E.inviteWeb}/register`, exact: true })).toHaveAttribute('href', `${E2E.inviteWeb}/register`)
    await expect(page.getByText('Copy it now: it won’t be shown again.')).toBeVisible()
    const row = invitationRow(page, note)
    await expect(row).toContainText('Waiting')
    await expect(row).toContainText('Default organisation')
    await expect(row).toContainText('by admin')
    // The list never holds the code; the form is empty for the next one.
    await expect(page.getByRole('table', { name: 'Invitations' })).not.toContainText(code)
    await expect(page.getByLabel('Note', { exact: true })).toHaveValue('')
    await expect(page.getByLabel('Valid for (days)')).toHaveValue('7')
    // The code and its address fit a phone held upright.
    await page.setViewportSize(PHONE)
    expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width + 1)

    // The invitee opens the address: the code is filled in, and registering signs them in.
    const invitee = await inviteeBrowser(browser, testInfo)
    const inviteePage = await invitee.newPage()
    const username = `invitee-${randomBytes(4).toString('hex')}`
    await inviteePage.goto(link)
    await expect(inviteePage.getByLabel('Invitation code', { exact: true })).toHaveValue(code)
    await fillRegistration(inviteePage, testInfo, username)
    await inviteePage.getByRole('button', { name: 'Register' }).click()
    await expect(inviteePage).toHaveURL(/\/ask$/)
    await expect(dashboardNav(inviteePage).getByText(username)).toBeVisible()
    await invitee.close()

    // Used: by whom, with a link to the account; it can no longer be revoked, and the code is shown nowhere.
    await page.goto(SCREEN)
    await expect(row).toContainText('Used')
    await expect(row.getByRole('link', { name: username })).toHaveAttribute('href', /^\/users\/\d+$/)
    await expect(row.getByText('Revoke…')).toHaveCount(0)
    await expect(page.locator('body')).not.toContainText(code)
    expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width + 1)
    // On the phone the link to the account is in view, not in a column scrolled out of the list's box.
    expect(await rowControlsOutside(page, PHONE.width)).toEqual([])
  })

  test('a revoked code is gone from the list and registers nobody', async ({ page, browser }, testInfo) => {
    const note = unique('Changed our mind', testInfo)
    await signInLocally(page, ADMIN, { from: '/login' })
    await expect(page).toHaveURL(/\/ask$/)
    const { code, link } = await createInvitation(page, testInfo, { note })
    const row = invitationRow(page, note)
    await expect(row).toContainText('Waiting')

    // Confirmed in a disclosure, a plain form: with scripts or without.
    await row.getByText('Revoke…').click()
    await expect(row.getByText('The code stops working at once: nobody can register with it.')).toBeVisible()
    await row.getByRole('button', { name: 'Yes, revoke invitation' }).click()
    await expect(page.getByRole('status').filter({ hasText: 'Invitation revoked' })).toBeVisible()
    await expect(page.getByRole('table', { name: 'Invitations' })).not.toContainText(note)

    const invitee = await inviteeBrowser(browser, testInfo)
    const inviteePage = await invitee.newPage()
    const username = `revoked-${randomBytes(4).toString('hex')}`
    await inviteePage.goto(link)
    await expect(inviteePage.getByLabel('Invitation code', { exact: true })).toHaveValue(code)
    await fillRegistration(inviteePage, testInfo, username)
    await inviteePage.getByRole('button', { name: 'Register' }).click()
    await expect(inviteePage.getByText('The invitation code is not valid, has been used or has expired')).toBeVisible()
    await expect(inviteePage.getByLabel('Invitation code', { exact: true })).toHaveAttribute('aria-invalid', 'true')
    await expect(inviteePage.getByLabel('Username', { exact: true })).toHaveValue(username)
    await invitee.close()
  })

  test('a refused number of days is said beside its field, and the organisation and note are kept', async ({ page }, testInfo) => {
    // An organisation besides the first, so keeping the choice shows.
    const organisation = unique('Harbour office', testInfo)
    const token = (await backend('/auth/login', { method: 'POST', body: ADMIN, api: E2E.inviteApi })).access_token as string
    const created = await backend('/admin/organizations', { method: 'POST', body: { name: organisation }, token, api: E2E.inviteApi })
    const organisationId = String(created.organization.id)
    const note = unique('Too long a wait', testInfo)

    await signInLocally(page, ADMIN, { from: '/login' })
    await expect(page).toHaveURL(/\/ask$/)
    await page.goto(SCREEN)
    const form = page.getByRole('form', { name: 'Create an invitation code' })
    await whenHydrated(form.getByRole('button', { name: 'Create invitation code' }), testInfo)
    await choose(page, 'Organisation', organisation, isJs(testInfo))
    await form.getByLabel('Valid for (days)').fill('120')
    await form.getByLabel('Note', { exact: true }).fill(note)
    // Past the browser's own check of the field's maximum.
    await form.evaluate((element) => element.setAttribute('novalidate', ''))
    await form.getByRole('button', { name: 'Create invitation code' }).click()

    await expect(form.getByRole('alert')).toHaveText('Valid for (days) must be between 1 and 90')
    await expect(form.getByLabel('Valid for (days)')).toHaveAttribute('aria-invalid', 'true')
    await expect(form.getByLabel('Valid for (days)')).toHaveValue('120')
    await expect(form.getByLabel('Note', { exact: true })).toHaveValue(note)
    await expect(form.locator('[name="organization_id"]')).toHaveValue(organisationId)
    await expect(page.getByRole('heading', { name: 'Invitation code created' })).toHaveCount(0)
    await expect(page.getByRole('table', { name: 'Invitations' })).not.toContainText(note)

    // Corrected, it is made in the organisation chosen.
    await form.getByLabel('Valid for (days)').fill('30')
    await form.getByRole('button', { name: 'Create invitation code' }).click()
    await expect(page.getByRole('heading', { name: 'Invitation code created' })).toBeVisible()
    await expect(invitationRow(page, note)).toContainText(organisation)
  })
})

test.describe('Invitation codes, with registration open', () => {
  test('the screen says registration is not by invitation, and that codes made now wait for it', async ({ page }, testInfo) => {
    const account = await createLocalAccount('admin')
    await signInLocally(page, account, { from: '/login' })
    await expect(page).toHaveURL(/\/ask$/)
    await page.goto(SCREEN)
    const notice = page.getByRole('note')
    await expect(notice).toContainText('Registration is open (registration policy “open”): anyone can register, into Default organisation, without a code.')
    await expect(notice).toContainText('Invitation codes are only used when the registration policy is “invite”')
    await createInvitation(page, testInfo, { note: unique('Ahead of time', testInfo) })
    await expect(page.getByRole('status').filter({ hasText: 'It works only once the registration policy is “invite”.' })).toBeVisible()
  })

  test('a plain user is refused the screen with 403, as a page, as data and for its form', async ({ page }) => {
    const account = await createLocalAccount('user')
    await signInLocally(page, account, { from: '/login' })
    await expect(page).toHaveURL(/\/ask$/)
    const refused = await page.goto(SCREEN)
    expect(refused?.status()).toBe(403)
    await expect(page.getByRole('alert')).toContainText('Your role (user) does not open this page')
    await expect(page.getByRole('heading', { name: 'Invitation codes' })).toHaveCount(0)

    const data = await page.request.get(`${SCREEN}?_data=${encodeURIComponent('routes/_dashboard+/users.invitations')}`)
    expect(data.status()).toBe(403)
    const posted = await page.request.post(SCREEN, { form: { intent: 'create', organization_id: '1', expires_in_days: '7', note: '' }, headers: { origin: E2E.web } })
    expect(posted.status()).toBe(403)
    expect(await posted.text()).toContain('does not open this page')
  })
})
