import { expect, test, type Page, type TestInfo } from '@playwright/test'

/** Words of their own per project, so the js and no-js runs never see each other's saved queries. */
const wordFor = (testInfo: TestInfo, base: string) => `${base}${testInfo.project.name === 'js' ? 'jay' : 'nox'}${testInfo.retry}`

const toast = (page: Page, text: string) => page.getByRole('status').filter({ hasText: text })

/** Asks a question through the Ask form and saves its log to my queries from the log's page. */
async function askAndSave(page: Page, question: string, note: string) {
  const asked = await page.request.post('/ask', { form: { question }, maxRedirects: 0 })
  expect(asked.status()).toBe(302)
  await page.goto('/logs')
  await page.getByRole('table', { name: 'Query logs' }).getByRole('link', { name: question, exact: true }).click()
  await expect(page).toHaveURL(/\/logs\/\d+$/)
  const save = page.getByRole('form', { name: 'Save to my queries' })
  await save.getByLabel('Note for your saved query').fill(note)
  await save.getByRole('button', { name: 'Save query' }).click()
  await expect(toast(page, 'Query saved')).toBeVisible()
  return page.url()
}

test.describe('Saved queries', () => {
  test('lists a saved query, opens its log, changes its note and deletes it', async ({ page }, testInfo) => {
    const word = wordFor(testInfo, 'keepsake')
    const question = `How do I publish the ${word} drafts?`
    const logUrl = await askAndSave(page, question, `For the ${word} newsletter`)

    // (A link on the log's page leads here; the toast of the save may still cover the tab with scripts off.)
    await page.getByRole('region', { name: 'Save to my queries' }).getByRole('link', { name: 'Saved queries' }).click()
    await expect(page).toHaveURL(/\/saved$/)
    const item = page.getByRole('listitem', { name: question })
    await expect(item).toBeVisible()
    const note = item.getByRole('form', { name: `Note for ${question}` })
    await expect(note.getByLabel('Note', { exact: true })).toHaveValue(`For the ${word} newsletter`)

    await note.getByLabel('Note', { exact: true }).fill(`For the ${word} annual report`)
    await note.getByRole('button', { name: 'Update note' }).click()
    await expect(toast(page, 'Saved query updated')).toBeVisible()
    await expect(note.getByLabel('Note', { exact: true })).toHaveValue(`For the ${word} annual report`)
    await page.reload()
    await expect(page.getByRole('listitem', { name: question }).getByLabel('Note', { exact: true })).toHaveValue(`For the ${word} annual report`)

    await page.getByRole('listitem', { name: question }).getByRole('link', { name: `Open ${question}` }).click()
    await expect(page).toHaveURL(logUrl)
    await expect(page.getByRole('heading', { level: 1, name: /^Log \d+$/ })).toBeVisible()
    await page.goBack()
    await expect(page).toHaveURL(/\/saved$/)

    await page
      .getByRole('listitem', { name: question })
      .getByRole('form', { name: `Delete saved query ${question}` })
      .getByRole('button', { name: 'Delete saved query' })
      .click()
    await expect(toast(page, 'Saved query deleted')).toBeVisible()
    await expect(page.getByRole('listitem', { name: question })).toHaveCount(0)
  })

  test('after a delete, the focus goes on to the saved query that takes its place, not to the top of the page', async ({ page }, testInfo) => {
    const word = wordFor(testInfo, 'focusing')
    const questions = [`How do I publish the ${word} first drafts?`, `How do I publish the ${word} second drafts?`]
    for (const question of questions) await askAndSave(page, question, '')
    await page.goto('/saved')
    const list = page.getByRole('list', { name: 'Saved queries' })
    // The first of the two in the list is deleted; the saved query after it takes its place (the other project's
    // saved queries may sit between them: both projects ask as the one administrator).
    const shown = await list.getByRole('heading', { level: 2 }).allTextContents()
    const [deleted, kept] = shown.indexOf(questions[0]) < shown.indexOf(questions[1]) ? questions : [questions[1], questions[0]]
    await page
      .getByRole('listitem', { name: deleted })
      .getByRole('form', { name: `Delete saved query ${deleted}` })
      .getByRole('button', { name: 'Delete saved query' })
      .click()
    await expect(page.getByRole('listitem', { name: deleted })).toHaveCount(0)
    await expect(page.getByRole('listitem', { name: kept })).toBeVisible()
    // Without scripts the page is drawn anew, and the browser starts at its top.
    if (testInfo.project.use.javaScriptEnabled === false) return
    const focused = page.locator(':focus')
    await expect(focused).toHaveCount(1)
    expect(await focused.evaluate((element) => element.tagName === 'H2' && element.closest('ul[aria-label="Saved queries"]') !== null)).toBe(true)
  })

  test('shows a saved answer\'s words without its "[n]" markers, which would point at nothing here', async ({ page }, testInfo) => {
    // Questions the demo content answers with a cited sentence; one per project, as both run at once.
    const [question, words] = testInfo.project.name === 'js' ? ['How do I upload files?', 'Submit the upload'] : ['How do I publish drafts?', 'Wait for the job to finish']
    const asked = await page.request.post('/ask', { form: { question }, maxRedirects: 0 })
    expect(asked.status()).toBe(302)
    await page.goto(asked.headers()['location'])
    // On Ask the marker links to the source beside the answer.
    await expect(page.locator('#answer-text').getByRole('link', { name: '[1]' })).toHaveAttribute('href', '#source-1')
    const save = page.getByRole('form', { name: 'Save query' })
    await save.getByLabel('Comment for your saved query').fill(`Cited, ${testInfo.project.name}`)
    await save.getByRole('button', { name: /^(Save query|Update saved query)$/ }).click()
    await expect(toast(page, 'Saved to your queries')).toBeVisible()

    await page.goto('/saved')
    await expect(page.getByRole('listitem', { name: question }).first()).toContainText(words)
    await expect(page.getByRole('list', { name: 'Saved queries' })).not.toContainText(/\[\d+\]/)

    // Its log's source, read, leads back to the log where it was listed, though the browser sends no Referer.
    await page.getByRole('listitem', { name: question }).first().getByRole('link', { name: `Open ${question}` }).click()
    await expect(page).toHaveURL(/\/logs\/\d+$/)
    const logUrl = page.url()
    const source = page.getByRole('list', { name: 'Sources' }).locator('a[href^="/read/"]').first()
    await source.evaluate((element) => element.setAttribute('rel', 'noreferrer'))
    await source.click()
    await expect(page).toHaveURL(/\/read\/\d+/)
    await page.getByRole('link', { name: 'Back to the log' }).click()
    await expect(page).toHaveURL(`${logUrl}#log-source-1`)
  })

  test('shows a saved query as saved where it was saved from, so saving again keeps its note', async ({ page }, testInfo) => {
    const word = wordFor(testInfo, 'heirloom')
    const question = `How do I add the ${word} articles?`
    const logUrl = await askAndSave(page, question, `Keep the ${word} note`)
    const logId = /\/logs\/(\d+)$/.exec(logUrl)?.[1]

    // The log's page, opened again: the note is there, to be updated.
    await page.goto(logUrl)
    const save = page.getByRole('form', { name: 'Save to my queries' })
    await expect(save.getByLabel('Note for your saved query')).toHaveValue(`Keep the ${word} note`)
    await expect(page.getByRole('region', { name: 'Save to my queries' }).getByText('Saved to your queries')).toBeVisible()

    // The answer on Ask: the same.
    await page.goto(`/ask?log=${logId}`)
    const answerSave = page.getByRole('form', { name: 'Save query' })
    await expect(answerSave.getByLabel('Comment for your saved query')).toHaveValue(`Keep the ${word} note`)
    await answerSave.getByLabel('Comment for your saved query').fill(`Keep the ${word} note, updated`)
    await answerSave.getByRole('button', { name: 'Update saved query' }).click()
    await expect(toast(page, 'Saved to your queries')).toBeVisible()
    await page.goto('/saved')
    await expect(page.getByRole('listitem', { name: question }).getByLabel('Note', { exact: true })).toHaveValue(`Keep the ${word} note, updated`)

    // An answer not saved offers to save it.
    const other = `How do I crawl the ${word} site?`
    expect((await page.request.post('/ask', { form: { question: other }, maxRedirects: 0 })).status()).toBe(302)
    await page.goto('/logs')
    await page.getByRole('table', { name: 'Query logs' }).getByRole('link', { name: other, exact: true }).click()
    await expect(page.getByRole('form', { name: 'Save to my queries' }).getByRole('button', { name: 'Save query' })).toBeVisible()
    await expect(page.getByRole('form', { name: 'Save to my queries' }).getByLabel('Note for your saved query')).toHaveValue('')
  })

  test("says 'Cannot save or update query' when the saved query is gone", async ({ page, context }, testInfo) => {
    const word = wordFor(testInfo, 'ephemera')
    const question = `Where did the ${word} query go?`
    await askAndSave(page, question, 'soon gone')
    await page.goto('/saved')

    // Deleted meanwhile in another tab.
    const other = await context.newPage()
    await other.goto('/saved')
    await other.getByRole('form', { name: `Delete saved query ${question}` }).getByRole('button', { name: 'Delete saved query' }).click()
    await expect(other.getByRole('listitem', { name: question })).toHaveCount(0)
    await other.close()

    const note = page.getByRole('form', { name: `Note for ${question}` })
    await note.getByLabel('Note', { exact: true }).fill('too late')
    await note.getByRole('button', { name: 'Update note' }).click()
    // One assertion: with scripts on the toast leaves after its life.
    await expect(toast(page, 'Cannot save or update query').filter({ hasText: 'Something went wrong' })).toBeVisible()
  })
})
