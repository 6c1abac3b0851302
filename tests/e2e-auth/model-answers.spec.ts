import { mkdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { asAdministrator, backend, cookieHeader, createLocalAccount, E2E, expect, signInLocally, test, type LocalAccount } from './support'

// Answers written by a language model (the OpenAI-compatible fixture that playwright.auth.config.ts starts): with
// scripts they stream into the page word by word and end as the complete answer with its citations; without scripts
// the plain form post and polling show the same complete answer. A model that fails mid-answer leaves the quoted
// answer with a note. Signed in as a plain user, who sees no Bot info.

/**
 * multiple_model is one setting shared by the js and no-js runs, which go on side by side: whatever reads or changes
 * it holds this lock (a directory beside the suite's data, made atomically) so neither sees the other's value.
 */
async function withModelChoiceSetting<T>(work: () => Promise<T>): Promise<T> {
  const lock = path.join(process.env.E2E_AUTH_DATA_DIR ?? tmpdir(), 'multiple-model.lock')
  const deadline = Date.now() + 120_000
  for (;;) {
    try {
      mkdirSync(lock)
      break
    } catch {
      if (Date.now() > deadline) throw new Error(`${lock} was held for two minutes`)
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
  }
  try {
    return await work()
  } finally {
    rmSync(lock, { recursive: true, force: true })
  }
}

const FAILURE_NOTE = /The language model did not answer \(.+\); this answer quotes the sources directly\./

let account: LocalAccount
test.beforeAll(async () => {
  account = await createLocalAccount('user')
})

test.beforeEach(async ({ page }) => {
  await signInLocally(page, account)
  await expect(page).toHaveURL(/\/ask$/)
})

async function ask(page: import('@playwright/test').Page, question: string) {
  await page.getByRole('textbox', { name: 'Question', exact: true }).fill(question)
  await page.getByRole('button', { name: 'Ask', exact: true }).click()
}

test('a model writes the answer, with citations that link to its sources', async ({ page }, testInfo) => {
  const isJs = testInfo.project.name === 'auth-js'
  // Slowly streamed (a pause before each piece), so the words can be seen arriving.
  await ask(page, 'How do I add an article? #fixture:slow=150')
  const answer = page.getByRole('region', { name: 'Answer' })
  if (isJs) {
    const soFar = answer.getByTestId('answer-so-far')
    await expect(answer.getByRole('status').filter({ hasText: 'Writing the answer…' })).toBeVisible()
    await expect(soFar).toHaveAttribute('aria-live', 'polite')
    await expect(soFar).toHaveText(/\w+/)
    await expect(answer.getByRole('heading', { name: 'Answer', level: 2 })).toBeFocused()
  }
  const sources = answer.getByRole('list', { name: 'Sources' })
  await expect(sources).toBeVisible()
  await expect(answer).toContainText('Written by the language model fixture-chat.')
  await expect(answer.getByTestId('answer-so-far')).toHaveCount(0)
  const citations = page.locator('#answer-text a[href^="#source-"]')
  await expect(citations.first()).toBeVisible()
  await expect(citations.first()).toHaveAttribute('href', /^#source-\d+$/)
  await expect(sources.getByRole('link').first()).toHaveAttribute('href', /^\/read\/\d+\?passage=\d+(?:&back=[^#&]+)?#passage$/)
  // The answer has an address of its own, in its thread: a streamed one by its log, an asked one by its task.
  await expect(page).toHaveURL(isJs ? /\/ask\?thread=\d+&log=\d+$/ : /\/ask\?thread=\d+&task=[^&#]+(&check=\d+)?#answer$/)
  // A plain user sees no Bot info.
  await expect(page.getByRole('heading', { name: 'Bot info' })).toHaveCount(0)
  // Either address gives the answer as a Word document.
  const download = answer.getByRole('link', { name: 'Download as Word (.docx)' })
  await expect(download).toHaveAttribute('href', isJs ? /^\/resources\/answer\.docx\?log=\d+$/ : /^\/resources\/answer\.docx\?task=/)
  const file = await page.request.get((await download.getAttribute('href')) as string)
  expect(file.headers()['content-type']).toContain('application/vnd.openxmlformats-officedocument.wordprocessingml.document')
  expect((await file.body()).subarray(0, 2).toString()).toBe('PK')

  // The answer's feedback comes back to the same answer.
  await answer.getByRole('form', { name: 'Feedback' }).getByRole('button', { name: 'Yes, helpful' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Feedback sent' })).toBeVisible()
  await expect(page.getByRole('region', { name: 'Answer' })).toContainText('Written by the language model fixture-chat.')
})

test('a follow-up in a thread is written by the model with the earlier turn, streamed or posted', async ({ page }, testInfo) => {
  await ask(page, 'How do I add an article?')
  const answer = page.getByRole('region', { name: 'Answer' })
  await expect(answer).toContainText('Written by the language model fixture-chat.')
  // A streamed answer gets its address (in its thread) once it is complete.
  await expect(page).toHaveURL(/[?&]thread=\d+/)
  const thread = new URL(page.url()).searchParams.get('thread')
  expect(thread).toMatch(/^\d+$/)
  await page.getByRole('textbox', { name: 'Follow-up question', exact: true }).fill('And how do I publish drafts?')
  await page.getByRole('button', { name: 'Ask', exact: true }).click()
  await expect(page.getByRole('region', { name: 'Answer' })).toContainText('You asked: And how do I publish drafts?')
  await expect(page.getByRole('region', { name: 'Answer' })).toContainText('Written by the language model fixture-chat.')
  await expect(page.getByRole('region', { name: 'Earlier in this thread' })).toContainText('You asked: How do I add an article?')
  expect(new URL(page.url()).searchParams.get('thread')).toBe(thread)
  if (testInfo.project.name === 'auth-js') await expect(page).toHaveURL(/\/ask\?thread=\d+&log=\d+$/)
  // The user's own recent questions lead back to the thread.
  await expect(page.getByRole('region', { name: 'Your recent questions' }).locator(`a[href="/ask?thread=${thread}#answer"]`)).toHaveText('How do I add an article?')
})

test('the field empties as a streamed question is sent, and what is typed meanwhile stays', async ({ page }, testInfo) => {
  test.skip(testInfo.project.name !== 'auth-js', 'answers stream only with scripts; without them the page is reloaded by the answer')
  await ask(page, 'How do I add an article? #fixture:slow=150')
  const answer = page.getByRole('region', { name: 'Answer' })
  await expect(answer.getByTestId('answer-so-far')).toHaveText(/\w+/)
  const field = page.getByRole('textbox', { name: 'Question', exact: true })
  await expect(field).toHaveValue('')
  await field.fill('And how do I publish drafts?')
  await expect(answer).toContainText('Written by the language model fixture-chat.')
  await expect(page).toHaveURL(/\/ask\?thread=\d+&log=\d+$/)
  // The answer now has its address, in its thread: the next question is a follow-up, as typed.
  await expect(page.getByRole('textbox', { name: 'Follow-up question', exact: true })).toHaveValue('And how do I publish drafts?')
})

test('on a phone the streamed answer opens at the top of the window, and Enter while it streams asks nothing', async ({ page }, testInfo) => {
  test.skip(testInfo.project.name !== 'auth-js', 'answers stream only with scripts; without them the page opens at #answer')
  await page.setViewportSize({ width: 390, height: 844 })
  await ask(page, 'How do I add an article? #fixture:slow=150')
  const answer = page.getByRole('region', { name: 'Answer' })
  const soFar = answer.getByTestId('answer-so-far')
  await expect(soFar).toHaveText(/\w+/)
  // The words arriving are in the window, under the heading at its top.
  await expect(answer.getByRole('heading', { name: 'Answer', level: 2 })).toBeInViewport({ ratio: 1 })
  await expect(soFar).toBeInViewport()
  // A second Enter in the field while the answer is written neither stops it nor complains of a blank question.
  const field = page.getByRole('textbox', { name: 'Question', exact: true })
  await field.press('Enter')
  await expect(page.getByText('Please enter a question')).toHaveCount(0)
  await expect(soFar).toBeVisible()
  await expect(answer).toContainText('Written by the language model fixture-chat.')
  await expect(page.getByText('Please enter a question')).toHaveCount(0)
})

test('cancelling an agent run says so, and gives its command back to change or run again', async ({ page }, testInfo) => {
  await page.goto('/agent')
  const command = `Please tell me about the semantic firewall (${testInfo.project.name}) #fixture:hang`
  await page.getByRole('textbox', { name: 'Command' }).fill(command)
  await page.getByRole('button', { name: 'Run agent' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Working on' })).toBeVisible()
  await page.getByRole('button', { name: 'Cancel run' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Run cancelled' })).toContainText('Your command is back in the field.')
  await expect(page.getByRole('textbox', { name: 'Command' })).toHaveValue(command)
  await expect(page.getByRole('status').filter({ hasText: 'Working on' })).toHaveCount(0)
  await expect(page.getByRole('button', { name: 'Run agent' })).toBeEnabled()
})

test('an agent run says which model wrote its answer, and when the model failed that it quotes the sources instead', async ({ page }, testInfo) => {
  await page.goto('/agent')
  const command = page.getByRole('textbox', { name: 'Command' })
  const answer = page.getByRole('region', { name: 'Answer' })
  await command.fill(`How do I add an article? (${testInfo.project.name})`)
  await page.getByRole('button', { name: 'Run agent' }).click()
  await expect(answer).toContainText('Written by the language model fixture-chat.')
  await expect(answer).not.toContainText(FAILURE_NOTE)

  // A model whose tool call does not parse: the run plans from the words and quotes the passages, and says so.
  await command.fill(`How do I add an article? (${testInfo.project.name}) #fixture:bad-tool-args`)
  await page.getByRole('button', { name: 'Run agent' }).click()
  await expect(answer).toContainText('The language model did not answer (unusable response); this answer quotes the sources directly.')
  await expect(answer.getByRole('list', { name: 'Sources' })).toBeVisible()
  await expect(answer).not.toContainText('Written by the language model')
})

test("a plain user is not offered the product's own guide questions as suggestions", async ({ page }) => {
  // The installation's default shortcuts are questions about running the product; end users get the sponsor's own.
  const who = await backend('/who_am_i', { token: await asAdministrator() })
  const defaults = (who.query_shortcuts as { enabled: boolean; query: string }[]).filter((shortcut) => shortcut.enabled).map((shortcut) => shortcut.query)
  test.skip(!defaults.includes('How do I add an article?'), 'the shortcuts were changed from the defaults')
  await expect(page.getByRole('region', { name: 'Answer' })).toHaveCount(0)
  await expect(page.getByRole('form', { name: 'Query shortcuts' })).toHaveCount(0)
  await expect(page.getByRole('button', { name: 'How do I add an article?' })).toHaveCount(0)
})

test('a model that fails mid-answer leaves the quoted answer with a note', async ({ page }) => {
  await ask(page, 'How do I add an article? #fixture:stream-error=3')
  const answer = page.getByRole('region', { name: 'Answer' })
  await expect(answer).toContainText(FAILURE_NOTE)
  // The complete answer (not the words streamed before the failure) with its feedback form, and no model named.
  await expect(answer.getByRole('form', { name: 'Feedback' })).toBeVisible()
  await expect(answer.getByTestId('answer-so-far')).toHaveCount(0)
  await expect(answer).not.toContainText('Written by the language model')
})

test('the web server relays the answer as server-sent events, and refuses what is no question', async ({ context }) => {
  const post = async (form: Record<string, string>) =>
    fetch(`${E2E.web}/resources/ask-stream`, {
      method: 'POST',
      headers: { cookie: await cookieHeader(context), origin: E2E.web, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form).toString(),
    })
  const response = await post({ question: 'How do I add an article?' })
  expect(response.status).toBe(200)
  expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/)
  expect(response.headers.get('cache-control')).toContain('no-cache')
  expect(response.headers.get('x-accel-buffering')).toBe('no')
  const text = await response.text()
  expect(text.startsWith(': stream open\n\n')).toBe(true)
  expect(text).toContain('event: delta\n')
  const done = /event: done\ndata: (.+)\n\n/.exec(text)
  expect(done).not.toBeNull()
  const answer = JSON.parse(done![1])
  expect(answer.model).toBe('fixture-chat')
  // The complete answer comes parsed as Markdown, so the page renders it as it renders any answer.
  expect(answer.result_document.children.length).toBeGreaterThan(0)

  const blank = await post({ question: '   ' })
  expect(blank.status).toBe(400)
  expect((await blank.json()).message).toBe('Please enter a question')
  // multiple_model is off: the backend's reason comes back with its 400.
  await withModelChoiceSetting(async () => {
    const model = await post({ question: 'How do I add an article?', model: 'fixture-mini' })
    expect(model.status).toBe(400)
    expect((await model.json()).message).toMatch(/multiple_model/)
  })
  const get = await fetch(`${E2E.web}/resources/ask-stream`, { headers: { cookie: await cookieHeader(context) } })
  expect(get.status).toBe(405)
})

test('a reader who leaves mid-answer ends the relay, and the web server goes on answering', async ({ context }) => {
  const headers = { cookie: await cookieHeader(context), origin: E2E.web, 'content-type': 'application/x-www-form-urlencoded' }
  const leaving = new AbortController()
  // The fixture model writes slowly: the answer is still being written when the reader goes.
  const response = await fetch(`${E2E.web}/resources/ask-stream`, {
    method: 'POST',
    headers,
    body: new URLSearchParams({ question: 'How do I add an article? #fixture:slow=300' }).toString(),
    signal: leaving.signal,
  })
  expect(response.status).toBe(200)
  // The answer's address comes with the headers, before its first word.
  expect(response.headers.get('x-answer-log')).toMatch(/^\d+$/)
  expect(response.headers.get('x-answer-thread')).toMatch(/^\d+$/)
  const reader = response.body!.getReader()
  const decoder = new TextDecoder()
  let received = ''
  while (!received.includes('event: delta')) {
    const { done, value } = await reader.read()
    if (done) break
    received += decoder.decode(value, { stream: true })
  }
  expect(received).toContain('event: delta')
  leaving.abort()
  await reader.cancel().catch(() => undefined)
  // The web server is still there, and streams the next answer whole.
  await new Promise((resolve) => setTimeout(resolve, 1_000))
  expect((await fetch(`${E2E.web}/ask`, { headers: { cookie: headers.cookie } })).status).toBe(200)
  const next = await fetch(`${E2E.web}/resources/ask-stream`, { method: 'POST', headers, body: new URLSearchParams({ question: 'How do I add an article?' }).toString() })
  expect(await next.text()).toContain('event: done\n')
})

test('a reader who reloads or leaves mid-answer finds the answer written, at its own address', async ({ page }, testInfo) => {
  test.skip(testInfo.project.name !== 'auth-js', 'answers stream only with scripts; without them the answer has its address from the post')
  test.setTimeout(180_000)
  await ask(page, 'How do I publish drafts? #fixture:slow=250')
  const answer = page.getByRole('region', { name: 'Answer' })
  await expect(answer.getByTestId('answer-so-far')).toHaveText(/\w+/)
  // The address is the answer's while it is written.
  await expect(page).toHaveURL(/\/ask\?thread=\d+&log=\d+$/)
  const address = page.url()
  await page.reload()
  // Still being written: the page says so and checks again, then shows it whole.
  await expect(page.getByRole('region', { name: 'Answer' })).toContainText(/Still working on your answer|Written by the language model fixture-chat\./)
  await expect(page.getByRole('region', { name: 'Answer' })).toContainText('Written by the language model fixture-chat.', { timeout: 45_000 })
  await expect(page.getByRole('region', { name: 'Answer' })).toContainText('You asked: How do I publish drafts?')
  expect(new URL(page.url()).searchParams.get('log')).toBe(new URL(address).searchParams.get('log'))

  // Left for another page mid-answer, then Back: the answer is there.
  await page.goto('/ask')
  await ask(page, 'How do I add an article? #fixture:slow=250')
  await expect(page.getByRole('region', { name: 'Answer' }).getByTestId('answer-so-far')).toHaveText(/\w+/)
  await expect(page).toHaveURL(/\/ask\?thread=\d+&log=\d+$/)
  await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Saved queries' }).click()
  await expect(page).toHaveURL(/\/saved/)
  await page.goBack()
  await expect(page.getByRole('region', { name: 'Answer' })).toContainText('Written by the language model fixture-chat.', { timeout: 45_000 })
  await expect(page.getByRole('region', { name: 'Answer' })).toContainText('You asked: How do I add an article?')
})

test.describe('choosing the model (Bot settings: multiple_model)', () => {
  // One browser at a time changes the shared setting.
  test.describe.configure({ mode: 'serial' })

  async function setMultipleModel(isOn: boolean) {
    const login = await fetch(`${E2E.api}/auth/login`, {
      method: 'POST',
      headers: { apikey: E2E.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: E2E.adminPassword }),
    })
    const { access_token: token } = (await login.json()) as { access_token: string }
    const response = await fetch(`${E2E.api}/admin/bot_setting`, {
      method: 'PUT',
      headers: { apikey: E2E.apiKey, authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ multiple_model: isOn }),
    })
    expect(response.status).toBe(200)
  }

  test('the form offers the models only while multiple_model is on, and the chosen one answers', async ({ page }) => {
    await withModelChoiceSetting(async () => {
      await setMultipleModel(false)
      await page.reload()
      await expect(page.getByLabel('Model', { exact: true })).toHaveCount(0)
      await setMultipleModel(true)
      try {
        await page.reload()
        const select = page.getByLabel('Model', { exact: true })
        await expect(select.locator('option')).toHaveText(['Default model (fixture-chat)', 'fixture-chat', 'fixture-mini'])
        await select.selectOption('fixture-mini')
        await ask(page, 'How do I add an article?')
        const answer = page.getByRole('region', { name: 'Answer' })
        await expect(answer.getByRole('list', { name: 'Sources' })).toBeVisible()
        await expect(answer).toContainText('Written by the language model fixture-mini.')
        // The choice stays for the follow-up, which the same model answers.
        await expect(select).toHaveValue('fixture-mini')
        await page.getByRole('textbox', { name: 'Follow-up question', exact: true }).fill('And how do I publish drafts?')
        await page.getByRole('button', { name: 'Ask', exact: true }).click()
        await expect(answer.getByText('You asked: And how do I publish drafts?')).toBeVisible()
        await expect(answer).toContainText('Written by the language model fixture-mini.')
        await expect(select).toHaveValue('fixture-mini')
      } finally {
        await setMultipleModel(false)
      }
    })
  })
})
