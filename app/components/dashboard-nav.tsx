import { Form, NavLink, useLocation } from '@remix-run/react'
import { useEffect, useRef } from 'react'
import * as layout from '~/styles/layout.css'

interface NavItem {
  label: string
  to: string
}

interface DashboardNavProps {
  /** The four tabs of SEED.md §2 the user's role opens. */
  tabs: readonly NavItem[]
  /** The screens beside them. */
  links: readonly NavItem[]
  /** Who is signed in, when signing out is possible: a link to their account. */
  signedInAs?: string
}

/**
 * The dashboard's navigation: a row of tabs on a wide screen; on a narrow one the same links fold into a menu, a
 * <details> element, so it opens with scripts off too. Only one of the two is displayed at a time.
 */
export function DashboardNav({ tabs, links, signedInAs }: DashboardNavProps) {
  const menu = useRef<HTMLDetailsElement>(null)
  const { pathname } = useLocation()
  // With scripts on, the layout stays mounted between pages: close the menu once a link in it was followed.
  useEffect(() => menu.current?.removeAttribute('open'), [pathname])
  return (
    <nav aria-label="Dashboard" className={layout.nav}>
      <details ref={menu} className={layout.navMenu}>
        <summary className={layout.navMenuButton}>
          <MenuIcon />
          Menu
        </summary>
        <ul className={layout.navMenuList}>
          {[...tabs, ...links].map((item) => (
            <li key={item.to}>
              <NavLink to={item.to} className={layout.navMenuLink} prefetch="intent">
                {item.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </details>
      <ul className={layout.tabs}>
        {tabs.map((tab) => (
          <li key={tab.to}>
            <NavLink to={tab.to} className={layout.tab} prefetch="intent">
              {tab.label}
            </NavLink>
          </li>
        ))}
        <li aria-hidden="true" className={layout.tabSeparator} />
        {links.map((link) => (
          <li key={link.to}>
            <NavLink to={link.to} className={layout.tab} prefetch="intent">
              {link.label}
            </NavLink>
          </li>
        ))}
      </ul>
      {signedInAs !== undefined ? (
        <Form method="post" action="/logout" reloadDocument className={layout.signOut}>
          <NavLink to="/account" className={layout.signedInAs} title="Your account" prefetch="intent">
            {signedInAs}
            {/* The name alone would not say where the link goes. */}
            <span className="visually-hidden"> (your account)</span>
          </NavLink>
          <button type="submit" className={layout.signOutButton}>
            Sign out
          </button>
        </Form>
      ) : null}
    </nav>
  )
}

function MenuIcon() {
  return (
    <svg aria-hidden="true" focusable="false" width="20" height="20" viewBox="0 0 20 20" className={layout.navMenuIcon}>
      <path d="M3 5h14M3 10h14M3 15h14" stroke="currentColor" strokeWidth="2" strokeLinecap="round" fill="none" />
    </svg>
  )
}
