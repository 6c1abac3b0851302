import { getFormProps, getInputProps, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData, useLocation, useNavigation } from '@remix-run/react'
import { z } from 'zod'
import type { ArticleFilters } from '../../../contracts/article-filters'
import { PAGE_SIZE_ARTICLES, SortField, type ArticlesPage } from '../../../contracts/articles'
import { ColumnFilters } from '~/components/data-table/column-filters'
import * as table from '~/components/data-table/data-table.css'
import { Pager } from '~/components/data-table/pager'
import { SortHeader, type Sort } from '~/components/data-table/sort-header'
import { activeFilters, askedSortHref, hrefWith, modeParamOf, pastTheEndHref, readColumnFilters, readInteger, toBackendFilters, type FilterColumn } from '~/components/data-table/table-url'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { LocalTime } from '~/components/local-time'
import { Button } from '~/components/ui/button'
import * as controls from '~/components/ui/controls.css'
import { fieldProps, TextField } from '~/components/ui/text-field'
import { ApiError } from '~/models/api.server'
import { deleteArticlesByTitle, listArticles } from '~/models/articles.server'
import * as layout from '~/styles/layout.css'
import { requireApiSession } from '~/utils/auth.server'
import { redirectWithToast } from '~/utils/session.server'
import { screenMeta } from '~/sponsors/meta'
import { readFormData } from '~/utils/form.server'

export const meta: MetaFunction = ({ matches }) => screenMeta(matches, 'Articles')

/** The filterable columns and their kinds (contracts/article-filters.ts: ARTICLE_FILTER_COLUMNS). */
const FILTER_COLUMNS = [
  { field: 'title', label: 'Title', kind: 'text' },
  { field: 'source', label: 'Source', kind: 'text' },
  { field: 'id', label: 'Id', kind: 'numeric' },
  { field: 'timestamp', label: 'Updated', kind: 'date' },
] as const satisfies readonly FilterColumn[]

const SORTABLE_COLUMNS = [
  { field: 'index', label: 'Index' },
  { field: 'title', label: 'Title' },
] as const

/** The table's state, read from the URL: first, rows (30), sortField (id), sortOrder (1) and the column filters. */
function readTableState(search: URLSearchParams) {
  const parsedSort = SortField.safeParse(search.get('sortField'))
  return {
    first: readInteger(search, 'first', 0),
    rows: readInteger(search, 'rows', PAGE_SIZE_ARTICLES, { min: 1, max: 500 }),
    sort: { field: parsedSort.success ? parsedSort.data : 'id', order: search.get('sortOrder') === '-1' ? -1 : 1 } as Sort,
    filterValues: readColumnFilters(search, FILTER_COLUMNS),
  }
}

/** The URL's filters as the backend's filters object; values the backend would refuse are reported beside their input. */
function toArticleFilters(values: ReturnType<typeof readColumnFilters>) {
  const { filters, errors } = toBackendFilters(values, FILTER_COLUMNS)
  return { filters: filters as ArticleFilters, errors }
}

/** The filter form, which the sort headers submit. */
const FILTERS_FORM = 'article-filters'

export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url)
  const sorted = askedSortHref(url)
  if (sorted) throw redirect(sorted)
  const search = url.searchParams
  const state = readTableState(search)
  const { filters, errors } = toArticleFilters(state.filterValues)
  const api = await requireApiSession(request)
  let page: ArticlesPage = { success: true, rows: [], total_count: 0 }
  let filterErrors: Record<string, string> = errors
  try {
    page = await listArticles(api, { first: state.first, rows: state.rows, sortField: state.sort.field as z.infer<typeof SortField>, sortOrder: state.sort.order, filters })
  } catch (error) {
    // A filter the backend refuses (e.g. a match mode that does not fit its column) is shown beside that filter.
    if (!(error instanceof ApiError) || error.status !== 400) throw error
    const fieldErrors = error.fieldErrors()
    filterErrors = { ...filterErrors }
    for (const column of FILTER_COLUMNS) {
      const message = fieldErrors[`filters.${column.field}`]?.join(' ')
      if (message) filterErrors[column.field] = message
    }
    if (Object.keys(filterErrors).length === 0) filterErrors.title = error.message
  }
  const lastPage = pastTheEndHref(url, { first: state.first, rows: state.rows, total: page.total_count })
  if (lastPage) throw redirect(lastPage)
  return json({ ...state, page, filterErrors })
}

const DeleteByTitleForm = z.object({
  title: z.string({ error: 'Please enter a title' }).trim().min(1, 'Please enter a title').max(500, 'A title is at most 500 characters'),
  confirm: z.literal('on', { error: 'Please confirm that every article with this title is deleted' }),
})

export async function action({ request }: ActionFunctionArgs) {
  const url = new URL(request.url)
  const submission = parseWithZod(await readFormData(request), { schema: DeleteByTitleForm })
  if (submission.status !== 'success') return json({ result: submission.reply() }, { status: 400 })
  try {
    const deleted = await deleteArticlesByTitle(await requireApiSession(request), submission.value.title)
    return redirectWithToast(request, hrefWith('/articles', url.search, {}), { summary: 'All Ok', message: deleted.message })
  } catch (error) {
    if (error instanceof ApiError && (error.status === 404 || error.status === 400)) {
      return json({ result: submission.reply({ fieldErrors: { title: [error.message] } }) }, { status: error.status })
    }
    throw error
  }
}

export default function ArticlesRoute() {
  const { first, rows, sort, filterValues, page, filterErrors } = useLoaderData<typeof loader>()
  const location = useLocation()
  const navigation = useNavigation()
  const isLoading = navigation.state === 'loading' && navigation.location.pathname === '/articles'
  const hrefFor = (changes: Record<string, string | number | null>) => hrefWith('/articles', location.search, changes)
  const keep: Record<string, string | number> = { sortField: sort.field, sortOrder: sort.order, ...(rows !== PAGE_SIZE_ARTICLES ? { rows } : {}) }
  const clearHref = hrefFor({ first: null, ...Object.fromEntries(FILTER_COLUMNS.flatMap((column) => [[column.field, null], [modeParamOf(column.field), null]])) })
  const filtered = Object.keys(activeFilters(filterValues)).length > 0
  return (
    <>
      <section className={layout.card} aria-labelledby="articles-heading">
        <h1 id="articles-heading">Articles</h1>
        <div className={layout.toolbar}>
          <Link to="/articles/new">Add article</Link>
          <Link to="/articles/drafts">Drafts</Link>
          <Link to="/articles/import">Import</Link>
          <span className={layout.muted} role="status">
            {page.total_count} {filtered ? 'matching' : 'published'}
            {/* A filter refused beside its field is left out: the count must not pass for one filtered by it. */}
            {page.total_count > 0 && Object.keys(filterErrors).length > 0 ? ' (the filters marked in error are not applied)' : ''}
          </span>
        </div>
        <ColumnFilters
          key={location.search}
          id={FILTERS_FORM}
          label="Filter articles"
          action="/articles"
          columns={FILTER_COLUMNS}
          values={filterValues}
          keep={keep}
          clearHref={clearHref}
          errors={filterErrors}
        />
        <div className={table.tableWrap} aria-busy={isLoading || undefined} role="region" aria-label="Published articles" tabIndex={0}>
          <table aria-label="Published articles">
            <thead>
              <tr>
                {SORTABLE_COLUMNS.map((column) => (
                  <SortHeader key={column.field} label={column.label} field={column.field} sort={sort} form={FILTERS_FORM} />
                ))}
                <th scope="col">Source</th>
                <SortHeader label="Id" field="id" sort={sort} form={FILTERS_FORM} />
                <SortHeader label="Updated" field="timestamp" sort={sort} form={FILTERS_FORM} />
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {page.rows.map(([index, title, metadata, id, timestamp]) => (
                <tr key={id}>
                  <td className={table.numeric}>{index}</td>
                  <td className={table.titleCell}>
                    <Link to={`/articles/${id}`}>{title}</Link>
                  </td>
                  <td className={table.longValue}>
                      {/* A long address shows its first lines; the whole of it is on the article's own page. */}
                      {typeof metadata.source === 'string' ? (
                        <span className={table.clamp} title={metadata.source}>
                          {metadata.source}
                        </span>
                      ) : (
                        '—'
                      )}
                    </td>
                  <td className={table.numeric}>{id}</td>
                  <td>
                    <LocalTime iso={timestamp} />
                  </td>
                  <td>
                    <span className={table.actions}>
                      <Link to={`/articles/${id}`} aria-label={`View ${title}`}>
                        View
                      </Link>
                      <Link to={`/articles/${id}/edit`} aria-label={`Edit ${title}`}>
                        Edit
                      </Link>
                      <Link to={`/articles/${id}/delete`} aria-label={`Delete ${title}`}>
                        Delete
                      </Link>
                    </span>
                  </td>
                </tr>
              ))}
              {page.rows.length === 0 ? (
                <tr>
                  <td colSpan={6}>
                    {page.total_count > 0 ? (
                      // An address past the last page (a bookmark, a list that shrank).
                      <>
                        No articles on this page. <Link to={hrefFor({ first: null })}>Go to the first page</Link>
                      </>
                    ) : filtered ? (
                      'No articles match these filters.'
                    ) : (
                      'No published articles yet.'
                    )}
                  </td>
                </tr>
              ) : null}
            </tbody>
          </table>
        </div>
        <Pager label="Articles pages" first={first} rows={rows} total={page.total_count} hrefFor={(next) => hrefFor({ first: next || null })} />
      </section>
      <DeleteByTitle />
    </>
  )
}

/** Deletes every published article with a title; the required checkbox is the confirmation, with scripts on or off. */
function DeleteByTitle() {
  const actionData = useActionData<typeof action>()
  const navigation = useNavigation()
  const [form, fields] = useForm({
    id: 'delete-by-title',
    lastResult: navigation.state === 'idle' ? actionData?.result : undefined,
    constraint: getZodConstraint(DeleteByTitleForm),
    defaultNoValidate: false,
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: DeleteByTitleForm }),
  })
  const isDeleting = navigation.state === 'submitting' && navigation.formMethod === 'POST' && navigation.formAction?.startsWith('/articles')
  return (
    <section className={layout.card} aria-labelledby="delete-by-title-heading">
      <h2 id="delete-by-title-heading">Delete by title</h2>
      <p className={layout.muted}>Deletes every published article with this title (case does not matter). Their sources in the logs are marked deleted.</p>
      <Form method="post" {...getFormProps(form)} aria-labelledby="delete-by-title-heading">
        <TextField label="Title to delete" {...fieldProps(fields.title)} isRequired maxLength={500} />
        <p className={controls.field}>
          <label>
            <input {...getInputProps(fields.confirm, { type: 'checkbox' })} key={fields.confirm.key} required /> Yes, delete every article with this title
          </label>
          {fields.confirm.errors ? (
            <span id={fields.confirm.errorId} className={controls.error} role="alert">
              {fields.confirm.errors.join(' ')}
            </span>
          ) : null}
        </p>
        <Button variant="danger" isDisabled={isDeleting}>
          Delete by title
        </Button>
      </Form>
    </section>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
