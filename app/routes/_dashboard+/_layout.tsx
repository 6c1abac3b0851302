import { json, type LoaderFunctionArgs } from '@remix-run/node'
import { Link, Outlet, useLoaderData, useRouteLoaderData } from '@remix-run/react'
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
import { mayOpen, refusedRoleMessage } from '~/utils/roles'

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
  if (!user) throw redirectToSignIn(request, setCookie)
  // An address typed or bookmarked past what the role offers gets a plain refusal. The screen's own loader refuses
  // too (requireApiSession), before it asks the backend: Remix runs it beside this one.
  if (!mayOpen(user.role, new URL(request.url).pathname)) {
    throw json({ message: refusedRoleMessage(user.role) }, { status: 403, statusText: 'Forbidden' })
  }
  return json({ user, canSignOut: getEnv().AUTH_ENABLED }, setCookie ? { headers: { 'Set-Cookie': setCookie } } : undefined)
}

// Without this, client-side navigation would never rerun the loader, and the session would not be renewed in time.
export const shouldRevalidate = () => true

export default function DashboardLayout() {
  const { user, canSignOut } = useLoaderData<typeof loader>()
  const isOffered = (to: string) => mayOpen(user.role, to)
  return (
    <>
      <SkipLink />
      <SponsorHeader />
      <DashboardNav
        tabs={DASHBOARD_TABS.filter((tab) => isOffered(tab.to))}
        links={DASHBOARD_LINKS.filter((link) => isOffered(link.to))}
        signedInAs={canSignOut ? user.username : undefined}
      />
      <main id="main" tabIndex={-1} className={layout.main}>
        <Outlet />
      </main>
    </>
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

export function ErrorBoundary() {
  return (
    <>
      <SponsorHeader />
      <main className={layout.main}>
        <GeneralErrorBoundary headingLevel={1} />
      </main>
    </>
  )
}
