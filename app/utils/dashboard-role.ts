import { useRouteLoaderData } from '@remix-run/react'
import type { loader as dashboardLoader } from '~/routes/_dashboard+/_layout'
import type { Role } from './roles'

/** The route id of the dashboard layout, whose loader reads who is signed in. */
const DASHBOARD_ROUTE_ID = 'routes/_dashboard+/_layout'

/**
 * The signed-in role as the dashboard layout read it from the session, for screens that offer a link only to roles
 * that open it; the least role when unknown. The backend and the web server refuse the rest anyway.
 */
export function useDashboardRole(): Role {
  return useRouteLoaderData<typeof dashboardLoader>(DASHBOARD_ROUTE_ID)?.user.role ?? 'user'
}
