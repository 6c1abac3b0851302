import { E2E, bareUrl, dashboardNav, expect, isRefused, postFromAnotherSite, providerPerson, providerRefreshes, signInWithProvider, test } from './support'

test.describe('Single sign-on', () => {
  test('signs a newcomer in through the provider and lands on the bare path of the page they asked for', async ({ page }) => {
    await page.goto('/logs?status=liked')
    await expect(page).toHaveURL(/\/login\?redirectTo=%2Flogs$/)
    await expect(page.getByRole('link', { name: 'Register' })).toHaveAttribute('href', '/register')
    await signInWithProvider(page, 'admin')
    // SEED.md §2: after the callback the address is the bare path, without the callback's query (or the old one).
    await expect(page).toHaveURL(bareUrl('/logs'))
    for (const name of ['Ask', 'Articles', 'Logs', 'Settings', 'Users']) await expect(dashboardNav(page).getByRole('link', { name })).toBeVisible()
  })

  test('offers an editor only what editors may do, and the backend refuses the rest when forced', async ({ page }) => {
    await signInWithProvider(page, 'editor')
    await expect(page).toHaveURL(bareUrl('/ask'))
    const nav = dashboardNav(page)
    await expect(nav.getByRole('link', { name: 'Articles' })).toBeVisible()
    await expect(nav.getByRole('link', { name: 'Logs' })).toBeVisible()
    await expect(nav.getByRole('link', { name: 'Settings' })).toHaveCount(0)
    await expect(nav.getByRole('link', { name: 'Users' })).toHaveCount(0)
    const forced = await page.goto('/settings')
    expect(forced?.status()).toBe(403)
    await expect(page.getByRole('heading', { name: 'Not allowed' })).toBeVisible()
    await expect(page.getByRole('alert')).toContainText('does not open this page')
    await expect(page.getByRole('alert')).toContainText('ask an administrator')
    await expect(page.getByRole('link', { name: 'Back to Ask' })).toBeVisible()
    await expect(page.getByRole('button', { name: /save/i })).toHaveCount(0)
  })

  test('signs out here and at the provider', async ({ page }) => {
    // Signing out ends every token of the person, so this test signs in as a person no other test signs in as.
    await signInWithProvider(page, providerPerson('user'))
    await expect(page).toHaveURL(bareUrl('/ask'))
    await page.goto('/logout')
    await page.getByRole('button', { name: 'Sign out' }).click()
    // The provider asks whether to end its own session too (RP-initiated logout), then sends the browser back.
    await page.getByRole('button', { name: 'Yes, sign me out' }).click()
    await expect(page).toHaveURL(bareUrl('/login'))
    await expect(page.getByRole('status').filter({ hasText: 'You are signed out.' })).toBeVisible()
    await page.goto('/ask')
    await expect(page).toHaveURL(/\/login$/)
    // The provider's session is over as well: it asks for the login again.
    await page.getByRole('button', { name: 'Sign in with single sign-on' }).click()
    await expect(page.locator('input[name="login"]')).toBeVisible()
  })

  test('renews the session with the refresh token ahead of its expiry', async ({ page }) => {
    // `refresher` gets ID tokens that live 65 s: inside the 60 s renewal window about 5 s after they are issued. A
    // person of this test alone, so that the count is of this browser's renewals, not of the other script mode's.
    const person = providerPerson('refresher')
    await signInWithProvider(page, person)
    await expect(page).toHaveURL(bareUrl('/ask'))
    const before = await providerRefreshes(person)
    await page.waitForTimeout(6_000)
    await dashboardNav(page).getByRole('link', { name: 'Ask' }).click()
    await expect.poll(() => providerRefreshes(person), { timeout: 20_000 }).toBeGreaterThan(before)
    // Still signed in, on the renewed session, page after page.
    await page.goto('/agent')
    await expect(page).toHaveURL(bareUrl('/agent'))
    await page.goto('/ask')
    await expect(page).toHaveURL(bareUrl('/ask'))
  })

  test('sends a session that has expired and cannot be renewed back to sign-in', async ({ page }) => {
    // `brief` gets 15 s ID tokens and no refresh token.
    await signInWithProvider(page, 'brief')
    await expect(page).toHaveURL(bareUrl('/ask'))
    await page.waitForTimeout(11_000)
    await page.goto('/agent')
    await expect(page).toHaveURL(/\/login\?redirectTo=%2Fagent$/)
    await expect(page.getByRole('status').filter({ hasText: 'Your session has ended' })).toBeVisible()
  })

  test('lets the session cookie expire with its token, and then says at sign-in that the session ended', async ({ page, context }) => {
    // `brief` gets 15 s ID tokens and no refresh token: the cookie that carries one lives no longer.
    await signInWithProvider(page, 'brief')
    await expect(page).toHaveURL(bareUrl('/ask'))
    const session = (await context.cookies(E2E.web)).find((cookie) => cookie.name === '__session')
    expect(session?.expires).toBeGreaterThan(0)
    expect(session!.expires * 1000).toBeLessThanOrEqual(Date.now() + 15_000)
    await page.waitForTimeout(16_000)
    expect((await context.cookies(E2E.web)).find((cookie) => cookie.name === '__session')).toBeUndefined()
    await page.goto('/agent')
    await expect(page).toHaveURL(/\/login\?redirectTo=%2Fagent$/)
    await expect(page.getByRole('status').filter({ hasText: 'Your session has ended' })).toBeVisible()
    // Said once.
    await page.goto('/ask')
    await expect(page).toHaveURL(/\/login$/)
    await expect(page.getByRole('status').filter({ hasText: 'Your session has ended' })).toHaveCount(0)
  })

  test('sends a question asked once the session expired to sign-in, saying so, and back into its field', async ({ page }) => {
    await signInWithProvider(page, 'brief')
    await expect(page).toHaveURL(bareUrl('/ask'))
    const question = page.getByRole('textbox', { name: 'Question', exact: true })
    await question.fill('How do I add an article?')
    // Within the last seconds of the token, which the web server treats as expired: with scripts the question goes to
    // the stream first (a model is configured), whose refusal must not use up the message.
    await page.waitForTimeout(11_000)
    await page.getByRole('button', { name: 'Ask', exact: true }).click()
    // The question is kept in the address to return to (ADR 324), through the provider too.
    await expect(page).toHaveURL(/\/login\?redirectTo=%2Fask%3Fdraft%3D/)
    await expect(page.getByRole('status').filter({ hasText: 'Your session has ended' })).toBeVisible()
    // The provider still knows the person: it sends the browser straight back.
    await page.getByRole('button', { name: 'Sign in with single sign-on' }).click()
    await expect(page).toHaveURL(/\/ask\?draft=How\+do\+I\+add\+an\+article%3F$/)
    await expect(question).toHaveValue('How do I add an article?')
  })

  test('refuses a forged or replayed callback with a clear page, and creates no session', async ({ page, browser }) => {
    const forged = await page.goto('/auth/callback?code=made-up&state=made-up')
    expect(forged?.status()).toBe(400)
    await expect(page.getByRole('heading', { name: 'Sign-in failed' })).toBeVisible()
    await page.goto('/ask')
    await expect(page).toHaveURL(/\/login$/)

    let callback = ''
    page.on('request', (request) => {
      if (request.url().startsWith(`${E2E.web}/auth/callback?`)) callback = request.url()
    })
    await signInWithProvider(page, 'user')
    await expect(page).toHaveURL(bareUrl('/ask'))
    expect(callback).toContain('state=')

    // The same browser again: its state cookie was used up.
    const replayed = await page.goto(callback)
    expect(replayed?.status()).toBe(400)
    await expect(page.getByRole('heading', { name: 'Sign-in failed' })).toBeVisible()

    // Another browser with the stolen callback address gets no session.
    const other = await browser.newContext({ javaScriptEnabled: test.info().project.use.javaScriptEnabled })
    const otherPage = await other.newPage()
    const stolen = await otherPage.goto(callback)
    expect(stolen?.status()).toBe(400)
    await otherPage.goto('/ask')
    await expect(otherPage).toHaveURL(/\/login$/)
    await other.close()
  })

  test('refuses a cross-site post', async ({ page, context }) => {
    await signInWithProvider(page, 'user')
    await expect(page).toHaveURL(bareUrl('/ask'))
    expect(isRefused((await postFromAnotherSite(context, '/logout', { as: 'document' })).status)).toBe(true)
    expect((await postFromAnotherSite(context, '/logout', { as: 'data', routeId: 'routes/_auth+/logout' })).status).toBe(403)
    expect((await postFromAnotherSite(context, '/logout', { as: 'fetch-metadata' })).status).toBe(403)
    const feedback = { intent: 'feedback', log_id: '1', feedback: 'like', task: 'x' }
    expect((await postFromAnotherSite(context, '/ask', { form: feedback, as: 'data', routeId: 'routes/_dashboard+/ask' })).status).toBe(403)
    expect((await postFromAnotherSite(context, '/auth/oidc', { form: { redirectTo: '/ask' }, as: 'data', routeId: 'routes/_auth+/auth.oidc' })).status).toBe(403)
    // Still signed in: the refused sign-out did nothing.
    await page.goto('/agent')
    await expect(page).toHaveURL(bareUrl('/agent'))
  })
})
