import { test, expect } from '@playwright/test'
import { chromiumLaunchOptions } from '../browser'
import { E2E, createLocalAccount } from './support'

// The product here runs in production mode, so its session cookie is Secure. A browser that reaches it over plain
// HTTP on a real host name drops that cookie: without a word, every sign-in would land back on the sign-in page.
// The browser below reaches the same server as kb.example.test.

const HOST_NAME = 'kb.example.test'
const PLAIN_HTTP = `http://${HOST_NAME}:${new URL(E2E.web).port}`

test.use({
  launchOptions: { ...chromiumLaunchOptions, args: [...(chromiumLaunchOptions.args ?? []), `--host-resolver-rules=MAP ${HOST_NAME} 127.0.0.1`] },
})

test.describe('Sign-in over plain HTTP with Secure cookies', () => {
  test('the sign-in page says why signing in cannot last here, and names the setting', async ({ page }) => {
    const account = await createLocalAccount('user')
    await page.goto(`${PLAIN_HTTP}/login`)
    const notice = page.getByTestId('cookie-problem')
    await expect(notice).toContainText('plain HTTP')
    await expect(notice).toContainText('COOKIE_SECURE=false')

    const form = page.getByRole('form', { name: 'Sign in with a local account' })
    await form.getByLabel('Username').fill(account.username)
    await form.getByLabel('Password').fill(account.password)
    await form.getByRole('button', { name: 'Sign in', exact: true }).click()
    await expect(form.getByRole('alert')).toContainText('Your username and password were accepted, but this browser cannot stay signed in')
    await expect(page).toHaveURL(new RegExp(`^${PLAIN_HTTP.replaceAll('.', '\\.')}/login`))
    // Indeed the browser kept no session.
    expect((await page.context().cookies(PLAIN_HTTP)).map((cookie) => cookie.name)).not.toContain('__session')
  })

  test('on a loopback address nothing is said and signing in works', async ({ page }) => {
    const account = await createLocalAccount('user')
    await page.goto(`${E2E.web}/login`)
    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible()
    await expect(page.getByTestId('cookie-problem')).toHaveCount(0)
    const form = page.getByRole('form', { name: 'Sign in with a local account' })
    await form.getByLabel('Username').fill(account.username)
    await form.getByLabel('Password').fill(account.password)
    await form.getByRole('button', { name: 'Sign in', exact: true }).click()
    await expect(page).toHaveURL(`${E2E.web}/ask`)
  })
})
