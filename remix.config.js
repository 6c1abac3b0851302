import { flatRoutes } from 'remix-flat-routes'

/** Remix v2 with the classic compiler; routes follow remix-flat-routes' hybrid convention (folders ending in +). */
export default {
  ignoredRouteFiles: ['**/*'],
  serverModuleFormat: 'esm',
  serverBuildPath: 'build/server/index.js',
  future: { v3_fetcherPersist: true, v3_relativeSplatPath: true, v3_throwAbortReason: true, v3_lazyRouteDiscovery: true },
  serverDependenciesToBundle: [/^remix-auth/],
  routes: async (defineRoutes) => flatRoutes('routes', defineRoutes, { ignoredRouteFiles: ['**/*.test.*', '**/*.css.ts'] }),
}
