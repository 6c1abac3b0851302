import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useLoaderData, useNavigation } from '@remix-run/react'
import { z } from 'zod'
import type { Template } from '../../../contracts/templates'
import * as table from '~/components/data-table/data-table.css'
import { TableScroll } from '~/components/data-table/table-scroll'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { LocalTime } from '~/components/local-time'
import { FailureMessage } from '~/components/settings/failure-message'
import { toFailure } from '~/components/settings/form-errors'
import * as styles from '~/components/settings/settings.css'
import { Button } from '~/components/ui/button'
import { ApiError } from '~/models/api.server'
import { deleteTemplate, listTemplates } from '~/models/templates.server'
import * as layout from '~/styles/layout.css'
import { requireApiSession } from '~/utils/auth.server'
import { redirectWithToast } from '~/utils/session.server'
import { screenMeta } from '~/sponsors/meta'
import { badForm, readFormData } from '~/utils/form.server'

export const meta: MetaFunction = ({ matches }) => screenMeta(matches, 'Templates · Settings')

export async function loader({ request }: LoaderFunctionArgs) {
  const confirmDelete = Number(new URL(request.url).searchParams.get('delete')) || null
  try {
    const page = await listTemplates(await requireApiSession(request))
    return json({ templates: page.rows, total: page.total_count, confirmDelete, failure: null })
  } catch (error) {
    if (!(error instanceof ApiError)) throw error
    return json(
      { templates: [] as Template[], total: 0, confirmDelete, failure: toFailure(error, 'Cannot get templates') },
      { status: error.status >= 500 ? 502 : error.status },
    )
  }
}

const DeleteForm = z.object({ intent: z.literal('delete'), id: z.coerce.number().int().positive() })

export async function action({ request }: ActionFunctionArgs) {
  const parsed = DeleteForm.safeParse(Object.fromEntries(await readFormData(request)))
  if (!parsed.success) throw badForm('This form does not name a template to delete.')
  try {
    await deleteTemplate(await requireApiSession(request), parsed.data.id)
  } catch (error) {
    if (!(error instanceof ApiError)) throw error
    return redirectWithToast(request, '/settings/templates', { severity: 'error', ...toFailure(error, 'Cannot delete template') })
  }
  return redirectWithToast(request, '/settings/templates', { summary: 'Success', message: 'Template deleted' })
}

export default function TemplatesRoute() {
  const { templates, total, confirmDelete, failure } = useLoaderData<typeof loader>()
  const navigation = useNavigation()
  const toDelete = templates.find((template) => template.id === confirmDelete)
  return (
    <>
      <h2>Templates</h2>
      <p>The documents the government agent fills in from the knowledge base, section by section.</p>
      <FailureMessage failure={failure} />
      {toDelete ? (
        <section className={styles.confirm} role="alertdialog" aria-labelledby="confirm-delete-heading" aria-describedby="confirm-delete-text">
          <h3 id="confirm-delete-heading">Delete template “{toDelete.name}”?</h3>
          <p id="confirm-delete-text">The government agent can no longer use it. This cannot be undone.</p>
          <Form method="post" action="/settings/templates?index" className={layout.toolbar}>
            <input type="hidden" name="intent" value="delete" />
            <input type="hidden" name="id" value={toDelete.id} />
            <Button variant="danger" isDisabled={navigation.state === 'submitting'}>
              Delete template
            </Button>
            <Link to="/settings/templates">Keep it</Link>
          </Form>
        </section>
      ) : null}
      <div className={layout.toolbar}>
        <Link to="/settings/templates/new">New template</Link>
        <span className={layout.muted}>
          {total} {total === 1 ? 'template' : 'templates'}
        </span>
      </div>
      <TableScroll label="Templates">
        <table aria-label="Templates">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Description</th>
              <th scope="col">Sections</th>
              <th scope="col">Updated</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {templates.map((template) => (
              <tr key={template.id}>
                <td>
                  <Link to={`/settings/templates/${template.id}`}>{template.name}</Link>
                </td>
                <td>
                  <span className={table.clamp}>{template.description || '—'}</span>
                </td>
                <td>
                  {template.sections.length ? (
                    <span className={table.clamp}>{template.sections.map((section) => section.title).join(' · ')}</span>
                  ) : (
                    // Saved before a section was required: the government agent does not offer it until it has one.
                    <span className={table.clamp}>None: add one, or the government agent does not offer it</span>
                  )}
                </td>
                <td>
                  <LocalTime iso={template.updated_at} />
                </td>
                <td>
                  <Link to={`/settings/templates?delete=${template.id}`} aria-label={`Delete ${template.name}`}>
                    Delete
                  </Link>
                </td>
              </tr>
            ))}
            {templates.length === 0 && !failure ? (
              <tr>
                <td colSpan={5}>No templates yet.</td>
              </tr>
            ) : null}
          </tbody>
        </table>
      </TableScroll>
    </>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
