import { expect, test } from '@playwright/test'
import { attemptMark } from './support/backend'

test.describe('Articles and drafts', () => {
  test('an article added as a draft and published is used in answers', async ({ page }, testInfo) => {
    // Words of its own per project and try, so the js and no-js runs never answer from each other's article, and a retry
    // finds one row of its own.
    const word = `${testInfo.project.name === 'js' ? 'zephyrine' : 'quillowick'}${attemptMark(testInfo)}`
    const title = `Caring for the ${word} fern`
    await page.goto('/articles/new')
    await page.getByLabel('Title').fill(title)
    await page.getByLabel('Content').fill(`The ${word} fern needs misting every morning. It grows best in indirect light near a north window.`)
    await page.getByRole('button', { name: 'Save draft' }).click()

    await expect(page).toHaveURL(/\/articles\/drafts/)
    await expect(page.getByRole('status').filter({ hasText: 'Draft saved' })).toBeVisible()
    const row = page.getByRole('row').filter({ hasText: title })
    await row.getByRole('button', { name: 'Publish' }).click()

    await expect(page.getByText(/Published 1 of 1 drafts/)).toBeVisible({ timeout: 30_000 })
    await expect(page.getByRole('list', { name: 'Published articles' }).getByRole('link', { name: title })).toBeVisible()

    await page.goto('/articles?sortField=id&sortOrder=-1')
    await expect(page.getByRole('table', { name: 'Published articles' })).toContainText(title)

    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Ask' }).click()
    await page.getByRole('textbox', { name: 'Question', exact: true }).fill(`How often does the ${word} fern need misting?`)
    await page.getByRole('button', { name: 'Ask', exact: true }).click()
    const answer = page.getByRole('region', { name: 'Answer' })
    await expect(answer).toContainText(`The ${word} fern needs misting every morning.`)
    await expect(answer.getByRole('list', { name: 'Sources' }).getByRole('link', { name: title })).toBeVisible()
  })

  test('refuses a draft without content, with the reason beside the field', async ({ page }) => {
    await page.goto('/articles/new')
    await page.getByLabel('Title').fill('Only a title')
    await page.getByLabel('Content').fill('   ')
    await page.getByRole('button', { name: 'Save draft' }).click()
    await expect(page.getByText('Please enter the content')).toBeVisible()
    await expect(page).toHaveURL(/\/articles\/new$/)
    // Refused, nothing typed is lost.
    await expect(page.getByLabel('Title')).toHaveValue('Only a title')
  })

  test('refuses an article too long to save with the reason beside its content, keeping what was typed', async ({ page }) => {
    await page.goto('/articles/new')
    await page.getByLabel('Title').fill('A very long field diary')
    // Over the backend's 2 MB request limit: made in the page, so the test does not ship megabytes through the driver.
    const length = await page.locator('#article-content').evaluate((field: HTMLTextAreaElement) => {
      field.value = 'The rain gauge read four millimetres this morning. '.repeat(45_000)
      return field.value.length
    })
    await page.locator('#article button', { hasText: 'Save draft' }).click()
    await expect(page.locator('#article-content-error')).toHaveText(
      'This text is too long to save as one article (at most 2 MB at a time). Split it into several articles.',
      { timeout: 30_000 },
    )
    await expect(page).toHaveURL(/\/articles\/new$/)
    // Refused, nothing typed is lost.
    await expect(page.locator('#article-title')).toHaveValue('A very long field diary')
    expect(await page.locator('#article-content').evaluate((field: HTMLTextAreaElement) => field.value.length)).toBe(length)
  })

  test('deleting by a title no article has says so beside the field and keeps the title', async ({ page }, testInfo) => {
    const title = `No article is called this ${testInfo.project.name} ${Date.now().toString(36)}`
    await page.goto('/articles')
    await page.getByLabel('Title to delete').fill(title)
    await page.getByLabel('Yes, delete every article with this title').check()
    await page.getByRole('button', { name: 'Delete by title' }).click()
    await expect(page.getByLabel('Title to delete')).toHaveAttribute('aria-invalid', 'true')
    await expect(page.getByLabel('Title to delete')).toHaveValue(title)
  })

  test('sorts and pages the articles table through the URL', async ({ page }) => {
    await page.goto('/articles')
    const table = page.getByRole('table', { name: 'Published articles' })
    // Page size 30 (SEED.md §9): the header row plus at most 30 articles.
    const rowCount = await table.getByRole('row').count()
    expect(rowCount).toBeGreaterThan(20)
    expect(rowCount).toBeLessThanOrEqual(31)
    await table.getByRole('button', { name: 'Title' }).click()
    await expect(page).toHaveURL(/sortField=title/)
    await expect(page).toHaveURL(/sortOrder=1/)
    await expect(table.getByRole('columnheader', { name: /Title/ })).toHaveAttribute('aria-sort', 'ascending')
    await table.getByRole('button', { name: /Title/ }).click()
    await expect(page).toHaveURL(/sortOrder=-1/)
  })
})
