import { useNavigate, useNavigation, useRevalidator } from '@remix-run/react'
import { useEffect } from 'react'

/**
 * Checks again every `seconds` for as long as it is shown: with scripts off a <meta refresh> reloads `url` (or the
 * page); with scripts on the same happens without a reload, by navigating to `url` or revalidating the loaders.
 *
 * With scripts on, the next check is armed each time the page is idle again, so a page whose loader data changes
 * nothing here (the same `seconds` and `url`) still checks again; and none starts while the page loads or submits: a
 * check started then would interrupt what the person asked for (a Stop crawl whose confirmation would be lost).
 */
export function PollAgain({ seconds, url }: { seconds: number; url?: string }) {
  const navigate = useNavigate()
  const revalidator = useRevalidator()
  const navigation = useNavigation()
  const isIdle = revalidator.state === 'idle' && navigation.state === 'idle'
  useEffect(() => {
    if (!isIdle) return
    const timer = setTimeout(() => {
      if (url) navigate(url, { replace: true, preventScrollReset: true })
      else revalidator.revalidate()
    }, seconds * 1000)
    return () => clearTimeout(timer)
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [seconds, url, isIdle])
  return (
    <noscript>
      <meta httpEquiv="refresh" content={url ? `${seconds};url=${url}` : String(seconds)} />
    </noscript>
  )
}
