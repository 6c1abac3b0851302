import { json, redirect, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useLoaderData, useLocation, useNavigation } from '@remix-run/react'
import { PAGE_SIZE_USERS, UserSortField, type User, type UserFilters } from '../../../contracts/users'
import * as usersTable from '~/components/administration/users-table.css'
import { BreakableText } from '~/components/data-table/breakable-text'
import { ColumnFilters } from '~/components/data-table/column-filters'
import * as table from '~/components/data-table/data-table.css'
import { Pager } from '~/components/data-table/pager'
import { SortHeader, type Sort } from '~/components/data-table/sort-header'
import { activeFilters, askedSortHref, hrefWith, modeParamOf, pastTheEndHref, readColumnFilters, readInteger, toBackendFilters, type FilterColumn } from '~/components/data-table/table-url'
import { TableScroll } from '~/components/data-table/table-scroll'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { LocalTime } from '~/components/local-time'
import { FailureMessage } from '~/components/settings/failure-message'
import { toFailure } from '~/components/settings/form-errors'
import { Button } from '~/components/ui/button'
import { TextField } from '~/components/ui/text-field'
import { ApiError } from '~/models/api.server'
import { listUsers } from '~/models/users.server'
import * as layout from '~/styles/layout.css'
import { requireApiSession } from '~/utils/auth.server'
import { withListBack } from '~/utils/list-back'
import { ROLE_LABELS } from '~/utils/role-labels'
import { screenMeta } from '~/sponsors/meta'

export const meta: MetaFunction = ({ matches }) => screenMeta(matches, 'Users')

/** The filterable columns and their kinds (contracts/users.ts: USER_FILTER_COLUMNS). */
const FILTER_COLUMNS = [
  { field: 'username', label: 'Username', kind: 'text' },
  { field: 'email', label: 'Email', kind: 'text' },
  { field: 'firstName', label: 'First name', kind: 'text' },
  { field: 'lastName', label: 'Last name', kind: 'text' },
  { field: 'organization_name', label: 'Organisation', kind: 'text' },
  { field: 'group_name', label: 'Group', kind: 'text' },
  { field: 'id', label: 'Id', kind: 'numeric' },
  { field: 'created_at', label: 'Created', kind: 'date' },
] as const satisfies readonly FilterColumn[]

/** The table's state lives in the URL (PRODUCT.md): the quick filter, first, rows (30), sortField (id), sortOrder (1), column filters. */
function readTableState(search: URLSearchParams) {
  const parsedSort = UserSortField.safeParse(search.get('sortField'))
  return {
    filter: (search.get('filter') ?? '').trim().slice(0, 200),
    first: readInteger(search, 'first', 0, { max: 1_000_000 }),
    rows: readInteger(search, 'rows', PAGE_SIZE_USERS, { min: 1, max: 500 }),
    sort: { field: parsedSort.success ? parsedSort.data : 'id', order: search.get('sortOrder') === '-1' ? -1 : 1 } as Sort,
    filterValues: readColumnFilters(search, FILTER_COLUMNS),
  }
}

/** The search and filter form, which the sort headers submit. */
const FILTERS_FORM = 'user-filters'

export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url)
  const sorted = askedSortHref(url)
  if (sorted) throw redirect(sorted)
  const state = readTableState(url.searchParams)
  const { filters, errors } = toBackendFilters(state.filterValues, FILTER_COLUMNS)
  let filterErrors: Record<string, string> = errors
  let page: Awaited<ReturnType<typeof listUsers>>
  try {
    page = await listUsers(await requireApiSession(request), {
      filter: state.filter,
      first: state.first,
      rows: state.rows,
      filters: filters as UserFilters,
      sortField: state.sort.field as UserSortField,
      sortOrder: state.sort.order,
    })
  } catch (error) {
    if (!(error instanceof ApiError)) throw error
    // A filter the backend refuses is said beside that filter; anything else as the page's failure.
    if (error.status === 400) {
      const fieldErrors = error.fieldErrors()
      filterErrors = { ...filterErrors }
      for (const column of FILTER_COLUMNS) {
        const message = fieldErrors[`filters.${column.field}`]?.join(' ')
        if (message) filterErrors[column.field] = message
      }
    }
    return json(
      { ...state, users: [] as User[], count: 0, failure: toFailure(error, 'Cannot get users'), filterErrors },
      { status: error.status >= 500 ? 502 : error.status },
    )
  }
  const lastPage = pastTheEndHref(url, { first: state.first, rows: state.rows, total: page.count })
  if (lastPage) throw redirect(lastPage)
  return json({ ...state, users: page.users, count: page.count, failure: null, filterErrors })
}

export default function UsersRoute() {
  const { filter, first, rows, sort, filterValues, users, count, failure, filterErrors } = useLoaderData<typeof loader>()
  const location = useLocation()
  const navigation = useNavigation()
  const isLoading = navigation.state === 'loading' && navigation.location.pathname === '/users'
  const hrefFor = (changes: Record<string, string | number | null>) => hrefWith('/users', location.search, changes)
  const keep: Record<string, string | number> = { sortField: sort.field, sortOrder: sort.order, ...(rows !== PAGE_SIZE_USERS ? { rows } : {}) }
  const clearHref = hrefFor({ first: null, filter: null, ...Object.fromEntries(FILTER_COLUMNS.flatMap((column) => [[column.field, null], [modeParamOf(column.field), null]])) })
  const isFiltered = Boolean(filter) || Object.keys(activeFilters(filterValues)).length > 0
  return (
    <section className={layout.card} aria-labelledby="users-heading">
      <h1 id="users-heading">Users</h1>
      <div className={layout.toolbar}>
        <Link to="/users/new">Add user</Link>
        <Link to="/users/new?invite=1">Invite user</Link>
        <Link to="/users/invitations">Invitation codes</Link>
        <Link to="/organisations">Organisations</Link>
      </div>
      {/* One form for the search and the column filters, so either button applies what is typed in both. */}
      <ColumnFilters
        key={location.search}
        id={FILTERS_FORM}
        label="Search and filter users"
        action="/users"
        columns={FILTER_COLUMNS}
        values={filterValues}
        keep={keep}
        clearHref={clearHref}
        errors={filterErrors}
        extraActiveCount={filter ? 1 : 0}
      >
        <div className={`${layout.toolbar} ${usersTable.searchRow}`} role="search" aria-label="Search users">
          <TextField label="Search" name="filter" type="search" defaultValue={filter} description="Matches username, email, first and last name." />
          <Button isDisabled={navigation.state === 'loading'}>Search</Button>
          {filter ? <Link to={hrefFor({ filter: null, first: null })}>Clear search</Link> : null}
        </div>
      </ColumnFilters>
      <FailureMessage failure={failure} />
      <p className={layout.muted} role="status">
        {count === 0 ? 'No users' : `${count} ${isFiltered ? 'matching ' : ''}${count === 1 ? 'user' : 'users'}`}
        {filter ? ` for “${filter}”` : ''}
      </p>
      <TableScroll label="Users" isBusy={isLoading}>
        <table aria-label="Users">
          <thead>
            <tr>
              <SortHeader label="Username" field="username" sort={sort} form={FILTERS_FORM} />
              <SortHeader label="First name" field="firstName" sort={sort} form={FILTERS_FORM} />
              <SortHeader label="Last name" field="lastName" sort={sort} form={FILTERS_FORM} />
              <SortHeader label="Email" field="email" sort={sort} form={FILTERS_FORM} />
              <SortHeader label="Organisation" field="organization_name" sort={sort} form={FILTERS_FORM} />
              <SortHeader label="Group" field="group_name" sort={sort} form={FILTERS_FORM} />
              <SortHeader label="Enabled" field="enabled" sort={sort} form={FILTERS_FORM} />
              <SortHeader label="Created" field="created_at" sort={sort} form={FILTERS_FORM} />
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {users.map((user) => (
              <tr key={user.id}>
                <td className={usersTable.address}>
                  <BreakableText text={user.username} />
                </td>
                <td>{user.firstName || '—'}</td>
                <td>{user.lastName || '—'}</td>
                <td className={usersTable.address}>
                  <BreakableText text={user.email} />
                </td>
                <td>{user.organization_name}</td>
                <td>
                  {user.group_name} <span className={layout.muted}>({ROLE_LABELS[user.role]})</span>
                </td>
                <td>{user.enabled ? 'Yes' : 'No'}</td>
                <td>
                  <LocalTime iso={user.created_at} />
                </td>
                <td>
                  <span className={table.actions}>
                    <Link to={withListBack(`/users/${user.id}`, location)} aria-label={`Edit ${user.username}`}>
                      Edit
                    </Link>
                  </span>
                </td>
              </tr>
            ))}
            {users.length === 0 && !failure ? (
              <tr>
                <td colSpan={9}>{isFiltered ? 'No user matches these filters.' : 'No users yet.'}</td>
              </tr>
            ) : null}
          </tbody>
        </table>
      </TableScroll>
      <Pager label="Users pages" first={first} rows={rows} total={count} hrefFor={(next) => hrefFor({ first: next || null })} />
    </section>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
