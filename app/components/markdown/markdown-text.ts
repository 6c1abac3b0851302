// The entities people actually type; any other named one stays as written (React shows it as text, harmlessly).
const NAMED_ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00A0',
  copy: '©',
  reg: '®',
  trade: '™',
  hellip: '…',
  mdash: '—',
  ndash: '–',
  lsquo: '‘',
  rsquo: '’',
  ldquo: '“',
  rdquo: '”',
  laquo: '«',
  raquo: '»',
  euro: '€',
  pound: '£',
  times: '×',
  deg: '°',
  middot: '·',
  bull: '•',
}

/** Marked leaves character references as written (an HTML renderer passes them on); React needs the characters. */
export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text
  return text.replace(/&(#x[\da-f]{1,6}|#\d{1,7}|[a-z][a-z\d]{1,31});/gi, (entity, body: string) => {
    if (body[0] === '#') {
      const codePoint = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10)
      // NUL and surrogates are not characters; CommonMark shows U+FFFD for them.
      if (codePoint === 0 || (codePoint >= 0xd800 && codePoint <= 0xdfff) || codePoint > 0x10ffff) return '\uFFFD'
      return String.fromCodePoint(codePoint)
    }
    return NAMED_ENTITIES[body] ?? NAMED_ENTITIES[body.toLowerCase()] ?? entity
  })
}

const SAFE_PROTOCOLS = new Set(['http:', 'https:', 'mailto:', 'tel:'])
const RELATIVE_BASE = 'https://relative.invalid/'

/**
 * The address of a link in content when it is safe to follow: web, mail and phone addresses and addresses relative
 * to the product. A javascript:, data: or file: address (however it is spelt: the browser's own URL parser decides)
 * gives null, and the link is shown as its text.
 */
export function safeHref(href: string | null | undefined): string | null {
  if (!href) return null
  let url: URL
  try {
    url = new URL(href, RELATIVE_BASE)
  } catch {
    return null
  }
  if (!SAFE_PROTOCOLS.has(url.protocol)) return null
  // Control characters and spaces that a browser would strip before reading the scheme are not left in the attribute.
  return href.replace(/[\u0000-\u001F\u007F]/g, '').trim() || null
}
