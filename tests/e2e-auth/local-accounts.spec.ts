import {
  E2E,
  bareUrl,
  createLocalAccount,
  dashboardNav,
  expect,
  isRefused,
  postFromAnotherSite,
  readSession,
  sessionSetBy,
  signInLocally,
  test,
  updateAccount,
} from './support'

test.describe('Local accounts', () => {
  test('signs a registered account in and lands on the bare path of the page it asked for', async ({ page, context }) => {
    const account = await createLocalAccount('editor')
    await page.goto('/articles?sortField=title')
    await expect(page).toHaveURL(/\/login\?redirectTo=%2Farticles$/)
    await expect(page.getByRole('link', { name: 'Register' })).toHaveAttribute('href', '/register')
    await signInLocally(page, account)
    await expect(page).toHaveURL(bareUrl('/articles'))
    // A signed, httpOnly, SameSite=Lax cookie carries the session.
    const cookie = (await context.cookies(E2E.web)).find((candidate) => candidate.name === '__session')
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax' })
    expect((await readSession(context)).auth).toMatchObject({ kind: 'local', user: { username: account.username, role: 'editor' } })
  })

  test('still lands on the page asked for after a refused sign-in', async ({ page }) => {
    const account = await createLocalAccount('editor')
    await page.goto('/logs')
    await expect(page).toHaveURL(/\/login\?redirectTo=%2Flogs$/)
    await signInLocally(page, { username: account.username, password: 'not-the-password-1' })
    await expect(page.getByRole('alert').filter({ hasText: 'Invalid username or password' })).toBeVisible()
    await expect(page).toHaveURL(/\/login\?redirectTo=%2Flogs$/)
    await signInLocally(page, account)
    await expect(page).toHaveURL(bareUrl('/logs'))
  })

  test('signs a person in right after they register, and lands them on Ask', async ({ page, context }) => {
    const username = `reg-${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`
    const password = 'meadow-lantern-73'
    await page.goto('/register')
    // Someone with an account finds the way to sign in.
    await expect(page.getByRole('link', { name: 'Sign in', exact: true })).toHaveAttribute('href', '/login')
    await page.getByLabel('Username', { exact: true }).fill(username)
    // A refusal says the field as the form names it, and keeps the rest.
    await page.getByLabel('Email', { exact: true }).fill('mary-at-example')
    await page.getByLabel('First name', { exact: true }).evaluate((field) => field.closest('form')?.setAttribute('novalidate', ''))
    await page.getByRole('button', { name: 'Register' }).click()
    await expect(page.getByText('Email is not a valid address', { exact: true })).toBeVisible()
    await expect(page.getByLabel('Username', { exact: true })).toHaveValue(username)
    await page.getByLabel('Email', { exact: true }).fill(`${username}@example.org`)
    await page.getByLabel('First name', { exact: true }).fill('Mary')
    await page.getByLabel('Last name', { exact: true }).fill('Somerville')
    await page.getByLabel('Password', { exact: true }).fill(password)
    await page.getByLabel('Password again', { exact: true }).fill(password)
    await page.getByRole('button', { name: 'Register' }).click()
    await expect(page).toHaveURL(bareUrl('/ask'))
    await expect(page.getByRole('status').filter({ hasText: 'User registered' })).toBeVisible()
    expect((await readSession(context)).auth).toMatchObject({ kind: 'local', user: { username, role: 'user' } })
  })

  test('answers a wrong password and an unknown username with the same message, never which part was wrong', async ({ page }) => {
    const account = await createLocalAccount('user')
    await signInLocally(page, { username: account.username, password: 'not-the-password-1' })
    const alert = page.getByRole('form', { name: 'Sign in with a local account' }).getByRole('alert')
    await expect(alert).toHaveText('Invalid username or password.')
    await expect(page.getByLabel('Username')).toHaveValue(account.username)
    await expect(page.getByLabel('Password')).toHaveValue('')

    await signInLocally(page, { username: `nobody-${account.username}`, password: account.password })
    await expect(alert).toHaveText('Invalid username or password.')
    await page.goto('/ask')
    await expect(page).toHaveURL(/\/login$/)
  })

  test("shows the backend's lockout after repeated failures", async ({ page }) => {
    const account = await createLocalAccount('user')
    const alert = page.getByRole('form', { name: 'Sign in with a local account' }).getByRole('alert')
    for (let attempt = 1; attempt <= 5; attempt++) {
      await signInLocally(page, { username: account.username, password: `wrong-${attempt}-password` })
      await expect(alert).toHaveText('Invalid username or password.')
    }
    // Locked now: even the right password is refused until the lock ends, and the message says when that is
    // (LOGIN_LOCK_SECONDS, 900 s by default).
    await signInLocally(page, account)
    await expect(alert).toHaveText('Too many failed sign-in attempts; try again in 15 minutes')
  })

  test('offers a user only what users may do, and the backend refuses the rest when forced', async ({ page }) => {
    const account = await createLocalAccount('user')
    await signInLocally(page, account, { from: '/login' })
    await expect(page).toHaveURL(bareUrl('/ask'))
    const nav = dashboardNav(page)
    await expect(nav.getByRole('link', { name: 'Ask' })).toBeVisible()
    await expect(nav.getByRole('link', { name: 'Agent' })).toBeVisible()
    for (const name of ['Articles', 'Logs', 'Settings', 'Users']) await expect(nav.getByRole('link', { name })).toHaveCount(0)
    const forced = await page.goto('/logs')
    expect(forced?.status()).toBe(403)
    await expect(page.getByRole('heading', { name: 'Not allowed' })).toBeVisible()
    await expect(page.getByRole('alert')).toContainText('does not open this page')
    await expect(page.getByRole('link', { name: 'Back to Ask' })).toBeVisible()
  })

  test('signs out back to the sign-in page', async ({ page }) => {
    const account = await createLocalAccount('user')
    await signInLocally(page, account, { from: '/login' })
    await expect(page).toHaveURL(bareUrl('/ask'))
    await page.goto('/logout')
    await page.getByRole('button', { name: 'Sign out' }).click()
    await expect(page).toHaveURL(bareUrl('/login'))
    await expect(page.getByRole('status').filter({ hasText: 'You are signed out.' })).toBeVisible()
    await page.goto('/ask')
    await expect(page).toHaveURL(/\/login$/)
  })

  test('renews the session ahead of its expiry', async ({ page, context }) => {
    const account = await createLocalAccount('user')
    await signInLocally(page, account, { from: '/login' })
    await expect(page).toHaveURL(bareUrl('/ask'))
    const first = (await readSession(context)).auth!
    // Local tokens live E2E_AUTH_TOKEN_TTL_SECONDS (70 s): inside the 60 s window after 10 s.
    await page.waitForTimeout((E2E.tokenTtlSeconds - 60 + 1) * 1000)
    await dashboardNav(page).getByRole('link', { name: 'Ask' }).click()
    await expect.poll(async () => (await readSession(context)).auth?.expiresAt ?? 0, { timeout: 20_000 }).toBeGreaterThan(first.expiresAt)
    await page.goto('/agent')
    await expect(page).toHaveURL(bareUrl('/agent'))
  })

  test('sends a session that can no longer be renewed back to sign-in', async ({ page }) => {
    const account = await createLocalAccount('user')
    await signInLocally(page, account, { from: '/login' })
    await expect(page).toHaveURL(bareUrl('/ask'))
    // The backend stops accepting the account's token and will not renew it.
    await updateAccount(account.id, { enabled: false })
    await page.goto('/agent/government')
    await expect(page).toHaveURL(/\/login\?redirectTo=%2Fagent%2Fgovernment$/)
    await expect(page.getByRole('status').filter({ hasText: 'Your session has ended' })).toBeVisible()
  })

  test('refuses a cross-site post', async ({ page, context }) => {
    const account = await createLocalAccount('user')
    const credentials = { username: account.username, password: account.password }
    for (const as of ['document', 'data', 'fetch-metadata'] as const) {
      const signIn = await postFromAnotherSite(context, '/login', { form: credentials, as, routeId: 'routes/_auth+/login' })
      expect(as === 'document' ? isRefused(signIn.status) : signIn.status === 403).toBe(true)
      expect(sessionSetBy(signIn)?.auth).toBeUndefined()
    }

    await signInLocally(page, account, { from: '/login' })
    await expect(page).toHaveURL(bareUrl('/ask'))
    expect(isRefused((await postFromAnotherSite(context, '/logout', { as: 'document' })).status)).toBe(true)
    expect((await postFromAnotherSite(context, '/logout', { as: 'data', routeId: 'routes/_auth+/logout' })).status).toBe(403)
    const feedback = { intent: 'feedback', log_id: '1', feedback: 'like', task: 'x' }
    expect((await postFromAnotherSite(context, '/ask', { form: feedback, as: 'fetch-metadata' })).status).toBe(403)
    await page.goto('/agent')
    await expect(page).toHaveURL(bareUrl('/agent'))
  })
})
