import { RemixBrowser } from '@remix-run/react'
import { startTransition, StrictMode } from 'react'
import { hydrateRoot } from 'react-dom/client'

// Zod builds faster object parsers with `new Function` where it may, and probes for that on first use. The
// Content-Security-Policy allows no eval: the probe would only be reported as a violation, so it is never made
// (`jitless`). Zod keeps its settings on globalThis (what `z.config()` changes); setting them here keeps zod itself
// out of the bundle every page loads.
const zodSettings = ((globalThis as { __zod_globalConfig?: Record<string, unknown> }).__zod_globalConfig ??= {})
zodSettings.jitless = true

startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      <RemixBrowser />
    </StrictMode>,
  )
})
