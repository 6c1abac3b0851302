import { json, redirect, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useFetcher, useLoaderData, useLocation, useNavigate, useNavigation, useSubmit, type ShouldRevalidateFunction } from '@remix-run/react'
import { useEffect, useState } from 'react'
import type { z } from 'zod'
import { LogSortField, LogStatusFilter, PAGE_SIZE_LOGS, type LogFilters, type QueryLog } from '../../../contracts/query-logs'
import { ColumnFilters } from '~/components/data-table/column-filters'
import * as table from '~/components/data-table/data-table.css'
import { DateInput } from '~/components/data-table/date-input'
import { SortHeader, type Sort } from '~/components/data-table/sort-header'
import { activeFilters, hrefWith, modeParamOf, parseFilterDate, readColumnFilters, readInteger, toBackendFilters, withAskedSort, type FilterColumn } from '~/components/data-table/table-url'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { LocalTime } from '~/components/local-time'
import { CsvDownloadLink } from '~/components/logs/csv-download-link'
import { mergeLogs } from '~/components/logs/merge-logs'
import { LOG_STATUS_LABELS } from '~/components/logs/status-filter'
import { useHydrated } from '~/components/logs/use-hydrated'
import { ApiError, type ApiSession } from '~/models/api.server'
import { listQueryLogs, type LogsTableQuery } from '~/models/query-logs.server'
import * as layout from '~/styles/layout.css'
import { requireApiSession } from '~/utils/auth.server'
import { withListBack } from '~/utils/list-back'
import { statusLabel } from '~/utils/labels'
import { screenMeta } from '~/sponsors/meta'

export const meta: MetaFunction = ({ matches }) => screenMeta(matches, 'Logs')

/** The logs table's filterable columns (contracts/query-logs.ts: LOG_FILTER_COLUMNS). */
const FILTER_COLUMNS = [
  { field: 'command', label: 'Question', kind: 'text' },
  { field: 'username', label: 'User', kind: 'text' },
  { field: 'id', label: 'Id', kind: 'numeric' },
  { field: 'timestamp', label: 'Asked', kind: 'date' },
] as const satisfies readonly FilterColumn[]

/** Parameters that choose which logs are listed (not where the list starts): a change starts the list again. */
const TABLE_PARAMS = ['status', 'q', 'from', 'to', 'sortField', 'sortOrder', ...FILTER_COLUMNS.flatMap((column) => [column.field, modeParamOf(column.field)])]

/** The table's state from the URL; values the backend would refuse are reported beside their field instead of sent. */
function readTableState(search: URLSearchParams) {
  const status = LogStatusFilter.catch('all').parse(search.get('status') ?? 'all')
  const parsedSort = LogSortField.safeParse(search.get('sortField'))
  const sort = { field: parsedSort.success ? parsedSort.data : 'id', order: search.get('sortOrder') === '1' ? 1 : -1 } as Sort
  const text = { q: (search.get('q') ?? '').trim().slice(0, 500), from: (search.get('from') ?? '').trim(), to: (search.get('to') ?? '').trim() }
  const filterValues = readColumnFilters(search, FILTER_COLUMNS)
  const { filters, errors } = toBackendFilters(filterValues, FILTER_COLUMNS)
  const from = text.from ? parseFilterDate(text.from) : null
  const to = text.to ? parseFilterDate(text.to) : null
  if (text.from && !from) errors.from = 'Enter a date as mm/dd/yyyy'
  if (text.to && !to) errors.to = 'Enter a date as mm/dd/yyyy'
  if (from && to && from > to) errors.to = 'The end of the range is before its start'
  const query: LogsTableQuery = {
    q: text.q || undefined,
    from: from && !errors.to ? from : undefined,
    to: to && !errors.to ? to : undefined,
    filters: filters as LogFilters,
    sortField: sort.field as z.infer<typeof LogSortField>,
    sortOrder: sort.order,
  }
  const isFiltered = Boolean(text.q || text.from || text.to) || Object.keys(activeFilters(filterValues)).length > 0
  return { status, sort, text, filterValues, errors, query, isFiltered }
}

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
 * With scripts on, the page appended writes `through` into the address (replacing it, without reading the list again:
 * shouldRevalidate), so Back from a log, or a reload, shows the same rows.
 */
/** The address gaining only a new `through` is the list's own record of a page appended with scripts: nothing to read. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ currentUrl, nextUrl, formMethod, defaultShouldRevalidate }) => {
  if (formMethod || currentUrl.pathname !== nextUrl.pathname) return defaultShouldRevalidate
  const through = nextUrl.searchParams.get('through')
  if (!through || through === currentUrl.searchParams.get('through')) return defaultShouldRevalidate
  const rest = (url: URL) => {
    const params = new URLSearchParams(url.search)
    params.delete('through')
    params.sort()
    return params.toString()
  }
  return rest(currentUrl) === rest(nextUrl) ? false : defaultShouldRevalidate
}

async function loadThrough(api: ApiSession, status: z.infer<typeof LogStatusFilter>, query: LogsTableQuery, through: number) {
  const pages: QueryLog[][] = []
  let cursor: number | undefined
  let isBackendExhausted = false
  // "After T" is by position in the table's order; if T has gone from the list, by id in that order.
  const followers = (logs: QueryLog[]) => {
    const position = logs.findIndex((log) => log.id === through)
    if (position >= 0) return logs.slice(position + 1)
    return logs.filter((log) => (query.sortOrder === 1 ? log.id > through : log.id < through))
  }
  for (let count = 0; count < MAX_ACCUMULATED_PAGES; count++) {
    const page = await listQueryLogs(api, { limit: PAGE_SIZE_LOGS, lastId: cursor, status, ...query })
    pages.push(page.result)
    if (page.result.length < PAGE_SIZE_LOGS || page.last_id === null) {
      isBackendExhausted = true
      break
    }
    cursor = page.last_id
    if (followers(mergeLogs(...pages)).length >= PAGE_SIZE_LOGS) break
  }
  const all = mergeLogs(...pages)
  const older = followers(all)
  const olderIds = new Set(older.map((log) => log.id))
  const logs = [...all.filter((log) => !olderIds.has(log.id)), ...older.slice(0, PAGE_SIZE_LOGS)]
  const isCapped = !isBackendExhausted && older.length === 0
  return { logs, hasMore: !isBackendExhausted || older.length > PAGE_SIZE_LOGS, isCapped }
}

/**
 * The address without what matches everything: a GET form sends every field, empty or not, so `?q=&from=&…` becomes
 * the plain address of the same list (null when it already is one).
 */
function cleanedSearch(search: URLSearchParams): string | null {
  const cleaned = new URLSearchParams()
  for (const [name, value] of search) {
    const isEmptyMode = name.endsWith('_mode') && !search.get(name.slice(0, -'_mode'.length))
    if ((value === '' && name !== 'index') || isEmptyMode || (name === 'status' && value === 'all')) continue
    cleaned.append(name, value)
  }
  return cleaned.toString() === search.toString() ? null : cleaned.toString()
}

/** The filter form, which the sort headers submit. */
const FILTERS_FORM = 'log-filters'

export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url)
  // A pressed sort header and the empty fields of the form are both made plain in one redirect.
  const sorted = withAskedSort(url.searchParams)
  const search = sorted ?? url.searchParams
  const cleaned = cleanedSearch(search)
  if (sorted || cleaned !== null) {
    const query = cleaned ?? search.toString()
    throw redirect(query ? `/logs?${query}` : '/logs')
  }
  const { status, sort, text, filterValues, errors, query, isFiltered } = readTableState(search)
  const lastId = readInteger(search, 'last_id', 0) || null
  const through = readInteger(search, 'through', 0) || null
  const api = await requireApiSession(request)
  const state = { status, sort, text, filterValues, isFiltered }
  try {
    if (lastId) {
      const page = await listQueryLogs(api, { limit: PAGE_SIZE_LOGS, lastId, status, ...query })
      return json({ ...state, errors, lastId, through: null, logs: page.result, hasMore: page.result.length === PAGE_SIZE_LOGS, isCapped: false })
    }
    if (through) return json({ ...state, errors, lastId: null, through, ...(await loadThrough(api, status, query, through)) })
    const page = await listQueryLogs(api, { limit: PAGE_SIZE_LOGS, status, ...query })
    return json({ ...state, errors, lastId: null, through: null, logs: page.result, hasMore: page.result.length === PAGE_SIZE_LOGS, isCapped: false })
  } catch (error) {
    // A filter the backend refuses is shown beside its field, over an empty list.
    if (!(error instanceof ApiError) || error.status !== 400) throw error
    const fieldErrors = error.fieldErrors()
    const shown: Record<string, string> = { ...errors }
    for (const field of [...FILTER_COLUMNS.map((column) => column.field), 'q', 'from', 'to']) {
      const message = (fieldErrors[`filters.${field}`] ?? fieldErrors[field])?.join(' ')
      if (message) shown[field] = message
    }
    if (Object.keys(shown).length === 0) shown.q = error.message
    return json({ ...state, errors: shown, lastId: null, through: null, logs: [] as QueryLog[], hasMore: false, isCapped: false }, { status: 400 })
  }
}

type LogsData = ReturnType<typeof useLoaderData<typeof loader>>

export default function LogsRoute() {
  const data = useLoaderData<typeof loader>()
  const location = useLocation()
  // The list's identity: which logs, in which order, from where. A change drops the pages appended with scripts on.
  const params = new URLSearchParams(location.search)
  const listKey = TABLE_PARAMS.map((name) => params.get(name) ?? '').join('|')
  return (
    <>
      <section className={layout.card} aria-labelledby="logs-heading">
        <h1 id="logs-heading">Logs</h1>
        <LogsFilters key={location.search} data={data} />
        <LogsList key={`${listKey}|${data.lastId ?? ''}|${data.through ?? ''}`} data={data} />
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

/**
 * One GET form for everything that chooses the logs: status, a search of questions and answers, a date range and the
 * column filters; the sort is kept. With scripts on a new status applies at once. On a phone it folds away.
 */
function LogsFilters({ data }: { data: LogsData }) {
  const location = useLocation()
  const submit = useSubmit()
  const keep: Record<string, string | number> = data.sort.field !== 'id' || data.sort.order !== -1 ? { sortField: data.sort.field, sortOrder: data.sort.order } : {}
  const clearHref = hrefWith('/logs', location.search, Object.fromEntries(TABLE_PARAMS.filter((name) => name !== 'sortField' && name !== 'sortOrder').map((name) => [name, null]).concat([['last_id', null], ['through', null]])))
  const extraActive = [data.status !== 'all', data.text.q, data.text.from, data.text.to].filter(Boolean).length
  const errorOf = (field: string) =>
    data.errors[field] ? (
      <span id={`filter-${field}-error`} role="alert">
        {data.errors[field]}
      </span>
    ) : null
  return (
    <ColumnFilters
      id={FILTERS_FORM}
      label="Filter logs"
      action="/logs"
      columns={FILTER_COLUMNS}
      values={data.filterValues}
      keep={keep}
      clearHref={clearHref}
      errors={data.errors}
      extraActiveCount={extraActive}
    >
      <div className={table.filterColumn}>
        <label htmlFor="log-status" className={table.filterLabel}>
          Status
        </label>
        <select id="log-status" name="status" defaultValue={data.status} className={table.control} onChange={(event) => submit(event.currentTarget.form)}>
          {LogStatusFilter.options.map((option) => (
            <option key={option} value={option}>
              {LOG_STATUS_LABELS[option]}
            </option>
          ))}
        </select>
      </div>
      <div className={table.filterColumn}>
        <label htmlFor="filter-q" className={table.filterLabel}>
          Search
        </label>
        <input
          id="filter-q"
          name="q"
          type="search"
          maxLength={500}
          defaultValue={data.text.q}
          placeholder="Words in the question or answer"
          className={table.control}
          aria-invalid={data.errors.q ? true : undefined}
          aria-describedby={data.errors.q ? 'filter-q-error' : undefined}
        />
        {errorOf('q')}
      </div>
      <div className={table.filterColumn}>
        <label htmlFor="filter-from" className={table.filterLabel}>
          From
        </label>
        <DateInput id="filter-from" name="from" label="From" defaultValue={data.text.from} isInvalid={Boolean(data.errors.from)} describedBy={data.errors.from ? 'filter-from-error' : undefined} />
        {errorOf('from')}
      </div>
      <div className={table.filterColumn}>
        <label htmlFor="filter-to" className={table.filterLabel}>
          To
        </label>
        <DateInput id="filter-to" name="to" label="To" defaultValue={data.text.to} isInvalid={Boolean(data.errors.to)} describedBy={data.errors.to ? 'filter-to-error' : undefined} />
        {errorOf('to')}
      </div>
    </ColumnFilters>
  )
}

function LogsList({ data }: { data: LogsData }) {
  const fetcher = useFetcher<typeof loader>()
  const navigation = useNavigation()
  const isHydrated = useHydrated()
  const [pages, setPages] = useState<AppendedPage[]>([])
  const location = useLocation()
  const navigate = useNavigate()
  const listHref = (changes: Record<string, string | number | null>) => hrefWith('/logs', location.search, { last_id: null, through: null, ...changes })
  // A log comes back to the list as it is shown: its filters, sort and the pages loaded.
  const logHref = (id: number) => withListBack(`/logs/${id}`, location)

  // Each fetched page is kept by the id it follows, so a revalidated page replaces its earlier copy.
  useEffect(() => {
    const page = fetcher.data
    if (!page?.lastId) return
    const afterId = page.lastId
    setPages((previous) =>
      [...previous.filter((entry) => entry.afterId !== afterId), { afterId, logs: page.logs, hasMore: page.hasMore }].sort(
        (a, b) => (data.sort.order === 1 ? a.afterId - b.afterId : b.afterId - a.afterId),
      ),
    )
  }, [fetcher.data])
  // The address says how far the list reaches (as without scripts), so Back from a log brings the same rows.
  const reach = pages.length ? pages[pages.length - 1].afterId : null
  useEffect(() => {
    if (reach !== null && new URLSearchParams(location.search).get('through') !== String(reach)) navigate(listHref({ through: reach }), { replace: true, preventScrollReset: true })
  }, [reach])

  const logs = mergeLogs(data.logs, ...pages.map((page) => page.logs))
  const hasMore = pages.length ? pages[pages.length - 1].hasMore : data.hasMore
  const oldestId = logs.length ? logs[logs.length - 1].id : null
  const isLoadingMore = fetcher.state === 'loading'
  const isLoading = navigation.state === 'loading' && navigation.location.pathname === '/logs'

  const loadMoreHref = data.isCapped ? listHref({ last_id: oldestId }) : listHref({ through: oldestId })
  return (
    <>
      <p className={layout.muted} role="status">
        {logs.length === 0 ? 'No logs' : `Showing ${logs.length} ${data.isFiltered ? 'matching ' : ''}log${logs.length === 1 ? '' : 's'}`}
        {data.status === 'all' ? '' : ` (${LOG_STATUS_LABELS[data.status].toLowerCase()})`}
        {data.lastId ? `, older than log ${data.lastId}` : ''}
        {/* A filter refused beside its field is left out of the list, which must not look filtered by it. */}
        {logs.length > 0 && Object.keys(data.errors).length > 0 ? ' (the filters marked in error are not applied)' : ''}
      </p>
      <div className={table.tableWrap} aria-busy={isLoading || isLoadingMore || undefined} role="region" aria-label="Query logs" tabIndex={0}>
        <table aria-label="Query logs">
          <thead>
            <tr>
              <SortHeader label="Id" field="id" sort={data.sort} form={FILTERS_FORM} />
              <th scope="col">Question</th>
              <th scope="col">Status</th>
              <th scope="col">Feedback</th>
              <th scope="col">Comments</th>
              <SortHeader label="Asked" field="timestamp" sort={data.sort} form={FILTERS_FORM} />
            </tr>
          </thead>
          <tbody>
            {logs.map((log) => (
              <tr key={log.id}>
                <td className={table.numeric}>
                  <Link to={logHref(log.id)} aria-label={`Log ${log.id}`}>
                    {log.id}
                  </Link>
                </td>
                {/* A long question, with or without spaces, wraps in its column and shows its first three lines: the log has it whole. */}
                <td className={table.titleCell}>
                  <Link to={logHref(log.id)} className={table.clamp}>
                    {log.command}
                  </Link>
                </td>
                <td>{statusLabel(log.status)}</td>
                <td>{log.feedback === 'like' ? 'Liked' : log.feedback === 'dislike' ? 'Disliked' : '—'}</td>
                <td className={table.numeric}>{(log.comment ? 1 : 0) + log.comment_list.length || '—'}</td>
                <td>
                  <LocalTime iso={log.timestamp} />
                </td>
              </tr>
            ))}
            {logs.length === 0 ? (
              <tr>
                <td colSpan={6}>{data.lastId ? 'No more logs after these.' : data.isFiltered || data.status !== 'all' ? 'No logs match these filters.' : 'No logs yet.'}</td>
              </tr>
            ) : null}
          </tbody>
        </table>
      </div>
      <nav className={table.pager} aria-label="Logs pages">
        {data.lastId || data.through ? <Link to={listHref({})}>{data.sort.order === 1 ? 'Oldest' : 'Newest'}</Link> : null}
        {hasMore && oldestId ? (
          <Link
            to={loadMoreHref}
            preventScrollReset
            aria-disabled={isLoadingMore || undefined}
            onClick={(event) => {
              // With scripts on, fetch only the next page and append it; the link is the scripts-off fallback.
              if (!isHydrated || data.isCapped) return
              event.preventDefault()
              if (!isLoadingMore) fetcher.load(`${listHref({ last_id: oldestId })}&index`)
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
