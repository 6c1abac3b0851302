/** Where paths are resolved to be checked: an address of no real site, which a path must keep. */
const CHECK_ORIGIN = 'http://local-path.invalid'

/**
 * A path of this site read as a URL (its pathname, query and fragment), without `_data`; null for anything that could
 * lead elsewhere (a full URL, `//host`, `/\host`, a backslash), is not a path, or is longer than `maxLength`.
 */
export function localPathUrl(path: string | null | undefined, maxLength: number): URL | null {
  if (!path || path.length > maxLength || !path.startsWith('/') || path.startsWith('//') || path.includes('\\')) return null
  let url: URL
  try {
    url = new URL(path, CHECK_ORIGIN)
  } catch {
    return null
  }
  if (url.origin !== CHECK_ORIGIN || url.pathname.startsWith('//')) return null
  url.searchParams.delete('_data')
  return url
}
