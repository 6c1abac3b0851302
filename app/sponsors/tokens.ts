import { relativeLuminance } from './contrast'
import type { SponsorTheme } from './types'

/** Corner radii of themes that do not set their own. */
export const DEFAULT_RADIUS = { control: '6px', card: '10px' } as const

/** The values a theme gives the `vars` contract of app/styles/theme.css.ts. */
export function themeTokens(theme: SponsorTheme) {
  return {
    color: { ...theme.colours },
    font: { body: theme.font.body, heading: theme.font.heading },
    radius: { ...(theme.radius ?? DEFAULT_RADIUS) },
    // A theme whose page is darker than its text is a dark theme.
    colorScheme: relativeLuminance(theme.colours.background) < relativeLuminance(theme.colours.text) ? 'dark' : 'light',
  }
}
