import type { Locator, Page } from '@playwright/test'
import { asAdministrator, backend, createLocalAccount, expect, signInLocally, test, type Role } from './support'

// A plain user reads the sources of an answer and their saved queries: the reader view (/read/<article>) opens for
// every signed-in role, with the quoted passage marked, where the editors' article page refused users.

const PHONE = { width: 390, height: 844 }
const QUESTION = 'How do I add an article?'
const READER_URL = /\/read\/\d+\?passage=\d+(?:&back=[^#&]+)?#passage$/

// Measured once the page and its stylesheets have loaded: a URL that has just changed may still be laid out without them.
const pageWidth = async (page: Page) => {
  await page.waitForLoadState('load')
  return page.evaluate(() => document.documentElement.scrollWidth)
}
const words = (text: string) => text.replace(/\s+/g, ' ').trim()
/** The words alone: a heading reads "Add the article." in a source's excerpt and "Add the article" in the reader. */
const bareWords = (text: string) => words(text.replace(/[^\p{L}\p{N}\s]/gu, ' '))

/** The page is a reader view of an article: a title, the passage marked, no refusal and no error, no sideways scroll. */
async function expectReader(page: Page) {
  await expect(page.getByRole('heading', { level: 1 })).not.toBeEmpty()
  const passage = page.locator('mark#passage')
  await expect(passage).toBeVisible()
  await expect(passage).toContainText(/\w{3,}/)
  await expect(page.getByText('Something went wrong')).toHaveCount(0)
  await expect(page.getByText('does not open this page')).toHaveCount(0)
  await expect(page.getByText(/^(Article of the knowledge base|Web page|File|Video)/)).toBeVisible()
  expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width + 1)
  return passage
}

/** Asks on Ask and waits for the finished answer (it has its own address then, and the form to save it). */
async function ask(page: Page, question: string): Promise<Locator> {
  await page.goto('/ask')
  await page.getByRole('textbox', { name: 'Question', exact: true }).fill(question)
  await page.getByRole('button', { name: 'Ask', exact: true }).click()
  const answer = page.getByRole('region', { name: 'Answer' })
  // A streamed answer gets its address once it is complete; a posted one has it from the start.
  await expect(page).toHaveURL(/\/ask\?(thread=\d+&)?(task|log)=/)
  await expect(answer.getByRole('form', { name: 'Save query' })).toBeVisible()
  await expect(answer.getByRole('list', { name: 'Sources' }).getByRole('link').first()).toBeVisible()
  return answer
}

/** An article of the demo content and one of its passages, read through the backend as the administrator. */
async function aPassage(): Promise<string> {
  const token = await asAdministrator()
  const page = await backend('/admin/get_articles?first=0&rows=1', { token })
  const id = page.rows[0][3] as number
  const article = await backend(`/read_article/${id}`, { token })
  return `/read/${id}?passage=${article.passages[article.passages.length - 1].id}#passage`
}

test.describe('A plain user reads sources', () => {
  test.use({ viewport: PHONE })

  test('opens a cited source and a saved query, and reads both without a refusal', async ({ page }, testInfo) => {
    const account = await createLocalAccount('user')
    await signInLocally(page, account, { from: '/login' })
    await expect(page).toHaveURL(/\/ask$/)

    const question = `${QUESTION} (${testInfo.project.name})`
    const answer = await ask(page, question)
    const askUrl = page.url()
    const firstSource = answer.getByRole('list', { name: 'Sources' }).getByRole('link').first()
    const sourceHref = (await firstSource.getAttribute('href')) ?? ''

    // Saved to my queries from the answer.
    await answer.getByRole('form', { name: 'Save query' }).getByRole('button', { name: 'Save query' }).click()
    await expect(page.getByRole('status').filter({ hasText: 'Saved to your queries' })).toBeVisible()

    // Saved queries → Open: the answer as its asker reads it, not the editors' log.
    await page.goto('/saved')
    const item = page.getByRole('listitem', { name: question })
    await item.getByRole('link', { name: `Open ${question}` }).click()
    await expect(page).toHaveURL(/\/saved\/\d+$/)
    await expect(page.getByRole('heading', { level: 1, name: question })).toBeVisible()
    await expect(page.getByRole('heading', { level: 2, name: 'Answer' })).toBeVisible()
    await expect(page.getByText('does not open this page')).toHaveCount(0)
    await expect(page.getByRole('link', { name: 'Open the log' })).toHaveCount(0)
    expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width + 1)
    const savedSources = page.getByRole('list', { name: 'Sources' }).getByRole('link')
    const savedHrefs = await savedSources.evaluateAll((links) => links.map((link) => link.getAttribute('href') ?? ''))
    expect(savedHrefs.length).toBeGreaterThan(0)
    const excerpt = words((await page.getByRole('list', { name: 'Sources' }).getByRole('listitem').first().locator('p').textContent()) ?? '')

    // Its first source: the reader at the quoted passage, the passage marked.
    await savedSources.first().click()
    await expect(page).toHaveURL(READER_URL)
    const passage = await expectReader(page)
    // The marked passage is the one the answer quoted (its first words, as the saved answer shows them).
    expect(bareWords(await passage.innerText())).toContain(bareWords(excerpt).split(' ').slice(0, 4).join(' '))
    await expect(page.getByRole('link', { name: 'Open in the editor' })).toHaveCount(0)
    // Back to the saved answer, at the source that was opened.
    await page.getByRole('link', { name: 'Back to the saved answer' }).click()
    await expect(page).toHaveURL(/\/saved\/\d+#source-1$/)

    // The source as Ask links it. Ask's links lead to the reader; should one still lead to the editors' page, the
    // reader's address is made from its article and the passage the saved answer names for that article.
    await page.goto(askUrl)
    const onAsk = page.getByRole('region', { name: 'Answer' }).getByRole('list', { name: 'Sources' }).getByRole('link').first()
    if (sourceHref.startsWith('/read/')) {
      await onAsk.click()
    } else {
      const articleId = /\/articles\/(\d+)/.exec(sourceHref)?.[1]
      expect(articleId, `a source link of Ask names its article: ${sourceHref}`).toBeTruthy()
      const sameArticle = savedHrefs.find((href) => href.startsWith(`/read/${articleId}?`))
      await page.goto(sameArticle ?? `/read/${articleId}`)
    }
    await expect(page).toHaveURL(/\/read\/\d+/)
    await expectReader(page)
  })

  for (const role of ['user', 'editor', 'admin'] as Role[]) {
    test(`${role === 'user' ? 'a' : 'an'} ${role} opens the reader at a passage; only editors and administrators are offered the editor`, async ({ page }) => {
      const url = await aPassage()
      const account = await createLocalAccount(role)
      await signInLocally(page, account, { from: '/login' })
      await expect(page).toHaveURL(/\/ask$/)
      const response = await page.goto(url)
      expect(response?.status()).toBe(200)
      await expectReader(page)
      await expect(page.getByRole('link', { name: 'Open in the editor' })).toHaveCount(role === 'user' ? 0 : 1)
      // Typed in, with no screen to go back to: the way back is Ask.
      await expect(page.getByRole('link', { name: 'Back to Ask' })).toHaveAttribute('href', '/ask')
    })
  }

  test('a passage the article no longer has shows the whole article with a note; an unknown article is a 404', async ({ page }) => {
    const url = await aPassage()
    const account = await createLocalAccount('user')
    await signInLocally(page, account, { from: '/login' })
    await expect(page).toHaveURL(/\/ask$/)
    const response = await page.goto(url.replace(/passage=\d+/, 'passage=2147483000'))
    expect(response?.status()).toBe(200)
    await expect(page.getByRole('note')).toContainText('The quoted passage is not in this article as it reads now')
    await expect(page.locator('mark#passage')).toHaveCount(0)
    await expect(page.getByRole('heading', { level: 1 })).not.toBeEmpty()

    for (const path of ['/read/2147483000', '/read/abc']) {
      const missing = await page.goto(path)
      expect(missing?.status(), path).toBe(404)
      await expect(page.getByText('does not open this page')).toHaveCount(0)
    }
  })
})
