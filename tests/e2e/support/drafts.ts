import { expect, type Page } from '@playwright/test'

/**
 * Ticks the drafts with these titles on Drafts, publishes them with "Publish selected" and waits for this publish to
 * finish; answers the published articles' ids.
 *
 * Another publish may be underway (another spec's, or the other project's: they share the backend). Drafts then shows
 * that one's progress at its own address (?task=) with the publish buttons disabled, and without scripts reloads each
 * second, which clears the boxes ticked. So the boxes are ticked once "Publish selected" can be used, as a person
 * waits for it, and this publish's progress is told from that one by its task in the address.
 */
export async function publishSelected(page: Page, titles: string[], timeout = 30_000): Promise<number[]> {
  await page.goto('/articles/drafts')
  const form = page.getByRole('form', { name: 'Publish drafts' })
  const publish = form.getByRole('button', { name: 'Publish selected', exact: true })
  await expect(publish).toBeEnabled({ timeout })
  let ticked = 0
  for (const title of new Set(titles)) {
    for (const box of await form.getByRole('checkbox', { name: `Select ${title}`, exact: true }).all()) {
      await box.check()
      ticked++
    }
  }
  expect(ticked, `drafts titled ${titles.join(', ')} on Drafts`).toBeGreaterThan(0)
  const shownTask = (url: URL) => url.searchParams.get('task')
  const before = shownTask(new URL(page.url()))
  await publish.click()
  // Its own progress: a task in the address, and not the one shown before the click.
  await expect(page).toHaveURL((url) => shownTask(url) !== null && shownTask(url) !== before)
  await expect(page.getByRole('status').filter({ hasText: `Published ${ticked} of ${ticked} drafts` })).toBeVisible({ timeout })
  // Without scripts the finished progress comes with a reload, its status before its list: read the list once whole.
  const published = page.getByRole('list', { name: 'Published articles' })
  await expect(published.getByRole('listitem')).toHaveCount(ticked)
  const ids: number[] = []
  for (const title of new Set(titles)) {
    for (const link of await published.getByRole('link', { name: title, exact: true }).all()) ids.push(Number((await link.getAttribute('href'))!.split('/').pop()))
  }
  return ids
}
