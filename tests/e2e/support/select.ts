import type { Page } from '@playwright/test'

/** Picks an option of a labelled select: the native <select> without scripts, the react-aria listbox with them. */
export async function choose(page: Page, label: string, option: string, isJs: boolean) {
  if (isJs) {
    await page.getByRole('button', { name: label }).click()
    await page.getByRole('listbox', { name: label }).getByRole('option', { name: option, exact: true }).click()
  } else {
    await page.getByLabel(label, { exact: true }).selectOption({ label: option })
  }
}
