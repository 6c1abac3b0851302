import { parseWithZod } from '@conform-to/zod/v4'
import { json, type ActionFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useActionData } from '@remix-run/react'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { templateFailureReply } from '~/components/settings/form-errors'
import { TemplateFormBody } from '~/components/settings/template-form'
import { TemplateForm } from '~/components/settings/template-form-schema'
import { ApiError } from '~/models/api.server'
import { createTemplate } from '~/models/templates.server'
import { requireApiSession } from '~/utils/auth.server'
import { redirectWithToast } from '~/utils/session.server'
import { screenMeta } from '~/sponsors/meta'
import { readFormData } from '~/utils/form.server'

export const meta: MetaFunction = ({ matches }) => screenMeta(matches, 'New template · Settings')

export async function action({ request }: ActionFunctionArgs) {
  const submission = parseWithZod(await readFormData(request), { schema: TemplateForm })
  // A section added, removed or moved (without scripts), or a refused form: show the form again.
  if (submission.status !== 'success') return json({ result: submission.reply() }, { status: submission.status === 'error' ? 400 : 200 })
  try {
    await createTemplate(await requireApiSession(request), submission.value)
  } catch (error) {
    if (!(error instanceof ApiError)) throw error
    return json({ result: submission.reply(templateFailureReply(error, 'Cannot create template')) }, { status: error.status })
  }
  return redirectWithToast(request, '/settings/templates', { summary: 'Success', message: 'Template added' })
}

export default function NewTemplateRoute() {
  const actionData = useActionData<typeof action>()
  return (
    <>
      <p>
        <Link to="/settings/templates">← Templates</Link>
      </p>
      <h2>New template</h2>
      <TemplateFormBody
        id="template"
        defaultValue={{ name: '', description: '', instructions: '', sections: [] }}
        lastResult={actionData?.result}
        submitLabel="Add template"
      />
    </>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
