import { useEffect, useState } from 'react'

let isHydratedOnce = false

/** False in the server's markup and until scripts run; true from then on (also for components mounted later). */
export function useHydrated(): boolean {
  const [isHydrated, setIsHydrated] = useState(isHydratedOnce)
  useEffect(() => {
    isHydratedOnce = true
    setIsHydrated(true)
  }, [])
  return isHydrated
}

/**
 * A hidden field that tells an action the form came from a fetcher with scripts on: the action then answers JSON (and
 * the page updates in place) instead of redirecting, which is what it does for a plain form post with scripts off.
 */
export function EnhancedField() {
  return useHydrated() ? <input type="hidden" name="enhanced" value="1" /> : null
}
