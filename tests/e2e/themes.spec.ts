import { expect, test } from '@playwright/test'
import { parseHexColour } from '../../app/sponsors/contrast'
import { PRODUCT_LOGO, SPONSOR_THEMES, resolveSponsorTheme } from '../../app/sponsors/registry'
import { fontStylesheetsFor, shippedFontsIn } from '../../app/sponsors/fonts'
import { themeTokens } from '../../app/sponsors/tokens'
import { themeServers } from './support/screens'

const rgb = (hex: string) => `rgb(${parseHexColour(hex).join(', ')})`

for (const server of themeServers()) {
  const theme = resolveSponsorTheme(server.key)

  test.describe(`Sponsor theme ${server.key}`, () => {
    test.use({ baseURL: server.baseURL })

    test('puts its theme class on the page and its colours on the header and the page', async ({ page }) => {
      await page.goto('/ask')
      const html = page.locator('html')
      await expect(html).toHaveAttribute('data-theme', theme.key)
      await expect(html).toHaveAttribute('class', /\S/)
      await expect(page.locator('body')).toHaveCSS('background-color', rgb(theme.colours.background))
      await expect(page.locator('body')).toHaveCSS('color', rgb(theme.colours.text))
      const header = page.getByRole('banner')
      await expect(header).toHaveCSS('background-color', rgb(theme.colours.brand))
      await expect(header).toHaveCSS('color', rgb(theme.colours.brandContrast))
      // Native controls follow the theme: a dark theme asks the browser for dark scroll bars, lists and pickers.
      await expect(html).toHaveCSS('color-scheme', themeTokens(theme).colorScheme)
    })

    test('shows its logo and title in the header, and the product logo unless it hides it', async ({ page }) => {
      await page.goto('/ask')
      const header = page.getByRole('banner')
      const home = header.getByRole('link', { name: new RegExp(theme.head.title) })
      await expect(home).toHaveAttribute('href', '/ask')
      await expect(home.locator('img')).toHaveAttribute('src', theme.header.logo)
      await expect(home.locator('img')).toHaveJSProperty('complete', true)
      expect(await home.locator('img').evaluate((image: HTMLImageElement) => image.naturalWidth)).toBeGreaterThan(0)
      const mark = header.getByTestId('product-logo')
      await expect(mark).toHaveCount(theme.showProductLogo ? 1 : 0)
      if (theme.showProductLogo) {
        // The mark adapts to the header: its tile in the header's text colour, its letter in the header's colour.
        await expect(mark).toHaveAccessibleName(/\S/)
        await expect(mark.locator('rect')).toHaveCSS('fill', rgb(theme.colours.brandContrast))
        await expect(mark.locator('path')).toHaveCSS('fill', rgb(theme.colours.brand))
      }
    })

    test('gives every page its meta description and titles pages under its own title', async ({ page }) => {
      await page.goto('/ask')
      await expect(page).toHaveTitle(`Ask · ${theme.head.title}`)
      await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', theme.head.metaDescription)
      await page.goto('/articles')
      await expect(page).toHaveTitle(`Articles · ${theme.head.title}`)
      await page.goto('/register')
      await expect(page).toHaveTitle(`Register · ${theme.head.title}`)
      await expect(page.getByRole('banner').getByRole('link', { name: new RegExp(theme.head.title) })).toBeVisible()
      const response = await page.goto('/no-such-page-in-any-theme')
      expect(response?.status()).toBe(404)
      await expect(page).toHaveTitle(`Page not found · ${theme.head.title}`)
      await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', theme.head.metaDescription)
      await expect(page.locator('html')).toHaveAttribute('data-theme', theme.key)
      await expect(page.getByRole('heading', { level: 1, name: 'Not found' })).toBeVisible()
      await expect(page.getByRole('banner').getByRole('link', { name: new RegExp(theme.head.title) })).toBeVisible()
    })

    test('loads its own fonts from the product, before the shared stylesheet, and renders with them', async ({ page, request }) => {
      await page.goto('/ask')
      const stylesheets = await page.locator('head link[rel="stylesheet"]').evaluateAll((links) => links.map((link) => link.getAttribute('href')))
      const expected = fontStylesheetsFor(theme.font)
      expect(stylesheets.slice(0, expected.length)).toEqual(expected)
      expect(stylesheets.every((href) => href?.startsWith('/'))).toBe(true)
      for (const href of expected) {
        const response = await request.get(href)
        expect(response.ok()).toBe(true)
        expect(response.headers()['content-type']).toContain('text/css')
        const file = (await response.text()).match(/url\((\/fonts\/[^)]+\.woff2)\)/)?.[1]
        expect(file, href).toBeTruthy()
        const font = await request.get(file!)
        expect(font.ok()).toBe(true)
        expect(font.headers()['content-type']).toMatch(/font\/woff2|application\/octet-stream/)
      }
      // The browser really uses them: the page's families are loaded, whatever fonts this machine has installed.
      const loaded = await page.evaluate(async () => {
        await document.fonts.ready
        return [...document.fonts].filter((face) => face.status === 'loaded').map((face) => face.family.replace(/"/g, ''))
      })
      for (const shipped of shippedFontsIn(theme.font.body, theme.font.heading)) expect(loaded).toContain(shipped.family)
    })

    test('shows keyboard focus in colours that stand out on the header and on the page', async ({ page }) => {
      await page.goto('/ask')
      await page.locator('body').press('Tab')
      // The first stop is the skip link, the next the header's home link (the toast region is empty).
      await expect(page.getByRole('link', { name: 'Skip to main content' })).toBeFocused()
      await page.keyboard.press('Tab')
      const home = page.getByRole('banner').getByRole('link')
      await expect(home).toBeFocused()
      await expect(home).toHaveCSS('outline-style', 'solid')
      await expect(home).toHaveCSS('outline-color', rgb(theme.colours.brandContrast))
      const question = page.getByRole('textbox', { name: 'Question', exact: true })
      await question.focus()
      await expect(question).toHaveCSS('outline-color', rgb(theme.colours.focus))
    })
  })
}

test('serves every sponsor logo and the product logo as SVG', async ({ request }) => {
  for (const logo of new Set([...SPONSOR_THEMES.map((theme) => theme.header.logo), PRODUCT_LOGO])) {
    const response = await request.get(logo)
    expect(response.status(), logo).toBe(200)
    expect(response.headers()['content-type'], logo).toContain('image/svg+xml')
  }
})
