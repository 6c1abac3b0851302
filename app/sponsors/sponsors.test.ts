import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { colourDifference, contrastRatio, relativeLuminance } from './contrast'
import { themeTokens } from './tokens'
import { SHIPPED_FONTS, fontStylesheetsFor } from './fonts'
import { DEFAULT_SPONSOR_KEY, PRODUCT_LOGO, SPONSOR_THEMES, isSponsorKey, resolveSponsorTheme } from './registry'
import type { SponsorColours } from './types'

const repoRoot = path.resolve(__dirname, '../..')
const publicDir = path.join(repoRoot, 'public')
const defaultTheme = SPONSOR_THEMES.find((theme) => theme.key === DEFAULT_SPONSOR_KEY)

/** Text pairs (WCAG 1.4.3, 4.5:1): foreground, background, where the app draws it. */
const TEXT_PAIRS: [keyof SponsorColours, keyof SponsorColours, string][] = [
  ['text', 'background', 'body text on the page'],
  ['text', 'surface', 'text in cards, tables and inputs'],
  ['brandContrast', 'brand', 'header text and primary button labels'],
  ['muted', 'background', 'hints on the page'],
  ['muted', 'surface', 'inactive tabs and hints in cards'],
  ['brand', 'background', 'links on the page'],
  ['brand', 'surface', 'links in cards and secondary button labels'],
  ['danger', 'surface', 'field errors'],
  ['danger', 'background', 'errors on the page'],
  ['brandContrast', 'danger', 'danger button labels'],
  ['success', 'surface', 'success text'],
]
/** Non-text pairs (WCAG 1.4.11, 3:1): the focus ring against what it is drawn on. */
const FOCUS_PAIRS: [keyof SponsorColours, keyof SponsorColours][] = [
  ['focus', 'background'],
  ['focus', 'surface'],
]

describe('sponsor themes', () => {
  it('has 27 keys, default among them, each unique and written in lower-case words joined by hyphens', () => {
    const keys = SPONSOR_THEMES.map((theme) => theme.key)
    expect(keys).toHaveLength(27)
    expect(new Set(keys).size).toBe(27)
    expect(keys).toContain('default')
    for (const key of keys) expect(key).toMatch(/^[a-z]+(-[a-z]+)*$/)
  })

  it('hides the product logo in exactly one theme, which shows the default logo instead', () => {
    const hiding = SPONSOR_THEMES.filter((theme) => !theme.showProductLogo)
    expect(hiding).toHaveLength(1)
    expect(hiding[0].key).not.toBe(DEFAULT_SPONSOR_KEY)
    expect(hiding[0].header.logo).toBe(defaultTheme?.header.logo)
  })

  it('gives every other theme a logo of its own', () => {
    const others = SPONSOR_THEMES.filter((theme) => theme.showProductLogo && theme.key !== DEFAULT_SPONSOR_KEY)
    const logos = others.map((theme) => theme.header.logo)
    expect(new Set(logos).size).toBe(others.length)
    expect(logos).not.toContain(defaultTheme?.header.logo)
  })

  it('has exactly two pairs of themes that share a title, and no other shared title', () => {
    const keysByTitle = new Map<string, string[]>()
    for (const theme of SPONSOR_THEMES) keysByTitle.set(theme.head.title, [...(keysByTitle.get(theme.head.title) ?? []), theme.key])
    const shared = [...keysByTitle.values()].filter((keys) => keys.length > 1)
    expect(shared).toHaveLength(2)
    for (const keys of shared) expect(keys).toHaveLength(2)
  })

  it('gives every theme a title, a meta description and a name', () => {
    for (const theme of SPONSOR_THEMES) {
      expect(theme.name.trim(), theme.key).not.toBe('')
      expect(theme.head.title.trim(), theme.key).not.toBe('')
      expect(theme.head.metaDescription.length, theme.key).toBeGreaterThan(30)
      expect(theme.head.metaDescription.length, theme.key).toBeLessThanOrEqual(160)
    }
  })

  it.each(SPONSOR_THEMES.map((theme) => [theme.key, theme] as const))('%s: text contrast is at least 4.5:1 (WCAG AA)', (_key, theme) => {
    for (const [foreground, background, where] of TEXT_PAIRS) {
      const ratio = contrastRatio(theme.colours[foreground], theme.colours[background])
      expect(ratio, `${foreground} on ${background} (${where}): ${ratio.toFixed(2)}`).toBeGreaterThanOrEqual(4.5)
    }
  })

  it.each(SPONSOR_THEMES.map((theme) => [theme.key, theme] as const))('%s: the focus ring stands out at least 3:1', (_key, theme) => {
    for (const [foreground, background] of FOCUS_PAIRS) {
      const ratio = contrastRatio(theme.colours[foreground], theme.colours[background])
      expect(ratio, `${foreground} on ${background}: ${ratio.toFixed(2)}`).toBeGreaterThanOrEqual(3)
    }
  })

  it('has every logo under public/ as a self-contained SVG', () => {
    for (const logo of [...SPONSOR_THEMES.map((theme) => theme.header.logo), PRODUCT_LOGO]) {
      const file = path.join(publicDir, logo)
      expect(existsSync(file), logo).toBe(true)
      const svg = readFileSync(file, 'utf8')
      expect(svg, logo).toMatch(/^<svg [^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/)
      expect(svg.replace('http://www.w3.org/2000/svg', ''), logo).not.toMatch(/https?:|<script|href=/i)
    }
  })

  it('never gives destructive actions the brand colour: danger and brand read as different colours (ΔE ≥ 30)', () => {
    for (const theme of SPONSOR_THEMES) {
      expect(colourDifference(theme.colours.brand, theme.colours.danger), theme.key).toBeGreaterThanOrEqual(30)
    }
  })

  it('tells native controls whether the theme is dark, from its page colours', () => {
    for (const theme of SPONSOR_THEMES) {
      const dark = relativeLuminance(theme.colours.background) < relativeLuminance(theme.colours.text)
      expect(themeTokens(theme).colorScheme, theme.key).toBe(dark ? 'dark' : 'light')
    }
  })

  it('ships every theme’s fonts: each stack starts with a family the product serves from /fonts/', () => {
    for (const theme of SPONSOR_THEMES) {
      for (const stack of [theme.font.body, theme.font.heading]) {
        const first = stack.split(',')[0].trim().replace(/^"|"$/g, '')
        expect(SHIPPED_FONTS.map((font) => font.family), `${theme.key}: ${first}`).toContain(first)
      }
      const stylesheets = fontStylesheetsFor(theme.font)
      expect(stylesheets.length, theme.key).toBeGreaterThan(0)
      for (const href of stylesheets) expect(href, theme.key).toMatch(/^\/fonts\/[a-z0-9-]+\.css$/)
    }
  })

  it('names each shipped font’s package and family as the package’s own stylesheet does', () => {
    for (const font of SHIPPED_FONTS) {
      const css = readFileSync(path.join(repoRoot, 'node_modules', font.package, 'wght.css'), 'utf8')
      expect(css, font.package).toContain(`font-family: '${font.family}'`)
    }
  })

  it('gives themes different typography: at least six shipped families are in use', () => {
    const used = new Set(SPONSOR_THEMES.flatMap((theme) => fontStylesheetsFor(theme.font)))
    expect(used.size).toBeGreaterThanOrEqual(6)
  })

  it('resolves an unknown, empty or missing key to the default theme', () => {
    expect(resolveSponsorTheme('no-such-sponsor').key).toBe('default')
    expect(resolveSponsorTheme('').key).toBe('default')
    expect(resolveSponsorTheme(undefined).key).toBe('default')
    expect(isSponsorKey('no-such-sponsor')).toBe(false)
  })

  it('resolves a known key, ignoring case and surrounding spaces', () => {
    expect(resolveSponsorTheme('public-health').key).toBe('public-health')
    expect(resolveSponsorTheme(' Regional-Rail ').key).toBe('regional-rail')
    expect(isSponsorKey('white-label')).toBe(true)
  })
})
