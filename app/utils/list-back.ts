/**
 * The way back from a page opened from a table (a user, a log) to the table as it was left: its filters, sort and
 * pages, carried in the page's `?back=`.
 */

import { localPathUrl } from './local-path'

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
  const parsed = localPathUrl(new URL(url).searchParams.get('back'), 4000)
  if (!parsed || parsed.pathname !== list) return list
  return `${parsed.pathname}${parsed.search}`
}
