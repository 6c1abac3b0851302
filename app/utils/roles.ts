/** The roles of PRODUCT.md, lowest first. */
export type Role = 'user' | 'editor' | 'admin'

/**
 * Who may open what, by address: a whole section by its first segment, or one address exactly (downloads). The
 * dashboard offers only what the role opens; the web server refuses the rest before any loader or action asks the
 * backend (requireApiSession), and the backend refuses it anyway.
 */
export const ROLES_BY_PATH: Readonly<Record<string, readonly Role[]>> = {
  '/articles': ['admin', 'editor'],
  '/logs': ['admin', 'editor'],
  '/settings': ['admin'],
  '/users': ['admin'],
  '/organisations': ['admin'],
  '/api-keys': ['admin'],
  '/resources/query-logs.csv': ['admin', 'editor'],
  '/resources/query-logs-dataset.csv': ['admin', 'editor'],
}

/** The roles that may open an address (a path), or null when every signed-in role may. */
export function rolesFor(pathname: string): readonly Role[] | null {
  const path = routedPath(pathname)
  return ROLES_BY_PATH[path] ?? ROLES_BY_PATH[`/${path.split('/')[1] ?? ''}`] ?? null
}

/**
 * An address as the router matches it to a screen: the router ignores case ("/USERS" opens /users), decodes each
 * segment ("/%75sers") and reads repeated slashes as one ("//users"), so the check reads it the same way; any other
 * spelling of an admin screen would open it past the check.
 */
function routedPath(pathname: string): string {
  const segments = pathname.split('/').filter(Boolean).map((segment) => {
    try {
      return decodeURIComponent(segment)
    } catch {
      return segment
    }
  })
  return `/${segments.join('/').toLowerCase()}`.replace(/\/+$/, '') || '/'
}

export function mayOpen(role: Role, pathname: string): boolean {
  return rolesFor(pathname)?.includes(role) ?? true
}

/** The reason given with a 403 for an address the role does not open; the page that shows it says what to do. */
export function refusedRoleMessage(role: Role): string {
  return `Your role (${role}) does not open this page.`
}
