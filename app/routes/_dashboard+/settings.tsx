import type { MetaFunction } from '@remix-run/node'
import { NavLink, Outlet } from '@remix-run/react'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import * as styles from '~/components/settings/settings.css'
import * as layout from '~/styles/layout.css'
import { screenMeta } from '~/sponsors/meta'

export const meta: MetaFunction = ({ matches }) => screenMeta(matches, 'Settings')

/** The Settings tab's own screens; each is a nested route with its own address. */
export const SETTINGS_SCREENS = [
  { label: 'Bot settings', to: '/settings', end: true },
  { label: 'Agent settings', to: '/settings/agent', end: false },
  { label: 'Templates', to: '/settings/templates', end: false },
  { label: 'Workflow graph', to: '/settings/graph', end: false },
] as const

export default function SettingsLayout() {
  return (
    <section className={layout.card} aria-labelledby="settings-heading">
      <h1 id="settings-heading">Settings</h1>
      <nav aria-label="Settings" className={styles.subnav}>
        {SETTINGS_SCREENS.map((screen) => (
          <NavLink key={screen.to} to={screen.to} end={screen.end} className={styles.subnavLink} prefetch="intent">
            {screen.label}
          </NavLink>
        ))}
      </nav>
      <Outlet />
    </section>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
