import { expect, test } from '@playwright/test'
import { parseHexColour } from '../../app/sponsors/contrast'
import { PRODUCT_LOGO, SPONSOR_THEMES, resolveSponsorTheme } from '../../app/sponsors/registry'
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
    })

    test('shows its logo and title in the header, and the product logo unless it hides it', async ({ page }) => {
      await page.goto('/ask')
      const header = page.getByRole('banner')
      const home = header.getByRole('link', { name: new RegExp(theme.head.title) })
      await expect(home).toHaveAttribute('href', '/ask')
      await expect(home.locator('img')).toHaveAttribute('src', theme.header.logo)
      await expect(home.locator('img')).toHaveJSProperty('complete', true)
      expect(await home.locator('img').evaluate((image: HTMLImageElement) => image.naturalWidth)).toBeGreaterThan(0)
      await expect(header.locator(`img[src="${PRODUCT_LOGO}"]`)).toHaveCount(theme.showProductLogo ? 1 : 0)
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
      await expect(page.getByRole('heading', { level: 1, name: 'Something went wrong.' })).toBeVisible()
      await expect(page.getByRole('banner').getByRole('link', { name: new RegExp(theme.head.title) })).toBeVisible()
    })

    test('loads its font stylesheet before the shared stylesheet, or none', async ({ page, request }) => {
      await page.goto('/ask')
      const stylesheets = await page.locator('head link[rel="stylesheet"]').evaluateAll((links) => links.map((link) => link.getAttribute('href')))
      if (theme.font.stylesheet) {
        expect(stylesheets[0]).toBe(theme.font.stylesheet)
        const response = await request.get(theme.font.stylesheet)
        expect(response.ok()).toBe(true)
        expect(response.headers()['content-type']).toContain('text/css')
      } else {
        expect(stylesheets.filter((href) => href?.startsWith('/sponsors/'))).toEqual([])
      }
      expect(stylesheets.every((href) => href?.startsWith('/'))).toBe(true)
    })

    test('shows keyboard focus in colours that stand out on the header and on the page', async ({ page }) => {
      await page.goto('/ask')
      await page.locator('body').press('Tab')
      // The first stop is the header's home link (the toast region is empty).
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
