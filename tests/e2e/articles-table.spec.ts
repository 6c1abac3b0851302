import { expect, test, type Locator, type Page, type TestInfo } from '@playwright/test'
import { publishSelected } from './support/drafts'
import { expectToast, watchToasts } from './support/toasts'

/** Words of their own per project, try and repeat, so no two runs (at once or one after the other) touch each other's articles. */
const wordFor = (testInfo: TestInfo, base: string) =>
  `${base}${testInfo.project.name === 'js' ? 'jay' : 'nox'}${testInfo.retry}${testInfo.repeatEachIndex > 0 ? `r${testInfo.repeatEachIndex}` : ''}`

/** Saves a draft through Add article and answers its id. */
async function addDraft(page: Page, title: string, content: string): Promise<number> {
  await page.goto('/articles/new')
  await page.getByLabel('Title').fill(title)
  await page.getByLabel('Content').fill(content)
  await page.getByRole('button', { name: 'Save draft' }).click()
  await expect(page).toHaveURL(/\/articles\/drafts/)
  const link = page.getByRole('table', { name: 'Drafts' }).getByRole('link', { name: title, exact: true }).last()
  return Number((await link.getAttribute('href'))!.split('/').pop())
}

// Toasts live 2 s with scripts on: each page notes them, so a check on a busy machine still finds them.
test.beforeEach(({ page }) => watchToasts(page))

/** True for a non-empty list whose every item passes. */
const everyOf = <Item,>(items: Item[], test: (item: Item) => boolean) => items.length > 0 && items.every(test)
const titlesIn = (table: Locator) => table.locator('tbody tr td:nth-child(2)').allInnerTexts()
const idsIn = async (table: Locator) => (await table.locator('tbody tr td:nth-child(4)').allInnerTexts()).map(Number)

test.describe('Articles table', () => {
  test('filters by text, number and date with their match modes, all in the URL', async ({ page }) => {
    await page.goto('/articles')
    const filters = page.getByRole('form', { name: 'Filter articles' })
    const table = page.getByRole('table', { name: 'Published articles' })

    await filters.getByRole('combobox', { name: 'Title match mode' }).selectOption({ label: 'Contains' })
    await filters.getByLabel('Title', { exact: true }).fill('AGENT')
    await filters.getByRole('button', { name: 'Filter' }).click()
    await expect(page).toHaveURL(/[?&]title=AGENT(&|$)/)
    await expect(page).toHaveURL(/title_mode=contains/)
    // The address changes as the navigation ends; the rows follow with the render, so poll them.
    await expect.poll(async () => everyOf(await titlesIn(table), (title) => title.toLowerCase().includes('agent'))).toBe(true)

    await filters.getByRole('combobox', { name: 'Title match mode' }).selectOption({ label: 'Not contains' })
    await filters.getByRole('button', { name: 'Filter' }).click()
    await expect(page).toHaveURL(/title_mode=notContains/)
    await expect.poll(async () => everyOf(await titlesIn(table), (title) => !title.toLowerCase().includes('agent'))).toBe(true)

    await filters.getByLabel('Title', { exact: true }).fill('')
    await filters.getByRole('combobox', { name: 'Id match mode' }).selectOption({ label: 'Less than or equal to' })
    await filters.getByLabel('Id', { exact: true }).fill('3')
    await filters.getByRole('button', { name: 'Filter' }).click()
    await expect(page).toHaveURL(/id=3&id_mode=lte|id_mode=lte.*id=3/)
    await expect.poll(async () => everyOf(await idsIn(table), (id) => id <= 3)).toBe(true)

    await filters.getByLabel('Id', { exact: true }).fill('')
    await filters.getByRole('combobox', { name: 'Updated match mode' }).selectOption({ label: 'Date is before' })
    await filters.getByLabel('Updated', { exact: true }).fill('2000-01-01')
    await filters.getByRole('button', { name: 'Filter' }).click()
    await expect(table).toContainText('No articles match these filters.')
    await filters.getByRole('combobox', { name: 'Updated match mode' }).selectOption({ label: 'Date is after' })
    await filters.getByRole('button', { name: 'Filter' }).click()
    await expect(page).toHaveURL(/timestamp_mode=dateAfter/)
    await expect(table.locator('tbody tr td:nth-child(2)').first()).not.toBeEmpty()

    await filters.getByLabel('Updated', { exact: true }).fill('')
    await filters.getByRole('combobox', { name: 'Source match mode' }).selectOption({ label: 'Starts with' })
    await filters.getByLabel('Source', { exact: true }).fill('how to')
    await filters.getByRole('button', { name: 'Filter' }).click()
    await expect(page).toHaveURL(/source=how(\+|%20)to/)
    await expect
      .poll(async () => everyOf(await table.locator('tbody tr td:nth-child(3)').allInnerTexts(), (source) => source.toLowerCase().startsWith('how to')))
      .toBe(true)

    // The filters survive a reload: they are the address.
    await page.reload()
    await expect(filters.getByLabel('Source', { exact: true })).toHaveValue('how to')
    await filters.getByRole('link', { name: 'Clear filters' }).click()
    await expect(page).toHaveURL(/\/articles\?sortField=id&sortOrder=1$|\/articles$/)
    await expect(filters.getByLabel('Source', { exact: true })).toHaveValue('')
  })

  test('pages through links and sorts through its headers, all in the URL', async ({ page }) => {
    await page.goto('/articles?rows=5')
    const table = page.getByRole('table', { name: 'Published articles' })
    await expect(table.locator('tbody tr')).toHaveCount(5)
    const pages = page.getByRole('navigation', { name: 'Articles pages' })
    await expect(pages).toContainText(/1–5 of \d+ \(page 1 of \d+\)/)
    const firstPage = await idsIn(table)

    await pages.getByRole('link', { name: 'Next' }).click()
    await expect(page).toHaveURL(/first=5/)
    await expect(pages).toContainText(/6–10 of \d+ \(page 2 of/)
    const secondPage = await idsIn(table)
    expect(secondPage.some((id) => firstPage.includes(id))).toBe(false)
    expect(Math.min(...secondPage)).toBeGreaterThan(Math.max(...firstPage))

    await pages.getByRole('link', { name: 'Previous' }).click()
    await expect(pages).toContainText(/1–5 of/)
    // Other specs publish meanwhile: the last page may move on, so go to it again until it is the last.
    await expect(async () => {
      const last = pages.getByRole('link', { name: 'Last' })
      if (await last.count()) await last.click()
      await expect(pages.getByRole('link', { name: 'Next' })).toHaveCount(0, { timeout: 2000 })
    }).toPass()

    await table.getByRole('button', { name: 'Id', exact: true }).click()
    await expect(page).toHaveURL(/sortField=id&sortOrder=-1/)
    await expect(table.getByRole('columnheader', { name: 'Id' })).toHaveAttribute('aria-sort', 'descending')
    const descending = await idsIn(table)
    expect([...descending].sort((a, b) => b - a)).toEqual(descending)
    // A new sort starts again at the first page.
    await expect(page).not.toHaveURL(/first=/)

    // A filter refused beside its field is said to be left out of the count.
    await page.goto('/articles?id=abc')
    await expect(page.getByRole('status').filter({ hasText: /^\d+ (matching|published) \(the filters marked in error are not applied\)$/ })).toBeVisible()

    // An address past the last page (a bookmark, a page link kept while articles were deleted) shows the last page, at
    // its own address. The ten first articles are the guide's, which no spec deletes.
    await page.goto('/articles?id=10&id_mode=lte&rows=4&first=100000')
    await expect(page).toHaveURL(/[?&]first=8(&|$)/)
    await expect(pages).toContainText('9–10 of 10 (page 3 of 3)')
    await expect.poll(() => idsIn(table)).toEqual([9, 10])
    await expect(pages.getByRole('link', { name: 'Next' })).toHaveCount(0)
    await page.goto('/articles?rows=5&first=100000')
    await expect(page).not.toHaveURL(/first=100000/)
    await expect(pages).toContainText(/\d+–(\d+) of \1 \(page (\d+) of \2\)/)
    await expect(table).not.toContainText('No articles on this page.')
  })

  test('edits an article, which answers use at once, and views its content', async ({ page }, testInfo) => {
    const word = wordFor(testInfo, 'quorble')
    const title = `Watering the ${word} cactus`
    await addDraft(page, title, `The ${word} cactus needs water once a month in summer.`)
    const [id] = await publishSelected(page, [title])

    await page.goto('/articles?sortField=id&sortOrder=-1')
    await page.getByRole('link', { name: `Edit ${title}`, exact: true }).click()
    await expect(page).toHaveURL(new RegExp(`/articles/${id}/edit$`))
    await page.getByLabel('Content').fill(`The ${word} cactus needs rainwater every second Tuesday.`)
    await page.getByRole('button', { name: 'Save and re-index' }).click()
    await expect(page).toHaveURL(new RegExp(`/articles/${id}$`))
    await expectToast(page, 'Article updated and re-indexed')
    await expect(page.getByRole('article')).toContainText('rainwater every second Tuesday')

    await page.goto('/ask')
    await page.getByRole('textbox', { name: 'Question', exact: true }).fill(`What water does the ${word} cactus need?`)
    await page.getByRole('button', { name: 'Ask', exact: true }).click()
    await expect(page.getByRole('region', { name: 'Answer' })).toContainText('rainwater')
  })

  test('refuses an edit without a title, with the reason beside the field', async ({ page }) => {
    await page.goto('/articles/1/edit')
    await page.getByLabel('Title').fill('   ')
    await page.getByRole('button', { name: 'Save and re-index' }).click()
    await expect(page.getByText('Please enter a title')).toBeVisible()
    await expect(page).toHaveURL(/\/articles\/1\/edit$/)
  })

  test('deletes an article after a confirmation step, and its sources are marked deleted in the logs', async ({ page }, testInfo) => {
    const word = wordFor(testInfo, 'brindlewort')
    const title = `Pruning the ${word} hedge`
    await addDraft(page, title, `Prune the ${word} hedge in late winter, before the birds nest.`)
    const [id] = await publishSelected(page, [title])
    const question = `When do I prune the ${word} hedge?`
    await page.goto('/ask')
    await page.getByRole('textbox', { name: 'Question', exact: true }).fill(question)
    await page.getByRole('button', { name: 'Ask', exact: true }).click()
    await expect(page.getByRole('region', { name: 'Answer' }).getByRole('link', { name: title })).toBeVisible()

    await page.goto(`/articles/${id}`)
    await page.getByRole('navigation', { name: 'Article actions' }).getByRole('link', { name: 'Delete' }).click()
    await expect(page).toHaveURL(new RegExp(`/articles/${id}/delete$`))
    await expect(page.getByRole('heading', { name: `Delete “${title}”?` })).toBeVisible()
    await page.getByRole('button', { name: 'Delete article' }).click()
    await expect(page).toHaveURL(/\/articles$/)
    await expectToast(page, 'Article deleted')
    expect((await page.goto(`/articles/${id}`))?.status()).toBe(404)

    await page.goto('/logs')
    await page.getByRole('table', { name: 'Query logs' }).getByRole('link', { name: question, exact: true }).click()
    const sources = page.getByRole('list', { name: 'Sources' })
    await expect(sources.getByRole('listitem').filter({ hasText: title })).toContainText('(deleted)')
    await expect(sources.getByRole('link', { name: title })).toHaveCount(0)
  })

  test('deletes every article with a title once the deletion is confirmed', async ({ page }, testInfo) => {
    const word = wordFor(testInfo, 'lanternfish')
    const title = `The ${word} almanac`
    await addDraft(page, title, `First copy of the ${word} almanac.`)
    await addDraft(page, title, `Second copy of the ${word} almanac.`)
    expect(await publishSelected(page, [title])).toHaveLength(2)

    await page.goto(`/articles?title=${encodeURIComponent(title)}&title_mode=equals`)
    await expect(page.getByRole('table', { name: 'Published articles' }).locator('tbody tr')).toHaveCount(2)
    const form = page.getByRole('form', { name: 'Delete by title' })
    await form.getByLabel('Title to delete').fill(title.toUpperCase())
    await form.getByRole('button', { name: 'Delete by title' }).click()
    // Not confirmed: nothing is deleted (the browser's own check with scripts off, the form's with them).
    await expect(page.getByRole('table', { name: 'Published articles' }).locator('tbody tr')).toHaveCount(2)
    await form.getByRole('checkbox', { name: 'Yes, delete every article with this title' }).check()
    await form.getByRole('button', { name: 'Delete by title' }).click()
    await expectToast(page, '2 articles deleted')
    await expect(page.getByRole('table', { name: 'Published articles' })).toContainText('No articles match these filters.')
  })
})

test.describe('Drafts', () => {
  test('edits a draft, then deletes it after ticking the confirmation', async ({ page }, testInfo) => {
    const word = wordFor(testInfo, 'zinnober')
    const title = `Feeding the ${word} goldfish`
    const id = await addDraft(page, title, `Feed the ${word} goldfish twice a day.`)

    await page.getByRole('link', { name: `Edit ${title}`, exact: true }).click()
    await expect(page).toHaveURL(new RegExp(`/articles/drafts/${id}$`))
    const edit = page.getByRole('form', { name: 'Edit draft' })
    await edit.getByLabel('Content').fill(`Feed the ${word} goldfish once a day, a pinch at a time.`)
    await edit.getByRole('button', { name: 'Save draft' }).click()
    await expectToast(page, 'Draft updated')
    await expect(edit.getByLabel('Content')).toHaveValue(`Feed the ${word} goldfish once a day, a pinch at a time.`)

    const remove = page.getByRole('form', { name: 'Delete draft' })
    await remove.getByRole('button', { name: 'Delete draft' }).click()
    await expect(page).toHaveURL(new RegExp(`/articles/drafts/${id}$`))
    await remove.getByRole('checkbox', { name: 'Yes, delete this draft' }).check()
    await remove.getByRole('button', { name: 'Delete draft' }).click()
    await expect(page).toHaveURL(/\/articles\/drafts$/)
    await expectToast(page, 'Draft deleted')
    await expect(page.getByRole('table', { name: 'Drafts' }).getByRole('link', { name: title, exact: true })).toHaveCount(0)
  })

  test('publishes a draft with the edit not yet saved, and refuses an emptied title without losing the content', async ({ page }, testInfo) => {
    const word = wordFor(testInfo, 'damson')
    const id = await addDraft(page, `Pruning ${word} trees`, `Prune ${word} trees in late winter.`)
    await page.goto(`/articles/drafts/${id}`)
    const edit = page.getByRole('form', { name: 'Edit draft' })
    const publish = page.getByRole('region', { name: 'Publish' }).getByRole('button', { name: 'Publish this draft' })

    // An emptied title: refused beside the field, the typed content kept, nothing published.
    await edit.getByLabel('Title').fill('')
    await edit.getByLabel('Content').fill(`Prune ${word} trees in late winter, before the buds break.`)
    if (testInfo.project.name === 'js') await edit.getByLabel('Title').evaluate((field) => field.removeAttribute('required'))
    else await edit.evaluate((form) => form.setAttribute('novalidate', ''))
    await publish.click()
    await expect(edit.getByText('Please enter a title')).toBeVisible()
    await expect(edit.getByLabel('Content')).toHaveValue(`Prune ${word} trees in late winter, before the buds break.`)
    await expect(page).toHaveURL(new RegExp(`/articles/drafts/${id}$`))

    // A title typed and not saved is published with the draft.
    await edit.getByLabel('Title').fill(`Pruning ${word} trees in winter`)
    await publish.click()
    await expect(page).toHaveURL(/\/articles\/drafts\?task=/)
    const published = page.getByRole('list', { name: 'Published articles' })
    await expect(page.getByRole('status').filter({ hasText: /Published \d+ of \d+ drafts/ })).toBeVisible({ timeout: 30_000 })
    await expect(published.getByRole('link', { name: `Pruning ${word} trees in winter`, exact: true })).toBeVisible()
  })

  test('publishes the ticked drafts and shows the progress', async ({ page }, testInfo) => {
    const word = wordFor(testInfo, 'sugarsnap')
    const titles = [`The ${word} pea harvest`, `Drying ${word} peas`]
    await addDraft(page, titles[0], `Harvest ${word} peas when the pods rattle.`)
    await addDraft(page, titles[1], `Dry ${word} peas on a rack for two weeks.`)
    const ids = await publishSelected(page, titles)
    expect(ids).toHaveLength(2)
    await expect(page.getByRole('progressbar', { name: 'Publishing progress' })).toBeVisible()
    for (const title of titles) await expect(page.getByRole('table', { name: 'Drafts' }).getByRole('link', { name: title, exact: true })).toHaveCount(0)
  })

  test('refuses to publish when no draft is ticked', async ({ page }, testInfo) => {
    const title = `An unticked ${wordFor(testInfo, 'quince')} draft`
    const id = await addDraft(page, title, 'Nothing to see here.')
    await page.getByRole('form', { name: 'Publish drafts' }).getByRole('button', { name: 'Publish selected' }).click()
    await expect(page.getByRole('alert').filter({ hasText: 'Select at least one draft to publish' })).toBeVisible()
    await expect(page.getByRole('table', { name: 'Drafts' }).getByRole('link', { name: title, exact: true })).toBeVisible()
    await page.goto(`/articles/drafts/${id}`)
    await page.getByRole('checkbox', { name: 'Yes, delete this draft' }).check()
    await page.getByRole('button', { name: 'Delete draft' }).click()
    await expectToast(page, 'Draft deleted')
  })

  test('deletes all drafts only after the confirmation is ticked', async ({ page }, testInfo) => {
    // Deleting all for real would take the other tests' drafts with it, so this checks the confirmation step: the
    // browser refuses the unticked form, and so does the server for a post that skips the browser.
    const title = `A kept ${wordFor(testInfo, 'medlar')} draft`
    const id = await addDraft(page, title, 'This draft outlives a refused delete-all.')
    const form = page.getByRole('form', { name: 'Delete all drafts' })
    await form.getByRole('button', { name: 'Delete all drafts' }).click()
    const confirm = form.getByRole('checkbox', { name: /Yes, delete (all \d+ drafts|the 1 draft)/ })
    expect(await confirm.evaluate((box) => (box as HTMLInputElement).validity.valueMissing)).toBe(true)
    const refused = await page.request.post('/articles/drafts?index', { form: { intent: 'delete-all' }, maxRedirects: 0 })
    expect(refused.status()).toBe(400)
    await page.goto('/articles/drafts')
    await expect(page.getByRole('table', { name: 'Drafts' }).getByRole('link', { name: title, exact: true })).toBeVisible()
    await page.goto(`/articles/drafts/${id}`)
    await page.getByRole('checkbox', { name: 'Yes, delete this draft' }).check()
    await page.getByRole('button', { name: 'Delete draft' }).click()
    await expectToast(page, 'Draft deleted')
  })
})
