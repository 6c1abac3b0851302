import { useNavigate, useRevalidator } from '@remix-run/react'
import { useEffect } from 'react'

/**
 * Checks again after `seconds`: with scripts off a <meta refresh> reloads `url` (or the page); with scripts on the
 * same happens without a reload, by navigating to `url` or revalidating the loaders.
 */
export function PollAgain({ seconds, url }: { seconds: number; url?: string }) {
  const navigate = useNavigate()
  const revalidator = useRevalidator()
  useEffect(() => {
    const timer = setTimeout(() => {
      if (url) navigate(url, { replace: true, preventScrollReset: true })
      else revalidator.revalidate()
    }, seconds * 1000)
    return () => clearTimeout(timer)
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [seconds, url])
  return (
    <noscript>
      <meta httpEquiv="refresh" content={url ? `${seconds};url=${url}` : String(seconds)} />
    </noscript>
  )
}
