import { SHIPPED_FONT_LIST } from './shipped-fonts.mjs'

/** A font family the product serves itself: copied from its npm package into public/fonts/ by the build. */
export interface ShippedFont {
  key: string
  package: string
  family: string
}

export const SHIPPED_FONTS: readonly ShippedFont[] = SHIPPED_FONT_LIST

/** The shipped families a CSS font-family list names, in the order it names them. */
export function shippedFontsIn(...stacks: string[]): ShippedFont[] {
  const families = stacks.flatMap((stack) => stack.split(',').map((family) => family.trim().replace(/^["']|["']$/g, '')))
  const named = new Set(families)
  return SHIPPED_FONTS.filter((font) => named.has(font.family)).sort(
    (a, b) => families.indexOf(a.family) - families.indexOf(b.family),
  )
}

/** The stylesheets that load a theme's shipped fonts (public/fonts/<key>.css). */
export function fontStylesheetsFor(font: { body: string; heading: string }): string[] {
  return shippedFontsIn(font.body, font.heading).map((shipped) => `/fonts/${shipped.key}.css`)
}
