import type { Page } from '@playwright/test'
import { backend, bareUrl, createLocalAccount, dashboardNav, expect, signInLocally, test, type LocalAccount } from './support'

// What a plain user sees when an address is above the role or not theirs: a page that says so once, with the way on
// (the navigation of the role, Back to Ask), in the app's words, never the backend's JSON and never "try again later".

const REASON = 'Your role (user) does not open this page.'

async function signedInUser(page: Page): Promise<LocalAccount> {
  const account = await createLocalAccount('user')
  await signInLocally(page, account, { from: '/login' })
  await expect(page).toHaveURL(bareUrl('/ask'))
  return account
}

/** How often a text occurs in the page's words, whatever the case. */
const occurrences = async (page: Page, text: string) => (await page.locator('body').innerText()).toLowerCase().split(text.toLowerCase()).length - 1

test.describe('Refused and missing addresses for a plain user', () => {
  test('a download above the role is the Not allowed page with a way back, and plain text for scripts', async ({ page }) => {
    await signedInUser(page)
    for (const path of ['/resources/query-logs.csv', '/resources/query-logs-dataset.csv?redirectTo=%2Flogs']) {
      const refused = await page.goto(path)
      expect(refused?.status(), path).toBe(403)
      expect(refused?.headers()['content-type'], path).toMatch(/^text\/html/)
      const alert = page.getByRole('alert')
      await expect(alert.getByRole('heading', { level: 1, name: 'Not allowed' })).toBeVisible()
      await expect(alert).toContainText(REASON)
      await expect(alert).toContainText('ask an administrator')
      expect(await page.locator('body').innerText(), path).not.toContain('"message"')
      // The page keeps the security headers of every answer.
      expect(refused?.headers()['content-security-policy'], path).toBeTruthy()
    }
    await page.getByRole('link', { name: 'Back to Ask' }).click()
    await expect(page).toHaveURL(bareUrl('/ask'))

    // The page's scripts download with this header and read the reason as plain text.
    const scripted = await page.request.get('/resources/query-logs.csv', { headers: { 'x-download': 'script' } })
    expect(scripted.status()).toBe(403)
    expect(scripted.headers()['content-type']).toMatch(/^text\/plain/)
    expect(await scripted.text()).toBe(REASON)
  })

  test('an admin screen spelt another way (capitals, encoded letters, doubled slashes) is refused all the same', async ({ page }) => {
    await signedInUser(page)
    for (const path of ['/USERS/new', '/Organisations', '/API-KEYS', '/Settings', '/%75sers', '/Logs', '/Resources/query-logs.csv']) {
      const refused = await page.goto(path)
      expect(refused?.status(), path).toBe(403)
      await expect(page.getByRole('heading', { level: 1, name: 'Not allowed' }), path).toBeVisible()
      // No form or data of the screen.
      await expect(page.getByRole('main').getByRole('textbox'), path).toHaveCount(0)
      await expect(page.getByRole('main').getByRole('button'), path).toHaveCount(0)
    }
  })

  test('the Not allowed page says its reason once and keeps the navigation of the role', async ({ page }, testInfo) => {
    const account = await signedInUser(page)
    const refused = await page.goto('/logs')
    expect(refused?.status()).toBe(403)
    await expect(page.getByRole('heading', { level: 1, name: 'Not allowed' })).toBeVisible()
    expect(await occurrences(page, 'does not open this page')).toBe(1)
    // What to do is said once too: the reason names the role, the page adds whom to ask.
    expect(await occurrences(page, 'administrator')).toBe(1)

    const nav = dashboardNav(page)
    for (const name of ['Ask', 'Agent', 'Saved queries']) await expect(nav.getByRole('link', { name, exact: true }).last()).toBeAttached()
    for (const name of ['Articles', 'Logs', 'Settings', 'Users']) await expect(nav.getByRole('link', { name, exact: true })).toHaveCount(0)
    await expect(nav.getByRole('link', { name: `${account.username} (your account)` })).toBeVisible()
    await expect(nav.getByRole('button', { name: 'Sign out' })).toBeVisible()
    await nav.getByRole('list').last().getByRole('link', { name: 'Saved queries', exact: true }).click()
    await expect(page).toHaveURL(bareUrl('/saved'))
    await expect(page.getByRole('heading', { level: 1, name: 'Saved queries' })).toBeVisible()
    if (testInfo.project.use.javaScriptEnabled !== false) {
      // Back to the refusal, then on through the navigation without a reload.
      await page.goBack()
      await expect(page.getByRole('heading', { level: 1, name: 'Not allowed' })).toBeVisible()
      await nav.getByRole('list').last().getByRole('link', { name: 'Agent', exact: true }).click()
      await expect(page).toHaveURL(bareUrl('/agent'))
    }
  })

  test("another user's answer as .docx is not found, not a failure to try again later", async ({ page }) => {
    const other = await createLocalAccount('user')
    const { access_token: token } = await backend('/auth/login', { method: 'POST', body: { username: other.username, password: other.password } })
    const asked = (await backend('/ask_qa', { method: 'POST', token, body: { command: 'How do I add an article?' } })) as { log_id: number; task_id?: string }
    expect(asked.log_id).toBeGreaterThan(0)
    await signedInUser(page)

    for (const path of [`/resources/answer.docx?log=${asked.log_id}`, ...(asked.task_id ? [`/resources/answer.docx?task=${asked.task_id}`] : []), '/resources/answer.docx']) {
      const missing = await page.goto(path)
      expect(missing?.status(), path).toBe(404)
      const alert = page.getByRole('alert')
      await expect(alert.getByRole('heading', { level: 1, name: 'Not found' })).toBeVisible()
      await expect(alert).toContainText('This answer does not exist, or it is not yours to download.')
      await expect(page.getByText(/try again later/i)).toHaveCount(0)
    }
    await page.getByRole('link', { name: 'Back to Ask' }).click()
    await expect(page).toHaveURL(bareUrl('/ask'))

    const scripted = await page.request.get(`/resources/answer.docx?log=${asked.log_id}`, { headers: { 'x-download': 'script' } })
    expect(scripted.status()).toBe(404)
    expect(await scripted.text()).toBe('This answer does not exist, or it is not yours to download.')
  })
})
