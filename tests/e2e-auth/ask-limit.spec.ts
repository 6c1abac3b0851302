import { randomBytes } from 'node:crypto'
import { backend, E2E, expect, signInLocally, test, whenHydrated, type LocalAccount } from './support'

// The per-account limit on asking (ASK_RATE_LIMIT), on the second product, which allows E2E.inviteAskLimit questions a
// minute. Whoever is past it is told so in a sentence on the screen they asked from, the question kept to ask again:
// never an error page. Each test has an account of its own, so the two projects (one address) never share a count.

const ADMIN = { username: 'admin', password: E2E.adminPassword }

/** A user-role account on the second product, made by its administrator with a password. */
async function accountOnInviteProduct(): Promise<LocalAccount> {
  const token = (await backend('/auth/login', { method: 'POST', body: ADMIN, api: E2E.inviteApi })).access_token as string
  const [organization] = (await backend('/organizations', { api: E2E.inviteApi })) as { id: number }[]
  const username = `asker-${randomBytes(4).toString('hex')}`
  const password = `pw-${randomBytes(6).toString('hex')}-9`
  const created = await backend('/admin/users', {
    method: 'POST',
    token,
    api: E2E.inviteApi,
    body: { username, email: `${username}@example.test`, role: 'user', organization_id: organization.id, password },
  })
  return { id: created.id as number, username, password }
}

/** Asks as the account straight at the backend (another session of it) until the backend refuses: the allowance is used up. */
async function useUpAllowance(account: LocalAccount) {
  const token = (await backend('/auth/login', { method: 'POST', body: { username: account.username, password: account.password }, api: E2E.inviteApi }))
    .access_token as string
  const statuses: number[] = []
  for (let question = 0; question <= E2E.inviteAskLimit; question++) {
    const response = await fetch(`${E2E.inviteApi}/ask_qa`, {
      method: 'POST',
      headers: { apikey: E2E.apiKey, authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ command: `Warming up, question ${question + 1}` }),
    })
    statuses.push(response.status)
    if (response.status === 429) break
  }
  expect(statuses.at(-1)).toBe(429)
}

const LIMIT_SAID = new RegExp(`You have reached the limit of ${E2E.inviteAskLimit} questions a minute \\(agent runs count too\\)\\. Please wait \\d+ seconds? and ask again\\.`)

test.describe('The limit on asking, per account', () => {
  test.use({ baseURL: E2E.inviteWeb })

  test('Ask says so in a sentence and keeps the question, streamed or posted', async ({ page }, testInfo) => {
    const account = await accountOnInviteProduct()
    await signInLocally(page, account, { from: '/login' })
    await expect(page).toHaveURL(/\/ask$/)
    const question = page.getByLabel('Question', { exact: true })
    await whenHydrated(question, testInfo)
    const typed = 'Which parcels can be returned after thirty days?'
    await question.fill(typed)
    await useUpAllowance(account)

    const isJs = testInfo.project.use.javaScriptEnabled !== false
    // With scripts the page asks for a stream first (a model is configured); its refusal goes the plain way.
    const streamed = isJs ? page.waitForResponse((response) => response.url().endsWith('/resources/ask-stream')) : null
    const posted = page.waitForResponse((response) => response.request().method() === 'POST' && new URL(response.url()).pathname === '/ask')
    await page.getByRole('button', { name: 'Ask', exact: true }).click()
    if (streamed) expect((await streamed).status()).toBe(429)
    expect((await posted).status()).toBe(429)

    const refusal = page.getByRole('alert').filter({ hasText: 'You have reached the limit' })
    await expect(refusal).toHaveText(LIMIT_SAID)
    await expect(question).toHaveValue(typed)
    await expect(page.getByRole('heading', { level: 1, name: 'Ask' })).toBeVisible()
    await expect(page.getByText('Something went wrong')).toHaveCount(0)
    // Nothing was asked: no answer, and the address is still the bare Ask page.
    await expect(page).toHaveURL(/\/ask$/)
    await expect(page.locator('#answer')).toHaveCount(0)
  })

  test('the Agent screen says so in a sentence and keeps the command', async ({ page }, testInfo) => {
    const account = await accountOnInviteProduct()
    await signInLocally(page, account, { from: '/login' })
    await expect(page).toHaveURL(/\/ask$/)
    await page.goto('/agent')
    const command = page.getByLabel('Command', { exact: true })
    await whenHydrated(command, testInfo)
    const typed = 'List the steps to return a damaged parcel.'
    await command.fill(typed)
    await useUpAllowance(account)

    const posted = page.waitForResponse((response) => response.request().method() === 'POST' && new URL(response.url()).pathname === '/agent')
    await page.getByRole('button', { name: 'Run agent' }).click()
    expect((await posted).status()).toBe(429)

    const refusal = page.getByRole('status').filter({ hasText: 'Too many questions' })
    await expect(refusal).toContainText(LIMIT_SAID)
    await expect(command).toHaveValue(typed)
    await expect(page.getByRole('heading', { level: 1, name: 'General agent' })).toBeVisible()
    await expect(page.getByText('Something went wrong')).toHaveCount(0)
    // The form's own address (an index route's post, without scripts), no run's.
    await expect(page).toHaveURL(/\/agent(\?index)?$/)
  })
})
