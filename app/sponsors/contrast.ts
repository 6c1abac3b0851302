/** WCAG 2 contrast of two colours given as #rgb or #rrggbb (1 to 21). */
export function contrastRatio(first: string, second: string): number {
  const [lighter, darker] = [relativeLuminance(first), relativeLuminance(second)].sort((a, b) => b - a)
  return (lighter + 0.05) / (darker + 0.05)
}

/** WCAG 2 relative luminance of a #rgb or #rrggbb colour. */
export function relativeLuminance(colour: string): number {
  const [red, green, blue] = parseHexColour(colour).map((channel) => {
    const value = channel / 255
    return value <= 0.04045 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4
  })
  return 0.2126 * red + 0.7152 * green + 0.0722 * blue
}

/** The red, green and blue channels (0 to 255) of a #rgb or #rrggbb colour. */
export function parseHexColour(colour: string): [number, number, number] {
  const match = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(colour.trim())
  if (!match) throw new Error(`Not a #rgb or #rrggbb colour: ${colour}`)
  const hex = match[1].length === 3 ? [...match[1]].map((digit) => digit + digit).join('') : match[1]
  return [0, 2, 4].map((start) => Number.parseInt(hex.slice(start, start + 2), 16)) as [number, number, number]
}

/** CIELAB of an sRGB hex colour (D65 white). */
export function labOf(colour: string): [number, number, number] {
  const [r, g, b] = parseHexColour(colour).map((channel) => {
    const value = channel / 255
    return value <= 0.04045 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4
  })
  const x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
  const y = 0.2126 * r + 0.7152 * g + 0.0722 * b
  const z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883
  const f = (t: number) => (t > 216 / 24389 ? Math.cbrt(t) : (24389 / 27 * t + 16) / 116)
  return [116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))]
}

/** How far apart two colours look (CIE76 ΔE): about 2.3 is just noticeable; 25 and more reads as another colour. */
export function colourDifference(first: string, second: string): number {
  const [l1, a1, b1] = labOf(first)
  const [l2, a2, b2] = labOf(second)
  return Math.hypot(l1 - l2, a1 - a2, b1 - b2)
}
