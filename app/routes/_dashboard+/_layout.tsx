import { json, type LoaderFunctionArgs } from '@remix-run/node'
import { isRouteErrorResponse, Link, Outlet, useLoaderData, useRouteError, useRouteLoaderData } from '@remix-run/react'
import { DashboardNav } from '~/components/dashboard-nav'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { SkipLink } from '~/components/skip-link'
import type { loader as rootLoader } from '~/root'
import { ProductMark } from '~/components/product-mark'
import { PRODUCT_NAME } from '~/sponsors/product'
import * as layout from '~/styles/layout.css'
import * as brand from '~/styles/sponsors.css'
import { redirectToSignIn, refreshSessionIfNeeded } from '~/utils/auth.server'
import { getEnv } from '~/utils/env.server'
import { mayOpen, refusedRoleMessage, type Role } from '~/utils/roles'

/** Dashboard tabs by index (SEED.md §2): ask 0, articles 1, logs 2, settings 3. The tab lives in the URL. */
export const DASHBOARD_TABS = [
  { index: 0, label: 'Ask', to: '/ask' },
  { index: 1, label: 'Articles', to: '/articles' },
  { index: 2, label: 'Logs', to: '/logs' },
  { index: 3, label: 'Settings', to: '/settings' },
] as const

/** Screens beside the four tabs. */
export const DASHBOARD_LINKS = [
  { label: 'Agent', to: '/agent' },
  { label: 'Saved queries', to: '/saved' },
  { label: 'Users', to: '/users' },
  { label: 'Organisations', to: '/organisations' },
  { label: 'API keys', to: '/api-keys' },
] as const

export async function loader({ request }: LoaderFunctionArgs) {
  // Renews the sign-in ahead of expiry (SEED.md: 60 s) and commits the renewed session.
  const { user, setCookie } = await refreshSessionIfNeeded(request)
  if (!user) throw await redirectToSignIn(request, setCookie)
  // An address typed or bookmarked past what the role offers gets a plain refusal. The screen's own loader refuses
  // too (requireApiSession), before it asks the backend: Remix runs it beside this one.
  const canSignOut = getEnv().AUTH_ENABLED
  if (!mayOpen(user.role, new URL(request.url).pathname)) {
    // The refusal carries what the navigation needs, so the 403 page still leads to the screens the role opens.
    const navigation: RefusedNavigation = { role: user.role, username: user.username, canSignOut }
    throw json({ message: refusedRoleMessage(user.role), navigation }, { status: 403, statusText: 'Forbidden' })
  }
  return json({ user, canSignOut }, setCookie ? { headers: { 'Set-Cookie': setCookie } } : undefined)
}

/** Who is signed in, as a refusal of this layout's loader tells its error boundary. */
interface RefusedNavigation {
  role: Role
  username: string
  canSignOut: boolean
}

// Without this, client-side navigation would never rerun the loader, and the session would not be renewed in time.
export const shouldRevalidate = () => true

export default function DashboardLayout() {
  const { user, canSignOut } = useLoaderData<typeof loader>()
  return (
    <>
      <SkipLink />
      <SponsorHeader />
      <RoleNav role={user.role} signedInAs={canSignOut ? user.username : undefined} />
      <main id="main" tabIndex={-1} className={layout.main}>
        <Outlet />
      </main>
    </>
  )
}

/** The dashboard's tabs and links that the role opens. */
function RoleNav({ role, signedInAs }: { role: Role; signedInAs?: string }) {
  const isOffered = (to: string) => mayOpen(role, to)
  return (
    <DashboardNav
      tabs={DASHBOARD_TABS.filter((tab) => isOffered(tab.to))}
      links={DASHBOARD_LINKS.filter((link) => isOffered(link.to))}
      signedInAs={signedInAs}
    />
  )
}

/** The header from the sponsor theme's data: its logo and title, and the product's logo unless the theme hides it. */
function SponsorHeader() {
  const sponsor = useRouteLoaderData<typeof rootLoader>('root')?.sponsor
  const title = sponsor?.title ?? PRODUCT_NAME
  // The logo names the sponsor; when the title already says the same, it would only be read twice.
  const logoAlt = sponsor && sponsor.name !== title ? sponsor.name : ''
  return (
    <header className={layout.header}>
      <Link to="/ask" className={brand.brandLink}>
        <img src={sponsor?.logo ?? '/sponsors/default.svg'} alt={logoAlt} className={brand.sponsorLogo} width={40} height={40} />
        <span>{title}</span>
      </Link>
      {sponsor?.showProductLogo !== false ? (
        <ProductMark />
      ) : null}
    </header>
  )
}

/**
 * A failure of the layout's loader (a refused address) or of a screen without a boundary of its own. The navigation
 * stays whenever it is known who is signed in: from this layout's data, or from the refusal that replaced it.
 */
export function ErrorBoundary() {
  const data = useRouteLoaderData<typeof loader>('routes/_dashboard+/_layout')
  const refused = refusedNavigationOf(useRouteError())
  const navigation = data ? { role: data.user.role, username: data.user.username, canSignOut: data.canSignOut } : refused
  return (
    <>
      {navigation ? <SkipLink /> : null}
      <SponsorHeader />
      {navigation ? <RoleNav role={navigation.role} signedInAs={navigation.canSignOut ? navigation.username : undefined} /> : null}
      <main id="main" tabIndex={-1} className={layout.main}>
        <GeneralErrorBoundary headingLevel={1} />
      </main>
    </>
  )
}

function refusedNavigationOf(error: unknown): RefusedNavigation | null {
  if (!isRouteErrorResponse(error) || error.status !== 403) return null
  const navigation = (error.data as { navigation?: Partial<RefusedNavigation> } | null)?.navigation
  if (!navigation || typeof navigation.username !== 'string' || !(['user', 'editor', 'admin'] as unknown[]).includes(navigation.role)) return null
  return { role: navigation.role as Role, username: navigation.username, canSignOut: navigation.canSignOut === true }
}
