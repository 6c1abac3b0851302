import { json, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useLoaderData, useNavigation } from '@remix-run/react'
import { z } from 'zod'
import { PAGE_SIZE_USERS, type User } from '../../../contracts/users'
import { TableScroll } from '~/components/data-table/table-scroll'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { FailureMessage } from '~/components/settings/failure-message'
import { toFailure } from '~/components/settings/form-errors'
import { Button } from '~/components/ui/button'
import { TextField } from '~/components/ui/text-field'
import { ApiError } from '~/models/api.server'
import { listUsers } from '~/models/users.server'
import * as layout from '~/styles/layout.css'
import { requireApiSession } from '~/utils/auth.server'
import { screenMeta } from '~/sponsors/meta'

export const meta: MetaFunction = ({ matches }) => screenMeta(matches, 'Users')

/** The table's state lives in the URL (PRODUCT.md): the filter and the first row of the page. */
const UsersSearch = z.object({
  filter: z.string().trim().max(200).catch(''),
  first: z.coerce.number().int().min(0).max(1_000_000).catch(0),
})

export async function loader({ request }: LoaderFunctionArgs) {
  const search = UsersSearch.parse({ filter: '', first: 0, ...Object.fromEntries(new URL(request.url).searchParams) })
  try {
    const page = await listUsers(await requireApiSession(request), search)
    return json({ ...search, users: page.users, count: page.count, failure: null })
  } catch (error) {
    if (!(error instanceof ApiError)) throw error
    return json(
      { ...search, users: [] as User[], count: 0, failure: toFailure(error, 'Cannot get users') },
      { status: error.status >= 500 ? 502 : error.status },
    )
  }
}

export default function UsersRoute() {
  const { filter, first, users, count, failure } = useLoaderData<typeof loader>()
  const navigation = useNavigation()
  const hrefAt = (start: number) => `/users?${new URLSearchParams({ ...(filter ? { filter } : {}), first: String(start) })}`
  const returnTo = hrefAt(first)
  return (
    <section className={layout.card} aria-labelledby="users-heading">
      <h1 id="users-heading">Users</h1>
      <Form method="get" className={layout.toolbar} role="search" aria-label="Filter users">
        <TextField label="Filter" name="filter" type="search" defaultValue={filter} description="Matches username, email, first and last name." />
        <Button isDisabled={navigation.state === 'loading'}>Filter</Button>
        {filter ? <Link to="/users">Clear filter</Link> : null}
      </Form>
      <FailureMessage failure={failure} />
      <p className={layout.muted} role="status">
        {count === 0 ? 'No users' : `${first + 1}–${Math.min(first + users.length, count)} of ${count} users`}
        {filter ? ` matching “${filter}”` : ''}
      </p>
      <TableScroll label="Users">
        <table aria-label="Users">
          <thead>
            <tr>
              <th scope="col">Username</th>
              <th scope="col">Name</th>
              <th scope="col">Email</th>
              <th scope="col">Organisation</th>
              <th scope="col">Group</th>
              <th scope="col">Enabled</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {users.map((user) => (
              <tr key={user.id}>
                <td>{user.username}</td>
                <td>{[user.firstName, user.lastName].filter(Boolean).join(' ') || '—'}</td>
                <td>{user.email}</td>
                <td>{user.organization_name}</td>
                <td>{user.group_name}</td>
                <td>{user.enabled ? 'Yes' : 'No'}</td>
                <td>
                  <Link to={`/users/${user.id}?${new URLSearchParams({ back: returnTo })}`} aria-label={`Edit ${user.username}`}>
                    Edit
                  </Link>
                </td>
              </tr>
            ))}
            {users.length === 0 && !failure ? (
              <tr>
                <td colSpan={7}>{filter ? 'No user matches this filter.' : 'No users yet.'}</td>
              </tr>
            ) : null}
          </tbody>
        </table>
      </TableScroll>
      <nav className={layout.pager} aria-label="Pages">
        {first > 0 ? <Link to={hrefAt(Math.max(0, first - PAGE_SIZE_USERS))}>Previous</Link> : null}
        {first + PAGE_SIZE_USERS < count ? <Link to={hrefAt(first + PAGE_SIZE_USERS)}>Next</Link> : null}
      </nav>
    </section>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
