import { Link, Outlet, useRouteLoaderData } from '@remix-run/react'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import type { loader as rootLoader } from '~/root'
import { PRODUCT_NAME } from '~/sponsors/product'
import * as layout from '~/styles/layout.css'
import * as brand from '~/styles/sponsors.css'

/** Sign-in pages: the sponsor's header without the dashboard's tabs. */
export default function AuthLayout() {
  return (
    <>
      <SponsorTitle />
      <main className={layout.main}>
        <Outlet />
      </main>
    </>
  )
}

function SponsorTitle() {
  const sponsor = useRouteLoaderData<typeof rootLoader>('root')?.sponsor
  const title = sponsor?.title ?? PRODUCT_NAME
  return (
    <header className={layout.header}>
      <Link to="/login" className={brand.brandLink}>
        <img src={sponsor?.logo ?? '/sponsors/default.svg'} alt="" className={brand.sponsorLogo} width={40} height={40} />
        <span>{title}</span>
      </Link>
    </header>
  )
}

export function ErrorBoundary() {
  return (
    <main className={layout.main}>
      <GeneralErrorBoundary />
    </main>
  )
}
