import { createGlobalTheme, createThemeContract } from '@vanilla-extract/css'
import { DEFAULT_SPONSOR_KEY, resolveSponsorTheme } from '../sponsors/registry'
import { themeTokens } from '../sponsors/tokens'

/**
 * What every sponsor theme defines; components only ever read these variables. The values come from the sponsor
 * registry (app/sponsors/registry.ts): app/styles/sponsors.css.ts makes one theme class per sponsor for <html>.
 */
export const vars = createThemeContract({
  color: {
    brand: null,
    brandContrast: null,
    background: null,
    surface: null,
    text: null,
    muted: null,
    border: null,
    danger: null,
    success: null,
    focus: null,
  },
  font: { body: null, heading: null },
  radius: { control: null, card: null },
  /** 'light' or 'dark': native controls (select lists, scroll bars, date pickers) follow the theme. */
  colorScheme: null,
})

/** Layer stacking of SEED.md §9 (z-index values). */
export const layers = { overlay: '1000', menu: '1000', modal: '1100', tooltip: '1100', toast: '1200' } as const

// The default theme on :root as well, so a page is styled even when the root loader failed and no theme class is set.
createGlobalTheme(':root', vars, themeTokens(resolveSponsorTheme(DEFAULT_SPONSOR_KEY)))
