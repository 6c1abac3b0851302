import { sponsorThemeClass } from '~/styles/sponsors.css'
import { getEnv } from '~/utils/env.server'
import { fontStylesheetsFor } from './fonts'
import { DEFAULT_SPONSOR_KEY, isSponsorKey, resolveSponsorTheme } from './registry'
import type { SponsorView } from './types'

let chosen: SponsorView | undefined

/** The sponsor theme chosen by SPONSOR_THEME when the server started; an unknown key gives the default theme. */
export function getSponsorView(): SponsorView {
  if (chosen) return chosen
  const configured = getEnv().SPONSOR_THEME
  if (!isSponsorKey(configured)) {
    console.warn(`SPONSOR_THEME "${configured}" names no sponsor theme; using "${DEFAULT_SPONSOR_KEY}"`)
  }
  const theme = resolveSponsorTheme(configured)
  chosen = {
    key: theme.key,
    className: sponsorThemeClass[theme.key] ?? sponsorThemeClass[DEFAULT_SPONSOR_KEY],
    name: theme.name,
    title: theme.head.title,
    metaDescription: theme.head.metaDescription,
    logo: theme.header.logo,
    showProductLogo: theme.showProductLogo,
    fontStylesheets: fontStylesheetsFor(theme.font),
  }
  return chosen
}
