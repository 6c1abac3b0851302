import { RemixBrowser } from '@remix-run/react'
import { startTransition, StrictMode } from 'react'
import { hydrateRoot } from 'react-dom/client'
import { config } from 'zod'

// Zod builds faster object parsers with `new Function` where it may, and probes for that on first use. The
// Content-Security-Policy allows no eval: the probe would only be reported as a violation, so it is never made.
config({ jitless: true })

startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      <RemixBrowser />
    </StrictMode>,
  )
})
