import { useFetcher, useLocation } from '@remix-run/react'
import { useState, type MouseEvent, type ReactNode } from 'react'
import { isCsvContentType } from './csv-content-type'

interface CsvDownloadLinkProps {
  /** The resource route, e.g. /resources/query-logs.csv. */
  href: string
  filename: string
  children: ReactNode
}

/**
 * A link to a CSV resource route. With scripts off it is a plain link: the browser downloads the attachment, or follows
 * the redirect back here with the error toast. With scripts on it downloads through fetch, checks the content type
 * once more, saves the file, and posts the outcome to the route's action, which flashes the toast (SEED.md §8).
 */
export function CsvDownloadLink({ href, filename, children }: CsvDownloadLinkProps) {
  const location = useLocation()
  const fetcher = useFetcher()
  const [isDownloading, setIsDownloading] = useState(false)
  const url = `${href}?redirectTo=${encodeURIComponent(location.pathname + location.search)}`

  async function download(event: MouseEvent<HTMLAnchorElement>) {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return
    event.preventDefault()
    setIsDownloading(true)
    let outcome: 'downloaded' | 'failed' = 'failed'
    try {
      const response = await fetch(url, { headers: { 'x-download': 'script' } })
      if (response.ok && isCsvContentType(response.headers.get('content-type'))) {
        const objectUrl = URL.createObjectURL(await response.blob())
        const anchor = document.createElement('a')
        anchor.href = objectUrl
        anchor.download = filename
        document.body.append(anchor)
        anchor.click()
        anchor.remove()
        setTimeout(() => URL.revokeObjectURL(objectUrl), 60_000)
        outcome = 'downloaded'
      }
    } catch {
      // A network failure is reported like a wrong answer.
    } finally {
      setIsDownloading(false)
    }
    fetcher.submit({ outcome }, { method: 'post', action: href })
  }

  return (
    <a href={url} onClick={download} aria-busy={isDownloading || undefined} aria-disabled={isDownloading || undefined}>
      {children}
    </a>
  )
}
