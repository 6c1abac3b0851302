import { cssBundleHref } from '@remix-run/css-bundle'
import { renderToStaticMarkup } from 'react-dom/server'
import { ErrorDetails } from '~/components/error-boundary'
import { ProductMark } from '~/components/product-mark'
import { getSponsorView } from '~/sponsors/sponsor.server'
import * as layout from '~/styles/layout.css'
import * as brand from '~/styles/sponsors.css'

/** The header a download sends when the page's scripts fetch it; they read a refusal's reason as plain text. */
export const SCRIPTED_DOWNLOAD_HEADER = 'x-download'

export function isScriptedDownload(request: Request): boolean {
  return request.headers.get(SCRIPTED_DOWNLOAD_HEADER) === 'script'
}

const STATUS_TEXT: Record<number, string> = { 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found' }

/**
 * A download refused (403) or not there (404), answered with that status: to the page's scripts as the reason in plain
 * text; to a browser that opened the address (a link followed with scripts off, a typed address) as the app's error
 * page for the status (ADR 131: "Not allowed", the reason, what to do, Back to Ask), never the backend's JSON. A
 * resource route has no error boundary, so the page is rendered here, with the theme's stylesheets and header.
 */
export function downloadErrorResponse(request: Request, status: 403 | 404, message: string): Response {
  const headers = { 'Cache-Control': 'no-store' }
  if (isScriptedDownload(request)) return new Response(message, { status, headers: { ...headers, 'Content-Type': 'text/plain; charset=utf-8' } })
  const error = { status, statusText: STATUS_TEXT[status] ?? '', internal: false, data: { message } }
  const html = renderToStaticMarkup(<DownloadErrorDocument error={error} />)
  return new Response(`<!DOCTYPE html>${html}`, { status, headers: { ...headers, 'Content-Type': 'text/html; charset=utf-8' } })
}

/** The reason a thrown refusal carries (`{ message }`, as the app's and the backend's refusals do), or the fallback. */
export async function reasonOf(response: Response, fallback: string): Promise<string> {
  const body = (await response
    .clone()
    .json()
    .catch(() => null)) as { message?: unknown } | null
  return typeof body?.message === 'string' && body.message ? body.message : fallback
}

function DownloadErrorDocument({ error }: { error: { status: number; statusText: string; internal: boolean; data: { message: string } } }) {
  const sponsor = getSponsorView()
  const logoAlt = sponsor.name !== sponsor.title ? sponsor.name : ''
  return (
    <html lang="en" className={sponsor.className} data-theme={sponsor.key}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{`${error.status === 403 ? 'Not allowed' : 'Not found'} | ${sponsor.title}`}</title>
        <meta name="description" content={sponsor.metaDescription} />
        {sponsor.fontStylesheets.map((href) => (
          <link key={href} rel="stylesheet" href={href} />
        ))}
        {cssBundleHref ? <link rel="stylesheet" href={cssBundleHref} /> : null}
      </head>
      <body>
        <header className={layout.header}>
          <a href="/ask" className={brand.brandLink}>
            <img src={sponsor.logo} alt={logoAlt} className={brand.sponsorLogo} width={40} height={40} />
            <span>{sponsor.title}</span>
          </a>
          {sponsor.showProductLogo ? <ProductMark /> : null}
        </header>
        <main id="main" className={layout.main}>
          <ErrorDetails error={error} headingLevel={1} />
        </main>
      </body>
    </html>
  )
}
