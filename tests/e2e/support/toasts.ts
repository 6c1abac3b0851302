import { expect, type Page } from '@playwright/test'

// A toast lives 2 s with scripts on (SEED.md). On a busy machine a check can come after it has gone, though the user
// saw it: `watchToasts` has each page of a test note every text its status region shows, and `expectToast` looks in
// that note, taking the text it finds so that a later toast with the same words must come again, or at the page itself:
// without scripts the page takes no notes, but there the toast stays on the page.

declare global {
  interface Window {
    __toastsSeen?: string[]
  }
}

/** Before the test's first navigation: every page of the test notes what its status regions show. */
export async function watchToasts(page: Page) {
  await page.addInitScript(() => {
    const seen: string[] = (window.__toastsSeen = [])
    // What each region showed last: the same words shown again after a change (the toast gone, or another) count again.
    const shown = new WeakMap<Element, string>()
    const note = () => {
      for (const region of document.querySelectorAll('[role="status"]')) {
        const text = (region.textContent ?? '').replace(/\s+/g, ' ').trim()
        if (shown.get(region) === text) continue
        shown.set(region, text)
        if (text !== '') seen.push(text)
      }
    }
    new MutationObserver(note).observe(document, { subtree: true, childList: true, characterData: true })
  })
}

/** That a toast with these words was shown on the page since the last toast this found. */
export async function expectToast(page: Page, text: string | RegExp, timeout = 15_000) {
  const pattern = typeof text === 'string' ? { source: text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), flags: '' } : { source: text.source, flags: text.flags }
  await expect
    .poll(
      async () => {
        const taken = await page
          .evaluate(({ source, flags }) => {
            const seen = window.__toastsSeen
            if (seen === undefined) return null
            const index = seen.findIndex((shown) => new RegExp(source, flags).test(shown))
            if (index < 0) return false
            seen.splice(0, index + 1)
            return true
          }, pattern)
          .catch(() => null)
        // Without scripts the note may stay empty (no observer runs); the toast is then still on the page.
        return taken === true || (await page.getByRole('status').filter({ hasText: text }).isVisible())
      },
      { message: `a toast saying ${String(text)}`, timeout },
    )
    .toBe(true)
}
