import { bareUrl, createLocalAccount, dashboardNav, expect, signInLocally, test } from './support'

// Sign out posts a form, so it is a button: drawn as the bar's other items (the tabs' font and colour, no box), on a
// wide screen and on a phone, with scripts on and off.

test.describe('Sign out in the bar', () => {
  for (const width of [1366, 390]) {
    test(`is drawn as the bar's other items at ${width} px, not as a bare browser button`, async ({ page }) => {
      await page.setViewportSize({ width, height: 800 })
      const account = await createLocalAccount('user')
      await signInLocally(page, account, { from: '/login' })
      await expect(page).toHaveURL(bareUrl('/ask'))
      await page.waitForLoadState('load')
      const styles = await dashboardNav(page).evaluate((nav) => {
        const button = [...nav.querySelectorAll('button')].find((candidate) => candidate.textContent?.trim() === 'Sign out')!
        // A tab of the wide bar (on a phone it is folded away, but it is styled all the same).
        const tab = nav.querySelector(':scope > ul a[href="/agent"]')!
        const pick = (element: Element) => {
          const style = getComputedStyle(element)
          return { font: `${style.fontFamily} ${style.fontSize}`, color: style.color, background: style.backgroundColor, border: style.borderTopWidth }
        }
        const box = button.getBoundingClientRect()
        return { button: pick(button), tab: pick(tab), right: box.right, height: box.height }
      })
      expect(styles.button.font).toBe(styles.tab.font)
      expect(styles.button.color).toBe(styles.tab.color)
      expect(styles.button.background).toBe('rgba(0, 0, 0, 0)')
      expect(styles.button.border).toBe('0px')
      expect(styles.height).toBeGreaterThanOrEqual(24)
      expect(styles.right).toBeLessThanOrEqual(width)
      await dashboardNav(page).getByRole('button', { name: 'Sign out' }).click()
      await expect(page).toHaveURL(/\/login/)
    })
  }
})
