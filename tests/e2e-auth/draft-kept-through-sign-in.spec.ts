import { backend, createLocalAccount, expect, readSession, signInLocally, test, whenHydrated } from './support'

// A question (or an agent command) typed after the session has ended is not lost: pressing Ask leads to sign-in, and
// after signing in again the text is back in its field, not sent, with a note saying so (ADR 324). With scripts the
// question is first sent to the stream, whose refusal goes the plain way; without them it is a plain form post.

test.use({ viewport: { width: 390, height: 844 } })

const isJs = (project: { use: { javaScriptEnabled?: boolean } }) => project.use.javaScriptEnabled !== false

test('a question typed after the session ended is back in Ask’s field after signing in again', async ({ page, context }, testInfo) => {
  const account = await createLocalAccount('user')
  await signInLocally(page, account, { from: '/login' })
  await expect(page).toHaveURL(/\/ask$/)
  const question = page.getByLabel('Question', { exact: true })
  await whenHydrated(question, testInfo)

  // The session ends while the page is open: its cookie is gone (it expired with its token, or another tab signed out).
  await context.clearCookies({ name: '__session' })
  const typed = 'Which parcels can be returned after 30 days?\nAnd who pays the postage & packing?'
  await question.fill(typed)
  // With scripts the question goes to the stream first (a model is configured here), whose redirect is not followed.
  const streamed = isJs(testInfo.project) ? page.waitForRequest((request) => request.method() === 'POST' && request.url().endsWith('/resources/ask-stream')) : null
  await page.getByRole('button', { name: 'Ask', exact: true }).click()
  if (streamed) await streamed

  await expect(page).toHaveURL(/\/login\?redirectTo=/)
  await expect(page.getByText('Your session has ended. Please sign in again.')).toBeVisible()
  await expect(page.locator('#draft-kept')).toContainText('What you typed was not sent')
  await signInLocally(page, account)

  await expect(page).toHaveURL(/\/ask\?draft=/)
  await expect(question).toHaveValue(typed)
  await expect(page.getByRole('status').filter({ hasText: 'your question was not sent' })).toBeVisible()
  // Nothing was asked: the question waits for Ask to be pressed again.
  await expect(page.locator('#answer')).toHaveCount(0)
  await whenHydrated(question, testInfo)
  await page.getByRole('button', { name: 'Ask', exact: true }).click()
  await expect(page.locator('#answer')).toBeVisible()
})

test('a follow-up typed after the session ended at the backend comes back in its thread', async ({ page, context }, testInfo) => {
  const account = await createLocalAccount('user')
  await signInLocally(page, account, { from: '/login' })
  await expect(page).toHaveURL(/\/ask$/)
  const question = page.getByLabel('Question', { exact: true })
  await whenHydrated(question, testInfo)
  await question.fill('How do I add an article?')
  await page.getByRole('button', { name: 'Ask', exact: true }).click()
  const followUp = page.getByLabel('Follow-up question', { exact: true })
  await expect(followUp).toBeVisible()
  await expect(page.getByRole('button', { name: 'Ask', exact: true })).toBeEnabled()
  const thread = new URL(page.url()).searchParams.get('thread')
  expect(thread).toMatch(/^\d+$/)

  // Signed out elsewhere: the backend ends the session, and the web server's cookie now carries a refused token.
  const { token } = (await readSession(context)).auth as unknown as { token: string }
  await backend('/auth/logout', { method: 'POST', token })
  await whenHydrated(followUp, testInfo)
  const typed = 'And how do I publish it?'
  await followUp.fill(typed)
  await page.getByRole('button', { name: 'Ask', exact: true }).click()

  await expect(page).toHaveURL(/\/login\?redirectTo=/)
  await signInLocally(page, account)
  await expect(page).toHaveURL(new RegExp(`/ask\\?draft=[^&]+&thread=${thread}$`))
  await expect(followUp).toHaveValue(typed)
})

test('an agent command typed after the session ended is back in the Agent screen’s field', async ({ page, context }, testInfo) => {
  const account = await createLocalAccount('user')
  await signInLocally(page, account, { from: '/login' })
  await expect(page).toHaveURL(/\/ask$/)
  await page.goto('/agent')
  const command = page.getByLabel('Command', { exact: true })
  await whenHydrated(command, testInfo)
  await context.clearCookies({ name: '__session' })
  const typed = 'Summarise the returns policy for a customer'
  await command.fill(typed)
  await page.getByRole('button', { name: 'Run agent', exact: true }).click()

  await expect(page).toHaveURL(/\/login\?redirectTo=/)
  await signInLocally(page, account)
  await expect(page).toHaveURL(/\/agent\?draft=/)
  await expect(command).toHaveValue(typed)
  await expect(page.getByRole('status').filter({ hasText: 'your command was not sent' })).toBeVisible()
})
