import { getFormProps, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { json, type ActionFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useActionData, useNavigation } from '@remix-run/react'
import { z } from 'zod'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { Button } from '~/components/ui/button'
import { fieldProps, TextField } from '~/components/ui/text-field'
import { ApiError } from '~/models/api.server'
import { createDraft } from '~/models/articles.server'
import * as layout from '~/styles/layout.css'
import { redirectWithToast } from '~/utils/session.server'
import { requireApiSession } from '~/utils/auth.server'
import { screenMeta } from '~/sponsors/meta'
import { readFormData } from '~/utils/form.server'
import { tooLongContentErrors } from '~/utils/article-route.server'

const ArticleForm = z.object({
  title: z.string({ error: 'Please enter a title' }).trim().min(1, 'Please enter a title').max(500, 'A title is at most 500 characters'),
  content: z.string({ error: 'Please enter the content' }).trim().min(1, 'Please enter the content'),
})

export const meta: MetaFunction = ({ matches }) => screenMeta(matches, 'Add article')

export async function action({ request }: ActionFunctionArgs) {
  const submission = parseWithZod(await readFormData(request), { schema: ArticleForm })
  if (submission.status !== 'success') return json({ result: submission.reply() }, { status: 400 })
  try {
    await createDraft(await requireApiSession(request), submission.value)
  } catch (error) {
    if (error instanceof ApiError && error.status === 400) return json({ result: submission.reply({ fieldErrors: error.fieldErrors() }) }, { status: 400 })
    const tooLong = tooLongContentErrors(error)
    if (tooLong) return json({ result: submission.reply({ fieldErrors: tooLong }) }, { status: 413 })
    throw error
  }
  return redirectWithToast(request, '/articles/drafts', { summary: 'All Ok', message: 'Draft saved. Publish it to use it in answers.' })
}

export default function NewArticleRoute() {
  const actionData = useActionData<typeof action>()
  const navigation = useNavigation()
  const [form, fields] = useForm({
    id: 'article',
    lastResult: actionData?.result,
    constraint: getZodConstraint(ArticleForm),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ArticleForm }),
  })
  return (
    <section className={layout.card} aria-labelledby="new-article-heading">
      <p>
        <Link to="/articles">← Articles</Link>
      </p>
      <h1 id="new-article-heading">Add article</h1>
      <p className={layout.muted}>A new article is saved as a draft. Publish it from Drafts to use it in answers.</p>
      <Form method="post" {...getFormProps(form)}>
        <TextField label="Title" {...fieldProps(fields.title)} isRequired maxLength={500} />
        <TextField
          label="Content"
          {...fieldProps(fields.content)}
          description="Markdown is welcome: headings, lists and paragraphs become separate passages."
          isRequired
          isMultiline
          rows={12}
        />
        <Button isDisabled={navigation.state === 'submitting'}>Save draft</Button>
      </Form>
    </section>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
