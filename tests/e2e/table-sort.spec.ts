import { expect, test, type Locator, type Page, type TestInfo } from '@playwright/test'
import { whenHydrated } from './support/backend'

/** Letters of their own per project and run, so the js and no-js runs never see each other's rows. */
const markFor = (testInfo: TestInfo) => `${testInfo.project.name === 'js' ? 'srtj' : 'srtn'}${Date.now().toString(36)}`

/** The table's filter form, unfolded where the browser keeps it folded. */
async function openFilters(page: Page, label: string) {
  const filters = page.getByRole('form', { name: label })
  if (!(await filters.isVisible())) await page.getByText(label, { exact: true }).first().click()
  return filters
}

/** What sorts by a column: the button in its header. */
const sortControl = (table: Locator, column: string) => table.getByRole('columnheader', { name: column, exact: true }).getByRole('button')

/** The text of one column, row by row. */
const columnOf = (page: Page, table: string, column: number) => page.getByRole('table', { name: table }).locator(`tbody tr td:nth-child(${column})`).allInnerTexts()

// A column header sorts with what is typed in the filters, applied or not: the header is a button of the filter form,
// so the typed filters travel with the sort, with scripts on or off. Every sortable table has it through SortHeader.
test.describe('Sorting keeps the filters being typed', () => {
  test('articles: a title typed but not applied is applied by sorting on Title, and stays in its field', async ({ page }, testInfo) => {
    await page.goto('/articles')
    const table = page.getByRole('table', { name: 'Published articles' })
    await whenHydrated(sortControl(table, 'Title'), testInfo)
    const filters = await openFilters(page, 'Filter articles')
    await filters.getByLabel('Title', { exact: true }).fill('How to')
    await sortControl(table, 'Title').click()

    await expect(page).toHaveURL(/sortField=title&sortOrder=1/)
    await expect(page).toHaveURL(/[?&]title=How(\+|%20)to(&|$)/)
    await expect(page).not.toHaveURL(/[?&]sort=/)
    await expect(table.getByRole('columnheader', { name: 'Title' })).toHaveAttribute('aria-sort', 'ascending')
    await expect((await openFilters(page, 'Filter articles')).getByLabel('Title', { exact: true })).toHaveValue('How to')
    const titles = await columnOf(page, 'Published articles', 2)
    expect(titles.length).toBeGreaterThan(1)
    expect(titles.every((title) => title.startsWith('How to'))).toBe(true)
    expect(titles).toEqual([...titles].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' })))
  })

  test('drafts: sorting on Title applies the typed title, and the next sort the next one typed', async ({ page }, testInfo) => {
    const mark = markFor(testInfo)
    for (const title of [`${mark} zebra notes`, `${mark} apple notes`]) {
      await page.goto('/articles/new')
      await page.getByLabel('Title').fill(title)
      await page.getByLabel('Content').fill('A draft sorted while its filter is being typed.')
      await page.getByRole('button', { name: 'Save draft' }).click()
      await expect(page).toHaveURL(/\/articles\/drafts/)
    }
    await page.goto('/articles/drafts')
    const table = page.getByRole('table', { name: 'Drafts' })
    await whenHydrated(sortControl(table, 'Title'), testInfo)
    let filters = await openFilters(page, 'Filter drafts')
    await filters.getByLabel('Title', { exact: true }).fill(mark)
    await sortControl(table, 'Title').click()
    await expect(page).toHaveURL(/sortField=title&sortOrder=1/)
    await expect.poll(() => columnOf(page, 'Drafts', 3)).toEqual([`${mark} apple notes`, `${mark} zebra notes`])
    filters = await openFilters(page, 'Filter drafts')
    await expect(filters.getByLabel('Title', { exact: true })).toHaveValue(mark)

    // Typed again and sorted again (now descending): the new value goes with it.
    await filters.getByLabel('Title', { exact: true }).fill(`${mark} zebra`)
    await sortControl(table, 'Title').click()
    await expect(page).toHaveURL(/sortField=title&sortOrder=-1/)
    await expect.poll(() => columnOf(page, 'Drafts', 3)).toEqual([`${mark} zebra notes`])
    await expect((await openFilters(page, 'Filter drafts')).getByLabel('Title', { exact: true })).toHaveValue(`${mark} zebra`)
  })

  test('logs: a question filter and its match mode, chosen but not applied, go with the sort by Id', async ({ page }, testInfo) => {
    const mark = markFor(testInfo)
    const questions = [`Where is the ${mark} harbour?`, `Where is the ${mark} cafe?`]
    for (const question of questions) expect((await page.request.post('/ask', { form: { question }, maxRedirects: 0 })).status()).toBe(302)
    await page.goto('/logs')
    const table = page.getByRole('table', { name: 'Query logs' })
    await whenHydrated(sortControl(table, 'Id'), testInfo)
    const filters = await openFilters(page, 'Filter logs')
    await filters.getByRole('combobox', { name: 'Question match mode' }).selectOption({ label: 'Contains' })
    await filters.getByLabel('Question', { exact: true }).fill(mark)
    // Newest first until now: the header sorts by id, oldest first.
    await sortControl(table, 'Id').click()
    await expect(page).toHaveURL(/command_mode=contains/)
    await expect(page).toHaveURL(/sortField=id&sortOrder=1/)
    await expect.poll(() => columnOf(page, 'Query logs', 2)).toEqual(questions)
    const unfolded = await openFilters(page, 'Filter logs')
    await expect(unfolded.getByLabel('Question', { exact: true })).toHaveValue(mark)
    await expect(unfolded.getByRole('combobox', { name: 'Question match mode' })).toHaveValue('contains')
  })

  test('users: a username typed in the filters is applied by sorting on Username', async ({ page }, testInfo) => {
    const mark = markFor(testInfo)
    for (const name of ['gamma', 'alpha']) {
      const username = `${mark}.${name}`
      const response = await page.request.post('/register', {
        form: { username, email: `${username}@example.org`, firstName: 'Sort', lastName: name, cellphone: '', password: 'garden-path-42', password_again: 'garden-path-42', organization: '1' },
      })
      expect(response.ok(), `registering ${username}`).toBe(true)
    }
    await page.goto('/users')
    const table = page.getByRole('table', { name: 'Users' })
    await whenHydrated(sortControl(table, 'Username'), testInfo)
    const filters = await openFilters(page, 'Search and filter users')
    await filters.getByLabel('Username', { exact: true }).fill(mark)
    await sortControl(table, 'Username').click()
    await expect(page).toHaveURL(/sortField=username&sortOrder=1/)
    await expect.poll(() => columnOf(page, 'Users', 1)).toEqual([`${mark}.alpha`, `${mark}.gamma`])
    await expect((await openFilters(page, 'Search and filter users')).getByLabel('Username', { exact: true })).toHaveValue(mark)
  })
})
