import { createTheme, style } from '@vanilla-extract/css'
import { SPONSOR_THEMES } from '../sponsors/registry'
import { themeTokens } from '../sponsors/tokens'
import { vars } from './theme.css'

/**
 * One theme class per sponsor, made from the registry's data (key → class name). The root route puts the chosen one
 * on <html>; a new registry entry gets its class here without any change to this file or to components.
 */
export const sponsorThemeClass: Record<string, string> = Object.fromEntries(
  SPONSOR_THEMES.map((theme) => [theme.key, createTheme(vars, themeTokens(theme), `sponsor-${theme.key}`)]),
)

// The header's brand area: the sponsor's logo, the site title and (unless the theme hides it) the product's logo.
export const brandLink = style({
  display: 'inline-flex',
  alignItems: 'center',
  gap: '0.75rem',
  minWidth: 0,
  color: 'inherit',
  textDecoration: 'none',
  fontFamily: vars.font.heading,
  fontSize: '1.25rem',
  fontWeight: 700,
  lineHeight: 1.2,
  selectors: {
    // The focus ring is drawn on the brand colour here, so it takes the colour made to read on it.
    '&:focus-visible': { outlineColor: vars.color.brandContrast, borderRadius: vars.radius.control },
  },
})

export const sponsorLogo = style({ display: 'block', width: '2.5rem', height: '2.5rem', flex: 'none' })

export const productLogo = style({ display: 'block', width: '1.75rem', height: '1.75rem', marginInlineStart: 'auto', flex: 'none' })

// The inline product mark adapts to the header: a tile in the header's text colour, the letter in the brand colour.
export const productMarkTile = style({ fill: vars.color.brandContrast })
export const productMarkLetter = style({ fill: vars.color.brand })
