/**
 * The way back from a page opened from a table (a user, a log) to the table as it was left: its filters, sort and
 * pages, carried in the page's `?back=`.
 */

/** Where paths are resolved to be checked: an address of no real site, which a path must keep. */
const CHECK_ORIGIN = 'http://list.invalid'

/** The address of `href` (a row's page) that comes back to the list being shown at `location` (the plain list needs no `back`). */
export function withListBack(href: string, location: { pathname: string; search: string }): string {
  if (!location.search || location.search === '?') return href
  return `${href}?${new URLSearchParams({ back: `${location.pathname}${location.search}` })}`
}

/**
 * The list to go back to, from the `back` of the page's address: only the list `list` itself (a path such as '/logs')
 * with its query, never another page or another site. The plain list for anything else.
 */
export function listBack(url: string | URL, list: string): string {
  const back = new URL(url).searchParams.get('back')
  if (!back || back.length > 4000 || !back.startsWith('/') || back.startsWith('//') || back.includes('\\')) return list
  let parsed: URL
  try {
    parsed = new URL(back, CHECK_ORIGIN)
  } catch {
    return list
  }
  if (parsed.origin !== CHECK_ORIGIN || parsed.pathname !== list) return list
  if (parsed.searchParams.has('_data')) parsed.searchParams.delete('_data')
  return `${parsed.pathname}${parsed.search}`
}
