import { json, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useFetcher, useLoaderData, useNavigation } from '@remix-run/react'
import { useEffect, useState } from 'react'
import type { z } from 'zod'
import { LogStatusFilter, PAGE_SIZE_LOGS, type QueryLog } from '../../../contracts/query-logs'
import * as table from '~/components/data-table/data-table.css'
import { readInteger } from '~/components/data-table/table-url'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { LocalTime } from '~/components/local-time'
import { CsvDownloadLink } from '~/components/logs/csv-download-link'
import { mergeLogs } from '~/components/logs/merge-logs'
import { StatusFilter } from '~/components/logs/status-filter'
import { useHydrated } from '~/components/logs/use-hydrated'
import type { ApiSession } from '~/models/api.server'
import { listQueryLogs } from '~/models/query-logs.server'
import * as layout from '~/styles/layout.css'
import { requireApiSession } from '~/utils/auth.server'
import { screenMeta } from '~/sponsors/meta'

export const meta: MetaFunction = ({ matches }) => screenMeta(matches, 'Logs')

/** How far `?through=` reaches: 20 pages of 50. Beyond it the list goes on page by page with `?last_id=`. */
const MAX_ACCUMULATED_PAGES = 20

/*
 * "Load more" (SEED.md §4), in the URL:
 * - `/logs?status=S` is the newest page of 50.
 * - `/logs?status=S&last_id=L` is one page of the logs older than L: what a fetcher loads with scripts on, to append.
 * - `/logs?status=S&through=T` is the accumulated list a plain link gives with scripts off: every log from the newest
 *   down to T, then the next page of 50 below T. T is the last id shown, so the link always extends the list by one
 *   page; unlike `?pages=n` it stays anchored to the same rows when new questions are logged in between. The server
 *   walks the pages by last_id and de-duplicates like the client does.
 * Changing the status drops `through`/`last_id`, so the list starts again.
 */
async function loadThrough(api: ApiSession, status: z.infer<typeof LogStatusFilter>, through: number) {
  const pages: QueryLog[][] = []
  let cursor: number | undefined
  let isBackendExhausted = false
  for (let count = 0; count < MAX_ACCUMULATED_PAGES; count++) {
    const page = await listQueryLogs(api, { limit: PAGE_SIZE_LOGS, lastId: cursor, status })
    pages.push(page.result)
    if (page.result.length < PAGE_SIZE_LOGS || page.last_id === null) {
      isBackendExhausted = true
      break
    }
    cursor = page.last_id
    if (pages.flat().filter((log) => log.id < through).length >= PAGE_SIZE_LOGS) break
  }
  const all = mergeLogs(...pages)
  const older = all.filter((log) => log.id < through)
  const logs = [...all.filter((log) => log.id >= through), ...older.slice(0, PAGE_SIZE_LOGS)]
  const isCapped = !isBackendExhausted && older.length === 0
  return { logs, hasMore: !isBackendExhausted || older.length > PAGE_SIZE_LOGS, isCapped }
}

export async function loader({ request }: LoaderFunctionArgs) {
  const search = new URL(request.url).searchParams
  const status = LogStatusFilter.catch('all').parse(search.get('status') ?? 'all')
  const lastId = readInteger(search, 'last_id', 0) || null
  const through = readInteger(search, 'through', 0) || null
  const api = await requireApiSession(request)
  if (lastId) {
    const page = await listQueryLogs(api, { limit: PAGE_SIZE_LOGS, lastId, status })
    return json({ status, lastId, through: null, logs: page.result, hasMore: page.result.length === PAGE_SIZE_LOGS, isCapped: false })
  }
  if (through) return json({ status, lastId: null, through, ...(await loadThrough(api, status, through)) })
  const page = await listQueryLogs(api, { limit: PAGE_SIZE_LOGS, status })
  return json({ status, lastId: null, through: null, logs: page.result, hasMore: page.result.length === PAGE_SIZE_LOGS, isCapped: false })
}

type LogsData = ReturnType<typeof useLoaderData<typeof loader>>

export default function LogsRoute() {
  const data = useLoaderData<typeof loader>()
  return (
    <>
      <section className={layout.card} aria-labelledby="logs-heading">
        <h1 id="logs-heading">Logs</h1>
        <div className={layout.toolbar}>
          <StatusFilter key={data.status} status={data.status} />
        </div>
        {/* A new status or a new starting point starts a new list: the pages appended with scripts on are dropped. */}
        <LogsList key={`${data.status}|${data.lastId ?? ''}|${data.through ?? ''}`} data={data} />
      </section>
      <section className={layout.card} aria-labelledby="downloads-heading">
        <h2 id="downloads-heading">Downloads</h2>
        <ul>
          <li>
            <CsvDownloadLink href="/resources/query-logs.csv" filename="query_logs.csv">
              Download query_logs.csv
            </CsvDownloadLink>{' '}
            <span className={layout.muted}>every log with its answer, sources, feedback and comments</span>
          </li>
          <li>
            <CsvDownloadLink href="/resources/query-logs-dataset.csv" filename="query_logs_dataset.csv">
              Download the dataset CSV
            </CsvDownloadLink>{' '}
            <span className={layout.muted}>question, answer, sources, feedback and comments, for evaluation</span>
          </li>
        </ul>
      </section>
    </>
  )
}

interface AppendedPage {
  afterId: number
  logs: QueryLog[]
  hasMore: boolean
}

function LogsList({ data }: { data: LogsData }) {
  const fetcher = useFetcher<typeof loader>()
  const navigation = useNavigation()
  const isHydrated = useHydrated()
  const [pages, setPages] = useState<AppendedPage[]>([])

  // Each fetched page is kept by the id it follows, so a revalidated page replaces its earlier copy.
  useEffect(() => {
    const page = fetcher.data
    if (!page?.lastId) return
    setPages((previous) =>
      [...previous.filter((entry) => entry.afterId !== page.lastId), { afterId: page.lastId!, logs: page.logs, hasMore: page.hasMore }].sort(
        (a, b) => b.afterId - a.afterId,
      ),
    )
  }, [fetcher.data])

  const logs = mergeLogs(data.logs, ...pages.map((page) => page.logs))
  const hasMore = pages.length ? pages[pages.length - 1].hasMore : data.hasMore
  const oldestId = logs.length ? logs[logs.length - 1].id : null
  const statusParam = `status=${encodeURIComponent(data.status)}`
  const isLoadingMore = fetcher.state === 'loading'
  const isLoading = navigation.state === 'loading' && navigation.location.pathname === '/logs'

  const loadMoreHref = data.isCapped ? `/logs?${statusParam}&last_id=${oldestId}` : `/logs?${statusParam}&through=${oldestId}`
  return (
    <>
      <p className={layout.muted} role="status">
        {logs.length === 0 ? 'No logs' : `Showing ${logs.length} log${logs.length === 1 ? '' : 's'}`}
        {data.status === 'all' ? '' : ` (${data.status})`}
        {data.lastId ? `, older than log ${data.lastId}` : ''}
      </p>
      <div className={table.tableWrap} aria-busy={isLoading || isLoadingMore || undefined} role="region" aria-label="Query logs" tabIndex={0}>
        <table aria-label="Query logs">
          <thead>
            <tr>
              <th scope="col">Id</th>
              <th scope="col">Question</th>
              <th scope="col">Status</th>
              <th scope="col">Feedback</th>
              <th scope="col">Comments</th>
              <th scope="col">Asked</th>
            </tr>
          </thead>
          <tbody>
            {logs.map((log) => (
              <tr key={log.id}>
                <td className={table.numeric}>
                  <Link to={`/logs/${log.id}`} aria-label={`Log ${log.id}`}>
                    {log.id}
                  </Link>
                </td>
                <td>
                  <Link to={`/logs/${log.id}`}>{log.command}</Link>
                </td>
                <td>{log.status}</td>
                <td>{log.feedback === 'like' ? 'Liked' : log.feedback === 'dislike' ? 'Disliked' : '—'}</td>
                <td className={table.numeric}>{(log.comment ? 1 : 0) + log.comment_list.length || '—'}</td>
                <td>
                  <LocalTime iso={log.timestamp} />
                </td>
              </tr>
            ))}
            {logs.length === 0 ? (
              <tr>
                <td colSpan={6}>No logs {data.lastId ? 'older than these' : 'yet'}.</td>
              </tr>
            ) : null}
          </tbody>
        </table>
      </div>
      <nav className={table.pager} aria-label="Logs pages">
        {data.lastId || data.through ? <Link to={`/logs?${statusParam}`}>Newest</Link> : null}
        {hasMore && oldestId ? (
          <Link
            to={loadMoreHref}
            preventScrollReset
            aria-disabled={isLoadingMore || undefined}
            onClick={(event) => {
              // With scripts on, fetch only the next page and append it; the link is the scripts-off fallback.
              if (!isHydrated || data.isCapped) return
              event.preventDefault()
              if (!isLoadingMore) fetcher.load(`/logs?index&${statusParam}&last_id=${oldestId}`)
            }}
          >
            {isLoadingMore ? 'Loading…' : 'Load more'}
          </Link>
        ) : logs.length ? (
          <span className={layout.muted}>No more logs</span>
        ) : null}
      </nav>
    </>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
