import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData, useLocation, useNavigation } from '@remix-run/react'
import { z } from 'zod'
import type { ArticleFilters } from '../../../contracts/article-filters'
import { PAGE_SIZE_ARTICLES, SortField, type DraftsPage } from '../../../contracts/articles'
import { ColumnFilters } from '~/components/data-table/column-filters'
import * as table from '~/components/data-table/data-table.css'
import { Pager } from '~/components/data-table/pager'
import { SortHeader, type Sort } from '~/components/data-table/sort-header'
import { activeFilters, askedSortHref, hrefWith, modeParamOf, pastTheEndHref, readColumnFilters, readInteger, toBackendFilters, type FilterColumn } from '~/components/data-table/table-url'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { LocalTime } from '~/components/local-time'
import { PollAgain } from '~/components/poll'
import { Button } from '~/components/ui/button'
import * as controls from '~/components/ui/controls.css'
import { ApiError } from '~/models/api.server'
import { deleteAllDrafts, getPublishProgress, listDrafts, publishDrafts } from '~/models/articles.server'
import * as layout from '~/styles/layout.css'
import { requireApiSession } from '~/utils/auth.server'
import { redirectWithToast } from '~/utils/session.server'
import { screenMeta } from '~/sponsors/meta'
import { badForm, readFormData } from '~/utils/form.server'

export const meta: MetaFunction = ({ matches }) => screenMeta(matches, 'Drafts')

/** The drafts' filterable columns: the articles' (contracts/article-filters.ts), the date being when it was saved. */
const FILTER_COLUMNS = [
  { field: 'title', label: 'Title', kind: 'text' },
  { field: 'source', label: 'Source', kind: 'text' },
  { field: 'id', label: 'Id', kind: 'numeric' },
  { field: 'timestamp', label: 'Saved', kind: 'date' },
] as const satisfies readonly FilterColumn[]

/** The table's state, read from the URL: first, rows (30), sortField (id), sortOrder (newest first) and the filters. */
function readTableState(search: URLSearchParams) {
  const parsedSort = SortField.safeParse(search.get('sortField'))
  return {
    first: readInteger(search, 'first', 0),
    rows: readInteger(search, 'rows', PAGE_SIZE_ARTICLES, { min: 1, max: 500 }),
    sort: { field: parsedSort.success ? parsedSort.data : 'id', order: search.get('sortOrder') === '1' ? 1 : -1 } as Sort,
    filterValues: readColumnFilters(search, FILTER_COLUMNS),
  }
}

/** The filter form, which the sort headers submit. */
const FILTERS_FORM = 'draft-filters'

export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url)
  const sorted = askedSortHref(url)
  if (sorted) throw redirect(sorted)
  const state = readTableState(url.searchParams)
  const { filters, errors } = toBackendFilters(state.filterValues, FILTER_COLUMNS)
  const taskId = url.searchParams.get('task') || undefined
  const api = await requireApiSession(request)
  let filterErrors: Record<string, string> = errors
  const [drafts, latestOrAsked] = await Promise.all([
    listDrafts(api, {
      first: state.first,
      rows: state.rows,
      sortField: state.sort.field as z.infer<typeof SortField>,
      sortOrder: state.sort.order,
      filters: filters as ArticleFilters,
    }).catch((error): DraftsPage => {
      // A filter the backend refuses is shown beside that filter, over an empty table.
      if (!(error instanceof ApiError) || error.status !== 400) throw error
      const fieldErrors = error.fieldErrors()
      filterErrors = { ...filterErrors }
      for (const column of FILTER_COLUMNS) {
        const message = fieldErrors[`filters.${column.field}`]?.join(' ')
        if (message) filterErrors[column.field] = message
      }
      if (Object.keys(filterErrors).length === 0) filterErrors.title = error.message
      return { success: true, rows: [], total_count: 0 }
    }),
    getPublishProgress(api, taskId).catch((error) => {
      if (error instanceof ApiError && error.status === 404) return null
      throw error
    }),
  ])
  // A publish is shown while it runs (also one started elsewhere), and once finished only on the address its Publish
  // button led to (?task=): a later visit to Drafts does not show the last publish again.
  const isUnderway = latestOrAsked?.status === 'queued' || latestOrAsked?.status === 'running'
  const progress = latestOrAsked && (taskId || isUnderway) ? latestOrAsked : null
  const lastPage = pastTheEndHref(url, { first: state.first, rows: state.rows, total: drafts.total_count })
  if (lastPage) throw redirect(lastPage)
  // Delete all and Publish all act on every draft, so they count every draft, not only the matching ones.
  const isFiltered = Object.keys(filters).length > 0
  const allCount = isFiltered ? (await listDrafts(api, { first: 0, rows: 1, sortField: 'id', sortOrder: -1 })).total_count : drafts.total_count
  return json({ drafts, progress, ...state, filterErrors, allCount })
}

const Id = z.coerce.number().int().positive().max(2_147_483_647)
const DraftsAction = z.discriminatedUnion('intent', [
  // A row's own Publish button names its draft; "Publish selected" takes the ticked boxes; "Publish all" every draft.
  z.object({ intent: z.literal('publish-one'), publish_id: Id }),
  z.object({ intent: z.literal('publish-selected'), ids: z.array(Id).default([]) }),
  z.object({ intent: z.literal('publish-all') }),
  z.object({ intent: z.literal('delete-all'), confirm: z.literal('on').optional() }),
])

function readAction(formData: FormData) {
  const publishId = formData.get('publish_id')
  return DraftsAction.safeParse({
    intent: publishId ? 'publish-one' : formData.get('intent'),
    publish_id: publishId ?? undefined,
    ids: formData.getAll('ids'),
    confirm: formData.get('confirm') ?? undefined,
  })
}

export async function action({ request }: ActionFunctionArgs) {
  const parsed = readAction(await readFormData(request))
  if (!parsed.success) throw badForm('This form does not name a way to publish or delete drafts, or names no valid draft.')
  const api = await requireApiSession(request)
  const command = parsed.data
  if (command.intent === 'delete-all') {
    if (command.confirm !== 'on') return json({ intent: command.intent, error: 'Please confirm that every draft is deleted' }, { status: 400 })
    const deleted = await deleteAllDrafts(api)
    return redirectWithToast(request, '/articles/drafts', { summary: 'All Ok', message: deleted.message })
  }
  const ids = command.intent === 'publish-one' ? [command.publish_id] : command.intent === 'publish-selected' ? command.ids : undefined
  if (ids && ids.length === 0) return json({ intent: command.intent, error: 'Select at least one draft to publish' }, { status: 400 })
  try {
    const started = await publishDrafts(api, ids)
    return redirectWithToast(request, `/articles/drafts?task=${encodeURIComponent(started.task_id ?? '')}`, { summary: 'All Ok', message: 'Publishing started' })
  } catch (error) {
    if (error instanceof ApiError && error.status < 500) {
      return redirectWithToast(request, '/articles/drafts', { summary: 'Something went wrong', severity: 'error', message: error.message })
    }
    throw error
  }
}

/**
 * The drafts waiting for review: tick drafts and publish them, publish one or all, open one to edit or delete it, and
 * delete all (a required checkbox is the confirmation, with scripts on or off). Publishing shows its progress, polled.
 */
export default function DraftsRoute() {
  const { drafts, progress, first, rows, sort, filterValues, filterErrors, allCount } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const navigation = useNavigation()
  const location = useLocation()
  const isBusy = navigation.state === 'submitting'
  const taskInUrl = new URLSearchParams(location.search).get('task')
  const isRunning = Boolean(progress && (progress.status === 'queued' || progress.status === 'running'))
  const publishError = actionData && actionData.intent !== 'delete-all' ? actionData.error : undefined
  const deleteError = actionData?.intent === 'delete-all' ? actionData.error : undefined
  const hrefFor = (changes: Record<string, string | number | null>) => hrefWith('/articles/drafts', location.search, { task: null, ...changes })
  const keep: Record<string, string | number> = { sortField: sort.field, sortOrder: sort.order, ...(rows !== PAGE_SIZE_ARTICLES ? { rows } : {}) }
  const clearHref = hrefFor({ first: null, ...Object.fromEntries(FILTER_COLUMNS.flatMap((column) => [[column.field, null], [modeParamOf(column.field), null]])) })
  const filtered = Object.keys(activeFilters(filterValues)).length > 0
  return (
    <>
      <section className={layout.card} aria-labelledby="drafts-heading">
        <p>
          <Link to="/articles">← Articles</Link>
        </p>
        <h1 id="drafts-heading">Drafts</h1>
        <p className={layout.muted}>Drafts are reviewed here before they are published into the knowledge base.</p>
        <div className={layout.toolbar}>
          <Link to="/articles/new">Add article</Link>
          <Link to="/articles/import">Import</Link>
          <span className={layout.muted} role="status">
            {`${drafts.total_count} ${filtered ? 'matching ' : ''}draft${drafts.total_count === 1 ? '' : 's'}`}
          </span>
        </div>
        <ColumnFilters
          key={location.search}
          id={FILTERS_FORM}
          label="Filter drafts"
          action="/articles/drafts"
          columns={FILTER_COLUMNS}
          values={filterValues}
          keep={keep}
          clearHref={clearHref}
          errors={filterErrors}
        />
        {/* Without drafts the delete section is not shown: its refusal is said here. */}
        {deleteError && allCount === 0 ? (
          <p className={controls.error} role="alert">
            {deleteError}
          </p>
        ) : null}
        <Form method="post" id="publish-drafts" aria-label="Publish drafts">
          <div className={table.tableWrap} role="region" aria-label="Drafts" tabIndex={0}>
            <table aria-label="Drafts">
              <thead>
                <tr>
                  <th scope="col">
                    <span className="visually-hidden">Select</span>
                  </th>
                  <SortHeader label="Id" field="id" sort={sort} form={FILTERS_FORM} />
                  <SortHeader label="Title" field="title" sort={sort} form={FILTERS_FORM} />
                  <th scope="col">Source</th>
                  <SortHeader label="Saved" field="timestamp" sort={sort} form={FILTERS_FORM} />
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {drafts.rows.map((draft) => (
                  <tr key={draft.id}>
                    <td>
                      <input type="checkbox" name="ids" value={draft.id} aria-label={`Select ${draft.title}`} />
                    </td>
                    <td className={table.numeric}>{draft.id}</td>
                    <td className={table.titleCell}>
                      <Link to={`/articles/drafts/${draft.id}`}>{draft.title}</Link>
                    </td>
                    <td className={table.longValue}>
                      {/* A long address shows its first lines; the whole of it is on the draft's own page. */}
                      {typeof draft.metadata.source === 'string' ? (
                        <span className={table.clamp} title={draft.metadata.source}>
                          {draft.metadata.source}
                        </span>
                      ) : (
                        '—'
                      )}
                    </td>
                    <td>
                      <LocalTime iso={draft.timestamp} />
                    </td>
                    <td>
                      <span className={table.actions}>
                        <Button name="publish_id" value={String(draft.id)} variant="secondary" isDisabled={isBusy || isRunning}>
                          Publish
                        </Button>
                        <Link to={`/articles/drafts/${draft.id}`} aria-label={`Edit ${draft.title}`}>
                          Edit
                        </Link>
                      </span>
                    </td>
                  </tr>
                ))}
                {drafts.rows.length === 0 ? (
                  <tr>
                    <td colSpan={6}>{filtered ? 'No drafts match these filters.' : 'No drafts waiting.'}</td>
                  </tr>
                ) : null}
              </tbody>
            </table>
          </div>
          {publishError ? (
            <p className={controls.error} role="alert">
              {publishError}
            </p>
          ) : null}
          <div className={layout.toolbar} style={{ marginTop: '1rem' }}>
            <Button name="intent" value="publish-selected" isDisabled={isBusy || isRunning || drafts.total_count === 0}>
              Publish selected
            </Button>
            <Button name="intent" value="publish-all" variant="secondary" isDisabled={isBusy || isRunning || allCount === 0}>
              Publish all
            </Button>
          </div>
        </Form>
        <Pager label="Drafts pages" first={first} rows={rows} total={drafts.total_count} hrefFor={(next) => hrefFor({ first: next || null })} />
      </section>

      {progress && progress.task_id ? (
        <section className={layout.card} aria-labelledby="publish-heading">
          <h2 id="publish-heading">Publishing</h2>
          <progress aria-label="Publishing progress" value={progress.progress} max={Math.max(progress.total, 1)} style={{ width: '100%' }} />
          <p role="status">{progress.message}</p>
          {progress.failed.length ? (
            <ul aria-label="Drafts that failed">
              {progress.failed.map((failure) => (
                <li key={failure.draft_id}>
                  Draft {failure.draft_id} ({failure.title}): {failure.error}
                </li>
              ))}
            </ul>
          ) : null}
          {progress.published.length ? (
            <ul aria-label="Published articles">
              {progress.published.map((entry) => (
                <li key={entry.article_id}>
                  <Link to={`/articles/${entry.article_id}`}>{entry.title}</Link>
                </li>
              ))}
            </ul>
          ) : null}
          {/* Reached without its task (a publish started elsewhere), it is polled at its own address, so its result
              stays in view once it has finished. */}
          {isRunning ? <PollAgain seconds={1} url={taskInUrl === progress.task_id ? undefined : hrefWith('/articles/drafts', location.search, { task: progress.task_id })} /> : null}
        </section>
      ) : null}

      {allCount > 0 ? (
        <section className={layout.card} aria-labelledby="delete-all-heading">
          <h2 id="delete-all-heading">Delete all drafts</h2>
          <Form method="post" aria-labelledby="delete-all-heading">
            <p className={controls.field}>
              <label>
                <input type="checkbox" name="confirm" required aria-invalid={deleteError ? true : undefined} /> Yes, delete {allCount === 1 ? 'the 1 draft' : `all ${allCount} drafts`}
              </label>
              {deleteError ? (
                <span className={controls.error} role="alert">
                  {deleteError}
                </span>
              ) : null}
            </p>
            <Button name="intent" value="delete-all" variant="danger" isDisabled={isBusy}>
              Delete all drafts
            </Button>
          </Form>
        </section>
      ) : null}
    </>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
