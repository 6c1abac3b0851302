import { cssBundleHref } from '@remix-run/css-bundle'
import { json, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Links, Meta, Outlet, Scripts, ScrollRestoration, useLoaderData, useRouteLoaderData } from '@remix-run/react'
import type { ReactNode } from 'react'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { ToastMessage } from '~/components/toast'
import { screenMeta } from '~/sponsors/meta'
import { getSponsorView } from '~/sponsors/sponsor.server'
import '~/styles/global.css'
// Every sponsor's theme class is in the CSS bundle; <html> carries the chosen one.
import '~/styles/sponsors.css'
import { getEnv } from '~/utils/env.server'
import { useNonce } from '~/utils/nonce'
import { takeToast } from '~/utils/session.server'

export const links: LinksFunction = () => [
  { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
  ...(cssBundleHref ? [{ rel: 'stylesheet', href: cssBundleHref }] : []),
]

export const meta: MetaFunction<typeof loader> = ({ matches }) => screenMeta(matches)

export async function loader({ request }: LoaderFunctionArgs) {
  const { toast, setCookie } = await takeToast(request)
  const env = getEnv()
  const sponsor = getSponsorView()
  return json({ toast, sponsor, theme: sponsor.key, target: env.TARGET }, setCookie ? { headers: { 'Set-Cookie': setCookie } } : undefined)
}

/**
 * Runs first, before Remix's own scripts: where the browser blocks storage (strict privacy settings, a frame on
 * another site) reading window.sessionStorage throws, and Remix's scroll restoration and route discovery would
 * fail with it. There each blocked storage is replaced with one kept in memory for this page.
 */
const STORAGE_GUARD = `(() => {
  for (const name of ['sessionStorage', 'localStorage']) {
    try {
      const storage = window[name]
      storage.setItem('storage-check', '1')
      storage.removeItem('storage-check')
    } catch {
      const items = new Map()
      const memory = {
        get length() { return items.size },
        key: (index) => [...items.keys()][index] ?? null,
        getItem: (key) => (items.has(String(key)) ? items.get(String(key)) : null),
        setItem: (key, value) => { items.set(String(key), String(value)) },
        removeItem: (key) => { items.delete(String(key)) },
        clear: () => { items.clear() },
      }
      try {
        Object.defineProperty(window, name, { value: memory, configurable: true, writable: true })
      } catch {}
    }
  }
})()`

export function Layout({ children }: { children: ReactNode }) {
  const data = useRouteLoaderData<typeof loader>('root')
  const nonce = useNonce()
  const sponsor = data?.sponsor
  return (
    // Without the root's data (it failed) the :root defaults of theme.css.ts still style the page.
    <html lang="en" className={sponsor?.className} data-theme={sponsor?.key ?? 'default'}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: STORAGE_GUARD }} />
        <Meta />
        {/* Here rather than in meta(): a screen's own meta replaces the root's, and every page keeps its description. */}
        {sponsor ? <meta name="description" content={sponsor.metaDescription} /> : null}
        {/* SEED.md §4: the sponsor's font stylesheets load before the shared stylesheet. */}
        {sponsor?.fontStylesheets.map((href) => <link key={href} rel="stylesheet" href={href} />)}
        <Links />
      </head>
      <body>
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  )
}

export default function App() {
  const { toast } = useLoaderData<typeof loader>()
  return (
    <>
      <ToastMessage toast={toast} />
      <Outlet />
    </>
  )
}

export function ErrorBoundary() {
  return (
    <main style={{ padding: '1.5rem' }}>
      <GeneralErrorBoundary headingLevel={1} />
    </main>
  )
}
