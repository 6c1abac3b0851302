import { expect, test, type Page } from '@playwright/test'
import mammoth from 'mammoth'
import { pageWidth, widestElements } from './support/checks'

/** Asks a question on Ask; the answer's region. */
async function ask(page: Page, question: string) {
  await page.goto('/ask')
  await page.getByRole('textbox', { name: 'Question', exact: true }).fill(question)
  await page.getByRole('button', { name: 'Ask', exact: true }).click()
  return page.getByRole('region', { name: 'Answer' })
}

test.describe('Ask', () => {
  test('a newcomer asks how to add an article and reads an answer with a source', async ({ page }) => {
    await page.goto('/')
    await expect(page).toHaveURL(/\/ask$/)
    await page.getByRole('textbox', { name: 'Question', exact: true }).fill('How do I add an article?')
    await page.getByRole('button', { name: 'Ask', exact: true }).click()

    const answer = page.getByRole('region', { name: 'Answer' })
    await expect(answer).toContainText('Add article')
    await expect(answer).toContainText('[1]')
    const sources = answer.getByRole('list', { name: 'Sources' })
    await expect(sources.getByRole('listitem').first()).toBeVisible()
    // A card per article: its title, its kind and the passage quoted from it, numbered as the answer cites it.
    const card = sources.getByRole('listitem').first()
    await expect(card).toContainText('· Article')
    await expect(card.locator('blockquote').first()).toContainText(/\[\d+\] \w+/)
    const titles = await sources.getByRole('listitem').evaluateAll((items) => items.map((item) => item.querySelector('a')?.textContent))
    expect(new Set(titles).size, 'each article appears once').toBe(titles.length)

    // Sources open in the reader view every role may open, at the cited passage.
    await expect(sources.getByRole('link').first()).toHaveAttribute('href', /^\/read\/\d+\?passage=\d+(?:&back=[^#&]+)?#passage$/)
    await sources.getByRole('link').first().click()
    await expect(page).toHaveURL(/\/read\/\d+\?passage=\d+(?:&back=[^#&]+)?#passage$/)
    await expect(page.getByRole('heading', { level: 1 })).not.toBeEmpty()
    // The passage marked (or, if another spec edited the article meanwhile, the note that it changed).
    await expect(page.locator('mark#passage, [role="note"]').first()).toBeVisible()
  })

  test('a long question over many lines is asked whole, shown in part above its answer, and in part among recent questions', async ({ page }, testInfo) => {
    // 40 lines just under the field's 4,000 characters: a line break counts once, as the field counts it.
    const words = `${testInfo.project.name === 'js' ? 'jay' : 'nox'}${testInfo.retry}`
    const line = `How do I add an article to the knowledge base ${words}, please, with its title?`.padEnd(99, ' x')
    const question = Array.from({ length: 40 }, () => line).join('\n')
    expect(question.length).toBeLessThanOrEqual(4000)
    expect(question.replaceAll('\n', '\r\n').length).toBeGreaterThan(4000)
    const answer = await ask(page, question)
    await expect(answer.getByRole('heading', { name: 'Answer', level: 2 })).toBeVisible()
    await expect(page.getByText('A question is at most 4000 characters')).toHaveCount(0)
    // Shown in part, the whole a press away: the answer stays near the top.
    await expect(answer.getByText(/^You asked: How do I add an article [\s\S]*…$/)).toBeVisible()
    const whole = answer.getByText(`The whole question (${question.length.toLocaleString('en')} characters)`)
    await expect(whole).toBeVisible()
    await whole.click()
    await expect(answer.locator('details p')).toHaveText(question, { useInnerText: false })
    const recent = page.getByRole('region', { name: 'Your recent questions' }).getByRole('link', { name: new RegExp(`^How do I add an article to the knowledge base ${words}.*…$`) })
    await expect(recent.first()).toBeVisible()
    expect(((await recent.first().textContent()) ?? '').length).toBeLessThanOrEqual(161)
  })

  test('shows in a source the sentence the answer quotes from it, even past the start of its passage', async ({ page }) => {
    const answer = await ask(page, 'What is an agent?')
    await expect(answer).toContainText('An agent is an assistant that works through a request in several steps')
    // The guide says it after three other sentences: the card starts at it.
    await expect(answer.getByRole('list', { name: 'Sources' }).locator('blockquote').first()).toContainText(
      '…An agent is an assistant that works through a request in several steps',
    )
  })

  test('shows the error beside the field when the question is blank', async ({ page }) => {
    await page.goto('/ask')
    await page.getByRole('textbox', { name: 'Question', exact: true }).fill('    ')
    await page.getByRole('button', { name: 'Ask', exact: true }).click()
    await expect(page.getByText('Please enter a question')).toBeVisible()
    await expect(page.getByRole('textbox', { name: 'Question', exact: true })).toHaveAttribute('aria-invalid', 'true')
    await expect(page.getByRole('region', { name: 'Answer' })).toHaveCount(0)
  })

  test('says plainly when nothing in the knowledge base answers the question', async ({ page }) => {
    const answer = await ask(page, 'What is the boiling point of mercury on Neptune?')
    await expect(answer).toContainText('could not find an answer to that in the knowledge base')
    await expect(answer.getByRole('list', { name: 'Sources' })).toHaveCount(0)
    // Nothing came close: no articles to suggest either.
    await expect(answer.getByRole('list', { name: 'Articles that may help' })).toHaveCount(0)
  })

  test('a question not answered lists the articles that came close, which open in the reader, at 390 px too', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 900 })
    // The guide says so ("Users with the plain user role have no Logs tab"), in too few of the question's words to quote.
    const answer = await ask(page, 'Do ordinary users get access to the Logs tab?')
    await expect(answer).toContainText('could not find an answer to that in the knowledge base')
    await expect(answer.getByRole('list', { name: 'Sources' })).toHaveCount(0)
    const related = answer.getByRole('list', { name: 'Articles that may help' })
    await expect(related.getByRole('link', { name: 'How to use the query logs and their filters' })).toBeVisible()
    expect(await pageWidth(page), (await widestElements(page, 390)).join('\n')).toBeLessThanOrEqual(390)
    await related.getByRole('link').first().click()
    await expect(page).toHaveURL(/\/read\/\d+\?back=/)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('How to use the query logs and their filters')
    // Back to the answer, which still lists them (kept with its log).
    await page.getByRole('link', { name: 'Back to Ask' }).click()
    await expect(page.getByRole('region', { name: 'Answer' }).getByRole('list', { name: 'Articles that may help' })).toBeVisible()
    // The answer's Word download names them too.
    const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download as Word (.docx)' }).click()])
    const { value: text } = await mammoth.extractRawText({ path: (await file.path())! })
    expect(text).toMatch(/Articles that may help\s+How to use the query logs and their filters/)
    // The question's log shows administrators what the asker was pointed to.
    await page.goto('/logs')
    await page.getByRole('table', { name: 'Query logs' }).getByRole('link', { name: 'Do ordinary users get access to the Logs tab?', exact: true }).first().click()
    await expect(page).toHaveURL(/\/logs\/\d+$/)
    await expect(page.getByRole('list', { name: 'Articles that may help' }).getByRole('link', { name: 'How to use the query logs and their filters' })).toBeVisible()
    expect(await pageWidth(page), (await widestElements(page, 390)).join('\n')).toBeLessThanOrEqual(390)
    // So does the page of the answer saved.
    await page.goto(`/saved/${/\/logs\/(\d+)$/.exec(page.url())?.[1]}`)
    await expect(page.getByRole('list', { name: 'Articles that may help' }).getByRole('link', { name: 'How to use the query logs and their filters' })).toBeVisible()
  })

  test('asks a query shortcut with one click', async ({ page }) => {
    await page.goto('/ask')
    await page.getByRole('button', { name: 'How do I publish drafts?' }).click()
    const answer = page.getByRole('region', { name: 'Answer' })
    await expect(answer).toContainText('You asked: How do I publish drafts?')
    await expect(answer.getByRole('list', { name: 'Sources' }).getByRole('listitem').first()).toBeVisible()
  })
})

test.describe('Ask: after the answer', () => {
  test.beforeEach(async ({ page }) => {
    await page.goto('/ask')
    await page.getByRole('textbox', { name: 'Question', exact: true }).fill('How do I give feedback on an answer?')
    await page.getByRole('button', { name: 'Ask', exact: true }).click()
    await expect(page.getByRole('region', { name: 'Answer' }).getByRole('list', { name: 'Sources' })).toBeVisible()
  })

  test('sends feedback and thanks the user', async ({ page }, testInfo) => {
    await page.getByRole('form', { name: 'Feedback' }).getByRole('button', { name: 'Yes, helpful' }).click()
    const toast = page.getByRole('status').filter({ hasText: 'Feedback sent' })
    await expect(toast).toBeVisible()
    await expect(toast).toContainText('Thank you for your feedback! It helps us improve.')
    if (testInfo.project.name === 'no-js') {
      // Nothing can dismiss it without scripts, so it must not cover the tabs. Both are measured in one layout, once
      // the fonts are in (a font arriving between two measures moves one and not the other).
      await page.evaluate(() => document.fonts.ready.then(() => undefined))
      const [toastBottom, tabsTop] = await page.evaluate(() => {
        const toastBox = [...document.querySelectorAll('[role="status"]')].find((node) => node.textContent?.includes('Feedback sent'))?.getBoundingClientRect()
        const tabsBox = document.querySelector('nav[aria-label="Dashboard"]')?.getBoundingClientRect()
        return [toastBox ? toastBox.bottom : Number.NaN, tabsBox ? tabsBox.top : Number.NaN]
      })
      expect(toastBottom, `toast ends at ${toastBottom}, tabs start at ${tabsTop}`).toBeLessThanOrEqual(tabsTop)
    }
  })

  test('saves the query with a comment', async ({ page }, testInfo) => {
    const form = page.getByRole('form', { name: 'Save query' })
    await form.getByLabel('Comment for your saved query').fill(`keep this (${testInfo.project.name})`)
    await form.getByRole('button', { name: 'Save query' }).click()
    await expect(page.getByRole('status').filter({ hasText: 'Saved to your queries' })).toBeVisible()
    // The page comes back to the form, which now says where the query is kept, not to the top of the page.
    await expect(page).toHaveURL(/#save-query$/)
    await expect(page.getByRole('form', { name: 'Save query' }).getByRole('button', { name: 'Update saved query' })).toBeInViewport()
  })

  test('a reason or comment longer than its field allows, posted past the page, is refused saying how long it may be', async ({ page, baseURL }) => {
    const hidden = async (form: string) =>
      Object.fromEntries(
        await page.getByRole('form', { name: form }).locator('input[type="hidden"]').evaluateAll((inputs) => inputs.map((input) => [(input as HTMLInputElement).name, (input as HTMLInputElement).value])),
      ) as Record<string, string>
    const post = (form: Record<string, string>) => page.request.post('/ask', { form, headers: { Origin: new URL(baseURL as string).origin }, maxRedirects: 0 })
    const feedback = await post({ ...(await hidden('Feedback')), feedback: 'dislike', reason: 'r'.repeat(1001) })
    expect(feedback.status()).toBe(400)
    expect(await feedback.text()).toContain('The reason can be at most 1000 characters; yours has 1001.')
    const saved = await post({ ...(await hidden('Save query')), comment: 'c'.repeat(5001) })
    expect(saved.status()).toBe(400)
    expect(await saved.text()).toContain('The comment can be at most 5000 characters; yours has 5001.')
  })

  test('downloads the answer as a Word document, and says so only once the file came', async ({ page }, testInfo) => {
    const download = page.waitForEvent('download')
    await page.getByRole('link', { name: 'Download as Word (.docx)' }).click()
    const file = await download
    expect(file.suggestedFilename()).toBe('answer.docx')
    if (testInfo.project.name === 'js') await expect(page.getByRole('status').filter({ hasText: 'Converted MD file downloaded' })).toBeVisible()
    const path = await file.path()
    const { readFileSync } = await import('node:fs')
    expect(readFileSync(path!).subarray(0, 2).toString()).toBe('PK')
  })

  test('a Word download that is refused says why: the page itself without scripts, not a saved file', async ({ page }, testInfo) => {
    // An answer that is gone by the time the link is followed (deleted, or the address edited).
    const link = page.getByRole('link', { name: 'Download as Word (.docx)' })
    await link.evaluate((element) => element.setAttribute('href', '/resources/answer.docx?log=987654321'))
    let downloaded = false
    page.on('download', () => (downloaded = true))
    await link.click()
    if (testInfo.project.name === 'js') {
      await expect(page.getByRole('status').filter({ hasText: 'This answer does not exist, or it is not yours to download.' })).toBeVisible()
    } else {
      await expect(page.getByRole('alert').getByRole('heading', { level: 1, name: 'Not found' })).toBeVisible()
      await expect(page.getByRole('alert')).toContainText('This answer does not exist, or it is not yours to download.')
    }
    expect(downloaded).toBe(false)
  })

  test('hides and shows the bot info section, remembering the choice', async ({ page }) => {
    const section = page.getByRole('region', { name: 'Bot info' })
    await expect(section.getByText('Documents')).toBeVisible()
    await section.getByRole('button', { name: 'Hide bot info' }).click()
    await expect(page.getByRole('region', { name: 'Bot info' }).getByText('Documents')).toHaveCount(0)
    await page.goto('/ask')
    await expect(page.getByRole('region', { name: 'Bot info' }).getByRole('button', { name: 'Show bot info' })).toBeVisible()
    await page.getByRole('region', { name: 'Bot info' }).getByRole('button', { name: 'Show bot info' }).click()
    await expect(page.getByRole('region', { name: 'Bot info' }).getByText('Documents')).toBeVisible()
    // Back at the section that was opened, below the answer.
    await expect(page).toHaveURL(/#bot-info$/)
    await expect(page.getByRole('region', { name: 'Bot info' }).getByRole('heading', { name: 'Bot info' })).toBeInViewport()
  })
})
