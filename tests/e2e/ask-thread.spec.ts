import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Browser, type Locator, type Page } from '@playwright/test'

const FIRST = 'How do I add an article?'
const FOLLOW_UP = 'And how do I publish it?'

/** Asks on the Ask page; with scripts, Enter sends the question (Shift+Enter would add a line). */
async function ask(page: Page, field: 'Question' | 'Follow-up question', question: string, isScripted: boolean) {
  const box = page.getByRole('textbox', { name: field, exact: true })
  await box.fill(question)
  if (isScripted) await box.press('Enter')
  else await page.getByRole('button', { name: 'Ask', exact: true }).click()
  await expect(page.getByRole('region', { name: 'Answer' })).toContainText(`You asked: ${question}`)
}

const threadOf = (page: Page) => new URL(page.url()).searchParams.get('thread')

/**
 * axe's serious and critical findings on the page. axe runs in the page, which a browser without scripts cannot do:
 * then the markup it received is scanned in a context that runs axe but no page script (CSP script-src 'none').
 */
async function blockingViolations(page: Page, browser: Browser, isScripted: boolean): Promise<string[]> {
  let results
  if (isScripted) {
    results = await new AxeBuilder({ page }).analyze()
  } else {
    const url = page.url()
    const html = (await page.content()).replace(/<\/?noscript>/gi, '').replace(/<meta[^>]*http-equiv="refresh"[^>]*>/gi, '')
    const context = await browser.newContext({ javaScriptEnabled: true })
    try {
      const copy = await context.newPage()
      await copy.route(url, (route) => route.fulfill({ status: 200, body: html, headers: { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': "script-src 'none'" } }))
      await copy.goto(url)
      results = await new AxeBuilder({ page: copy }).analyze()
    } finally {
      await context.close()
    }
  }
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`)
}

test.describe('Ask: a conversation', () => {
  test('a follow-up is asked in the thread, with the earlier question and answer above the recent questions', async ({ page, browser }, testInfo) => {
    const isScripted = testInfo.project.name === 'js'
    await page.goto('/ask')
    await ask(page, 'Question', FIRST, isScripted)
    const thread = threadOf(page)
    expect(thread).toMatch(/^\d+$/)

    await ask(page, 'Follow-up question', FOLLOW_UP, isScripted)
    expect(threadOf(page)).toBe(thread)
    await expect(page).toHaveURL(/#answer$/)
    const answer = page.getByRole('region', { name: 'Answer' })
    await expect(answer.getByRole('list', { name: 'Sources' })).toBeVisible()
    const earlier = page.getByRole('region', { name: 'Earlier in this thread' })
    await expect(earlier).toContainText(`You asked: ${FIRST}`)
    await expect(earlier.locator('a[href^="/read/"]').first()).toBeVisible()
    // The newest answer first, right after the question box.
    const order = await page.evaluate(() => ['ask-heading', 'answer-heading', 'earlier-heading'].map((id) => document.getElementById(id)!.getBoundingClientRect().top))
    expect(order[0]).toBeLessThan(order[1])
    expect(order[1]).toBeLessThan(order[2])

    // Listed by its first question (the same question may start other threads too: the link names this one).
    const link = () => page.getByRole('region', { name: 'Your recent questions' }).locator(`a[href="/ask?thread=${thread}#answer"]`)
    await expect(link()).toHaveText(FIRST)
    await expect(link()).toHaveAttribute('aria-current', 'page')
    // Threads that began alike are told apart by when they were last asked and how many questions they hold.
    const item = link().locator('xpath=..')
    await expect(item.locator('time')).toHaveAttribute('datetime', /^\d{4}-\d\d-\d\dT\d\d:\d\d/)
    await expect(item).toContainText('· 2 questions')

    // Reopened from the list, the thread shows its latest answer and what came before.
    await page.goto('/ask')
    await link().click()
    await expect(page.getByRole('region', { name: 'Answer' })).toContainText(`You asked: ${FOLLOW_UP}`)
    await expect(page.getByRole('region', { name: 'Earlier in this thread' })).toContainText(FIRST)

    expect(await blockingViolations(page, browser, isScripted)).toEqual([])
  })

  test('lists the latest threads, and more of them on request, a page at a time', async ({ page }, testInfo) => {
    // Fifty-one new threads, asked as the form asks; the list shows eight, the newest first, and offers more.
    const marker = `${testInfo.project.name} ${Date.now()}`
    const questions = Array.from({ length: 51 }, (_, index) => `How do I add an article? (${marker}, ${index + 1})`)
    for (const question of questions) {
      const asked = await page.request.post('/ask', { form: { question }, maxRedirects: 0 })
      expect(asked.status()).toBe(302)
    }
    await page.goto('/ask')
    const recent = page.getByRole('region', { name: 'Your recent questions' })
    const more = recent.getByRole('link', { name: 'Show more of your questions' })
    await expect(recent.getByRole('listitem')).toHaveCount(8)
    await expect(recent).toContainText(questions[50] as string)
    await expect(recent).not.toContainText(questions[42] as string)
    await more.click()
    await expect(page).toHaveURL(/[?&]recent=more(&|#)/)
    // Fifty at a time, the newest first: the first of the 51 is on an older page (the other run of this test may be
    // asking too, so it is looked for page by page).
    await expect(recent.getByRole('listitem')).toHaveCount(50)
    await expect(recent).not.toContainText(questions[0] as string)
    await expect(more).toHaveCount(0)
    await expect(recent.getByRole('link', { name: 'Newer questions' })).toHaveCount(0)
    await recent.getByRole('link', { name: 'Older questions' }).click()
    await expect(page).toHaveURL(/[?&]recent_from=50(&|#)/)
    for (let pages = 2; !(await recent.textContent())?.includes(questions[0] as string); pages++) {
      expect(pages).toBeLessThan(6)
      await expect(recent.getByRole('listitem')).toHaveCount(50)
      await recent.getByRole('link', { name: 'Older questions' }).click()
      await expect(page).toHaveURL(new RegExp(`[?&]recent_from=${pages * 50}(&|#)`))
    }
    // A thread opened from an older page is read as any other.
    await recent.getByRole('link', { name: questions[0] as string }).click()
    await expect(page.getByRole('region', { name: 'Answer' })).toContainText(`You asked: ${questions[0]}`)
    // And back to the newer page.
    await page.goto('/ask?recent=more&recent_from=50')
    await recent.getByRole('link', { name: 'Newer questions' }).click()
    await expect(page).toHaveURL(/[?&]recent=more(#|$)/)
    await expect(recent.getByRole('listitem')).toHaveCount(50)
    // Past the last page, the list says so and leads back.
    await page.goto('/ask?recent=more&recent_from=999999')
    await expect(recent).toContainText('No older questions.')
    await expect(recent.getByRole('link', { name: 'Newer questions' })).toHaveAttribute('href', /recent_from=999949/)
  })

  test('a source read and Back to Ask return to the thread with its answer, whether or not the browser sends a Referer', async ({ page }, testInfo) => {
    const isScripted = testInfo.project.name === 'js'
    // Followed as a browser that sends no Referer does (a privacy setting): the way back is what the link carries.
    const openWithoutReferer = async (link: Locator) => {
      await link.evaluate((element) => element.setAttribute('rel', 'noreferrer'))
      await link.click()
      await expect(page).toHaveURL(/\/read\/\d+/)
    }
    await page.goto('/ask')
    await ask(page, 'Question', FIRST, isScripted)
    const thread = threadOf(page)
    await ask(page, 'Follow-up question', FOLLOW_UP, isScripted)

    // The answer's source, then back.
    await openWithoutReferer(page.getByRole('region', { name: 'Answer' }).getByRole('list', { name: 'Sources' }).locator('a[href^="/read/"]').first())
    await expect(page.locator('mark#passage')).toBeVisible()
    await page.getByRole('link', { name: 'Back to Ask' }).click()
    await expect(page).toHaveURL(new RegExp(`/ask\\?thread=${thread}(&|#|$)`))
    await expect(page.getByRole('region', { name: 'Answer' })).toContainText(`You asked: ${FOLLOW_UP}`)
    await expect(page.getByRole('region', { name: 'Earlier in this thread' })).toContainText(`You asked: ${FIRST}`)

    // A source of the earlier answer leads back to the same thread too.
    await openWithoutReferer(page.getByRole('region', { name: 'Earlier in this thread' }).locator('a[href^="/read/"]').first())
    await page.getByRole('link', { name: 'Back to Ask' }).click()
    await expect(page).toHaveURL(new RegExp(`/ask\\?thread=${thread}(&|#|$)`))
    await expect(page.getByRole('region', { name: 'Answer' })).toContainText(`You asked: ${FOLLOW_UP}`)
    await expect(page.getByRole('region', { name: 'Earlier in this thread' })).toContainText(`You asked: ${FIRST}`)

    // The way back is a path of this site only: another site in `back` is ignored, and the way back is Ask.
    const source = new URL((await page.getByRole('region', { name: 'Answer' }).locator('a[href^="/read/"]').first().getAttribute('href')) ?? '', page.url())
    for (const elsewhere of ['https://evil.example/ask', '//evil.example/ask', '/\\evil.example/ask', '/users']) {
      source.searchParams.set('back', elsewhere)
      await page.goto(`${source.pathname}${source.search}`)
      await expect(page.getByRole('link', { name: 'Back to Ask' }), elsewhere).toHaveAttribute('href', '/ask')
    }
  })

  test('a new thread starts afresh', async ({ page }, testInfo) => {
    await page.goto('/ask')
    await ask(page, 'Question', FIRST, testInfo.project.name === 'js')
    await page.getByRole('link', { name: 'New thread' }).click()
    await expect(page).toHaveURL(/\/ask$/)
    await expect(page.getByRole('textbox', { name: 'Question', exact: true })).toBeVisible()
    await expect(page.getByRole('region', { name: 'Answer' })).toHaveCount(0)
    await expect(page.getByRole('region', { name: 'Earlier in this thread' })).toHaveCount(0)
  })

  test('asks the same question again in the thread', async ({ page }, testInfo) => {
    await page.goto('/ask')
    await ask(page, 'Question', FIRST, testInfo.project.name === 'js')
    const thread = threadOf(page)
    const firstUrl = page.url()
    await page.getByRole('form', { name: 'Ask again' }).getByRole('button', { name: 'Ask again' }).click()
    await expect(page).not.toHaveURL(firstUrl)
    expect(threadOf(page)).toBe(thread)
    await expect(page.getByRole('region', { name: 'Answer' })).toContainText(`You asked: ${FIRST}`)
    await expect(page.getByRole('region', { name: 'Earlier in this thread' })).toContainText(`You asked: ${FIRST}`)
  })

  test('feedback takes an optional reason and shows what was chosen', async ({ page }, testInfo) => {
    await page.goto('/ask')
    await ask(page, 'Question', FIRST, testInfo.project.name === 'js')
    // The box is empty for the next question, with scripts as without.
    await expect(page.getByRole('textbox', { name: 'Follow-up question', exact: true })).toHaveValue('')
    const feedback = page.getByRole('form', { name: 'Feedback' })
    await expect(feedback.getByRole('button', { name: 'No, not helpful' })).toHaveAttribute('aria-pressed', 'false')
    await feedback.getByLabel('Reason (optional)').fill('It skipped the review step.')
    await feedback.getByRole('button', { name: 'No, not helpful' }).click()
    await expect(page.getByRole('status').filter({ hasText: 'Feedback sent' })).toBeVisible()
    // The page comes back to the feedback form, which shows the choice, not to the top of the page.
    await expect(page).toHaveURL(/#feedback$/)
    const after = page.getByRole('form', { name: 'Feedback' })
    await expect(after.getByTestId('feedback-chosen')).toBeInViewport()
    await expect(after.getByRole('button', { name: 'No, not helpful' })).toHaveAttribute('aria-pressed', 'true')
    await expect(after.getByRole('button', { name: 'Yes, helpful' })).toHaveAttribute('aria-pressed', 'false')
    await expect(after.getByTestId('feedback-chosen')).toHaveText('Your feedback: not helpful (“It skipped the review step.”). You can change it.')
    await expect(after.getByLabel('Reason (optional)')).toHaveValue('It skipped the review step.')

    // The reason reaches the editors: the log shows it beside the rating.
    const logId = await after.locator('input[name="log_id"]').inputValue()
    await page.goto(`/logs/${logId}`)
    const rated = page.getByRole('definition').filter({ has: page.getByTestId('feedback-reason') })
    await expect(rated).toHaveText('Disliked: “It skipped the review step.”')
  })

  test('copies the answer with scripts, and offers no copy button without them', async ({ page, context }, testInfo) => {
    await page.goto('/ask')
    await ask(page, 'Question', FIRST, testInfo.project.name === 'js')
    const copy = page.getByRole('button', { name: 'Copy answer' })
    if (testInfo.project.name !== 'js') {
      await expect(copy).toHaveCount(0)
      return
    }
    await context.grantPermissions(['clipboard-read', 'clipboard-write'])
    await copy.click()
    await expect(page.getByRole('status').filter({ hasText: 'Answer copied' })).toBeVisible()
    const copied = await page.evaluate(() => navigator.clipboard.readText())
    expect(copied).toContain('Sources:')
    expect(copied).not.toContain('**')
  })

  test('Shift+Enter adds a line instead of sending', async ({ page }, testInfo) => {
    test.skip(testInfo.project.name !== 'js', 'Enter and Shift+Enter are handled by the page script')
    await page.goto('/ask')
    await expect(page.getByText('Enter sends the question; Shift+Enter adds a line.')).toBeVisible()
    const box = page.getByRole('textbox', { name: 'Question', exact: true })
    await box.fill('first line')
    await box.press('Shift+Enter')
    await box.pressSequentially('second line')
    await expect(box).toHaveValue('first line\nsecond line')
    await expect(page).toHaveURL(/\/ask$/)
  })

  test('a skip link leads past the header and tabs to the page', async ({ page }) => {
    await page.goto('/ask')
    await page.keyboard.press('Tab')
    const skip = page.getByRole('link', { name: 'Skip to main content' })
    await expect(skip).toBeFocused()
    await expect(skip).toBeInViewport()
    await skip.press('Enter')
    await expect(page).toHaveURL(/#main$/)
  })

  test('switches between the knowledge-base answer and the agent, remembering the choice', async ({ page }) => {
    await page.goto('/ask')
    const modes = page.getByRole('group', { name: 'Way to ask' })
    await expect(modes.getByRole('button', { name: 'An answer from the knowledge base' })).toHaveAttribute('aria-pressed', 'true')
    // With scripts the fields switch at once and the choice is posted beside them: the reload waits for that post.
    const remembered = page.waitForResponse((response) => response.request().method() === 'POST' && new URL(response.url()).pathname === '/ask')
    await modes.getByRole('button', { name: 'The agent' }).click()
    const agent = page.getByRole('form', { name: 'Run the agent' })
    await expect(agent.getByRole('textbox', { name: 'Command' })).toBeVisible()
    await remembered
    await page.reload()
    await expect(page.getByRole('group', { name: 'Way to ask' }).getByRole('button', { name: 'The agent' })).toHaveAttribute('aria-pressed', 'true')
    await page.getByRole('form', { name: 'Run the agent' }).getByRole('textbox', { name: 'Command' }).fill('Summarise how drafts are published')
    await page.getByRole('form', { name: 'Run the agent' }).getByRole('button', { name: 'Run agent' }).click()
    await expect(page).toHaveURL(/\/agent(\?|#|$)/)
    await page.goto('/ask')
    await page.getByRole('group', { name: 'Way to ask' }).getByRole('button', { name: 'An answer from the knowledge base' }).click()
    await expect(page.getByRole('textbox', { name: 'Question', exact: true })).toBeVisible()
  })

  test('in agent mode offers the Agent settings’ shortcuts, which run on the Agent screen, at 390 px', async ({ page }) => {
    test.setTimeout(90_000)
    await page.setViewportSize({ width: 390, height: 844 })
    await page.goto('/ask')
    const modes = page.getByRole('group', { name: 'Way to ask' })
    await modes.getByRole('button', { name: 'An answer from the knowledge base' }).click()
    await expect(page.getByRole('textbox', { name: 'Question', exact: true })).toBeVisible()
    const shortcuts = page.getByRole('form', { name: 'Query shortcuts' })
    const agentShortcut = shortcuts.getByRole('button', { name: 'Summarise what the knowledge base says about publishing drafts' })
    // A knowledge-base answer offers the Bot settings' shortcuts, not the agent's.
    await expect(shortcuts.getByRole('button', { name: 'How do I publish drafts?' })).toBeVisible()
    await expect(agentShortcut).toHaveCount(0)
    await modes.getByRole('button', { name: 'The agent' }).click()
    await expect(page.getByRole('form', { name: 'Run the agent' })).toBeVisible()
    await expect(agentShortcut).toBeVisible()
    await expect(shortcuts.getByRole('button', { name: 'How do I publish drafts?' })).toHaveCount(0)
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
    // Nothing typed: a shortcut needs no command, so the empty required field holds nothing up.
    await expect(page.getByRole('form', { name: 'Run the agent' }).getByRole('textbox', { name: 'Command' })).toHaveValue('')
    await agentShortcut.click()
    await expect(page).toHaveURL(/\/agent(\?|#|$)/)
    const answer = page.getByRole('region', { name: 'Answer' })
    await expect(answer).toContainText('Command: Summarise what the knowledge base says about publishing drafts', { timeout: 45_000 })
  })

  test('with scripts the way to ask switches at once, and what is typed while the server remembers it stays', async ({ page }, testInfo) => {
    test.skip(testInfo.project.name !== 'js', 'the page script switches the fields; without it the buttons post the form')
    await page.goto('/ask')
    const modes = page.getByRole('group', { name: 'Way to ask' })
    await page.getByRole('textbox', { name: 'Question', exact: true }).fill('Who can upload files?')
    // A slow server: the choice reaches it 3 s late.
    let posts = 0
    await page.route(/\/ask(\?|$)/, async (route) => {
      if (route.request().method() !== 'POST') return route.continue()
      posts += 1
      await new Promise((resolve) => setTimeout(resolve, 3000))
      await route.continue()
    })
    const revalidated = page.waitForResponse((response) => response.request().method() === 'GET' && response.url().includes('_data='))
    await modes.getByRole('button', { name: 'The agent' }).click()
    const command = page.getByRole('form', { name: 'Run the agent' }).getByRole('textbox', { name: 'Command' })
    // At once, not after the round trip.
    await expect(command).toHaveValue('Who can upload files?', { timeout: 1500 })
    await command.press('End')
    await command.pressSequentially(' And how large can they be?')
    await revalidated
    expect(posts).toBe(1)
    await expect(command).toHaveValue('Who can upload files? And how large can they be?')
    await expect(modes.getByRole('button', { name: 'The agent' })).toHaveAttribute('aria-pressed', 'true')
    await page.unroute(/\/ask(\?|$)/)
    // The choice was remembered.
    await page.reload()
    await expect(page.getByRole('group', { name: 'Way to ask' }).getByRole('button', { name: 'The agent' })).toHaveAttribute('aria-pressed', 'true')
    await page.getByRole('group', { name: 'Way to ask' }).getByRole('button', { name: 'An answer from the knowledge base' }).click()
    await expect(page.getByRole('textbox', { name: 'Question', exact: true })).toBeVisible()
  })

  test('keeps what was typed when the way to ask changes, both ways', async ({ page }) => {
    await page.goto('/ask')
    const modes = page.getByRole('group', { name: 'Way to ask' })
    const typed = 'Who can upload files?\nAnd how large can they be?'
    await page.getByRole('textbox', { name: 'Question', exact: true }).fill(typed)
    await modes.getByRole('button', { name: 'The agent' }).click()
    await expect(modes.getByRole('button', { name: 'The agent' })).toHaveAttribute('aria-pressed', 'true')
    const command = page.getByRole('form', { name: 'Run the agent' }).getByRole('textbox', { name: 'Command' })
    await expect(command).toHaveValue(typed)
    await command.fill('Summarise the roles')
    await modes.getByRole('button', { name: 'An answer from the knowledge base' }).click()
    await expect(modes.getByRole('button', { name: 'An answer from the knowledge base' })).toHaveAttribute('aria-pressed', 'true')
    const question = page.getByRole('textbox', { name: 'Question', exact: true })
    await expect(question).toHaveValue('Summarise the roles')
    // The carried text asks as typed.
    await page.getByRole('button', { name: 'Ask', exact: true }).click()
    await expect(page.getByText('You asked: Summarise the roles')).toBeVisible()
    // An empty field switches too: the agent's required command does not hold the switch up.
    await page.goto('/ask')
    await modes.getByRole('button', { name: 'The agent' }).click()
    await expect(page.getByRole('form', { name: 'Run the agent' }).getByRole('textbox', { name: 'Command' })).toHaveValue('')
    await modes.getByRole('button', { name: 'An answer from the knowledge base' }).click()
    await expect(page.getByRole('textbox', { name: 'Question', exact: true })).toHaveValue('')
  })
})
