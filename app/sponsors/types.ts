/** The colours every sponsor theme sets; they fill the `vars.color` contract of app/styles/theme.css.ts. */
export interface SponsorColours {
  /** Header background, primary buttons, links, the current tab's underline. */
  brand: string
  /** Text and icons drawn on `brand` (header text, primary button labels, danger button labels). */
  brandContrast: string
  /** Page background. */
  background: string
  /** Cards, tables, inputs, toasts. */
  surface: string
  text: string
  /** Secondary text (hints, inactive tabs). */
  muted: string
  /** Outlines of inputs, cards and table rows. */
  border: string
  danger: string
  success: string
  /** The keyboard focus ring. */
  focus: string
}

export interface SponsorFont {
  /**
   * CSS font-family lists. The first family of each should be one the product ships (app/sponsors/shipped-fonts.mjs):
   * its stylesheet under /fonts/ then loads with the theme. Never an external URL.
   */
  body: string
  heading: string
}

/** One sponsor theme: data only. Adding an entry to the registry adds the theme; no component changes. */
export interface SponsorTheme {
  /** The SPONSOR_THEME value that selects it: lower-case words joined by hyphens. */
  key: string
  /** The sponsor's name, the logo's text alternative. */
  name: string
  head: {
    /** The page title (screens prefix it with their own name). */
    title: string
    metaDescription: string
  }
  header: {
    /** Path of the logo under public/, shown at the start of the header. */
    logo: string
  }
  /** Whether the header also shows the product's own logo. */
  showProductLogo: boolean
  font: SponsorFont
  colours: SponsorColours
  /** Corner radii; the default theme's when left out. */
  radius?: { control: string; card: string }
}

/** What the browser needs of the chosen theme (sent in the root loader's data). */
export interface SponsorView {
  key: string
  /** The vanilla-extract theme class for <html>. */
  className: string
  name: string
  title: string
  metaDescription: string
  logo: string
  showProductLogo: boolean
  /** The stylesheets of the shipped fonts the theme names, loaded before the app's own stylesheet. */
  fontStylesheets: string[]
}
