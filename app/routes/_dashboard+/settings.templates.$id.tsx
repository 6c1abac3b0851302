import { parseWithZod } from '@conform-to/zod/v4'
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useActionData, useLoaderData } from '@remix-run/react'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { LocalTime } from '~/components/local-time'
import { templateFailureReply, toFailure } from '~/components/settings/form-errors'
import { TemplateFormBody } from '~/components/settings/template-form'
import { TemplateForm } from '~/components/settings/template-form-schema'
import { ApiError } from '~/models/api.server'
import { getTemplate, updateTemplate } from '~/models/templates.server'
import * as layout from '~/styles/layout.css'
import { requireApiSession } from '~/utils/auth.server'
import { redirectWithToast } from '~/utils/session.server'
import { screenMeta } from '~/sponsors/meta'
import { readFormData } from '~/utils/form.server'

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => screenMeta(matches, `${data?.template.name ?? 'Template'} · Templates`)

function templateId(params: { id?: string }) {
  const id = Number(params.id)
  if (!Number.isInteger(id) || id <= 0 || id > 2_147_483_647) throw new Response('No such template', { status: 404 })
  return id
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const id = templateId(params)
  try {
    return json({ template: await getTemplate(await requireApiSession(request), id) })
  } catch (error) {
    if (!(error instanceof ApiError)) throw error
    // Back to the list, with SEED.md §8's error toast (the backend's message, else 'Cannot get template').
    throw await redirectWithToast(request, '/settings/templates', { severity: 'error', ...toFailure(error, 'Cannot get template') })
  }
}

export async function action({ request, params }: ActionFunctionArgs) {
  const id = templateId(params)
  const submission = parseWithZod(await readFormData(request), { schema: TemplateForm })
  if (submission.status !== 'success') return json({ result: submission.reply() }, { status: submission.status === 'error' ? 400 : 200 })
  try {
    await updateTemplate(await requireApiSession(request), { id, ...submission.value })
  } catch (error) {
    if (!(error instanceof ApiError)) throw error
    return json({ result: submission.reply(templateFailureReply(error, 'Cannot update template')) }, { status: error.status })
  }
  return redirectWithToast(request, '/settings/templates', { summary: 'Success', message: 'Template updated' })
}

export default function EditTemplateRoute() {
  const { template } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  return (
    <>
      <p>
        <Link to="/settings/templates">← Templates</Link>
      </p>
      <h2>Edit template</h2>
      <p className={layout.muted}>
        Template {template.id} · updated <LocalTime iso={template.updated_at} /> ·{' '}
        <Link to={`/settings/templates?delete=${template.id}`}>Delete this template</Link>
      </p>
      <TemplateFormBody
        key={template.id}
        id={`template-${template.id}`}
        defaultValue={{ name: template.name, description: template.description, instructions: template.instructions, sections: template.sections }}
        lastResult={actionData?.result}
        submitLabel="Save template"
      />
    </>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
