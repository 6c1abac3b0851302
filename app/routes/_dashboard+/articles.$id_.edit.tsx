import { getFormProps, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { z } from 'zod'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { Button } from '~/components/ui/button'
import { TextField } from '~/components/ui/text-field'
import { ApiError } from '~/models/api.server'
import { updateArticle } from '~/models/articles.server'
import * as layout from '~/styles/layout.css'
import { requireApiSession } from '~/utils/auth.server'
import { articleIdOf, loadArticle, tooLongContentErrors } from '~/utils/article-route.server'
import { redirectWithToast } from '~/utils/session.server'
import { screenMeta } from '~/sponsors/meta'
import { readFormData } from '~/utils/form.server'

const ArticleForm = z.object({
  title: z.string({ error: 'Please enter a title' }).trim().min(1, 'Please enter a title').max(500, 'A title is at most 500 characters'),
  content: z.string({ error: 'Please enter the content' }).trim().min(1, 'Please enter the content'),
})

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => screenMeta(matches, `Edit ${data?.article.title ?? 'article'}`)


export async function loader({ request, params }: LoaderFunctionArgs) {
  return json(await loadArticle(request, params))
}

export async function action({ request, params }: ActionFunctionArgs) {
  const id = articleIdOf(params)
  const submission = parseWithZod(await readFormData(request), { schema: ArticleForm })
  if (submission.status !== 'success') return json({ result: submission.reply() }, { status: 400 })
  try {
    await updateArticle(await requireApiSession(request), id, submission.value)
  } catch (error) {
    if (error instanceof ApiError && error.status === 400) return json({ result: submission.reply({ fieldErrors: error.fieldErrors() }) }, { status: 400 })
    const tooLong = tooLongContentErrors(error)
    if (tooLong) return json({ result: submission.reply({ fieldErrors: tooLong }) }, { status: 413 })
    if (error instanceof ApiError && error.status === 404) throw new Response('This article does not exist or was deleted.', { status: 404 })
    throw error
  }
  return redirectWithToast(request, `/articles/${id}`, { summary: 'All Ok', message: 'Article updated and re-indexed' })
}

/** Edits a published article's title and content; saving re-indexes it, so answers use the new text at once. */
export default function EditArticleRoute() {
  const { article } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const navigation = useNavigation()
  const [form, fields] = useForm({
    id: 'edit-article',
    lastResult: actionData?.result,
    constraint: getZodConstraint(ArticleForm),
    defaultNoValidate: false,
    defaultValue: { title: article.title, content: article.content },
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ArticleForm }),
  })
  const initial = (value: unknown, fallback: string) => (typeof value === 'string' ? value : fallback)
  return (
    <section className={layout.card} aria-labelledby="edit-article-heading">
      <p>
        <Link to={`/articles/${article.id}`}>← {article.title}</Link>
      </p>
      <h1 id="edit-article-heading">Edit article</h1>
      <p className={layout.muted}>Saving re-indexes the article: answers use the new text at once.</p>
      <Form method="post" {...getFormProps(form)} aria-labelledby="edit-article-heading">
        <TextField
          label="Title"
          name={fields.title.name}
          id={fields.title.id}
          defaultValue={initial(fields.title.initialValue, article.title)}
          errors={fields.title.errors}
          isRequired
          maxLength={500}
        />
        <TextField
          label="Content"
          name={fields.content.name}
          id={fields.content.id}
          defaultValue={initial(fields.content.initialValue, article.content)}
          errors={fields.content.errors}
          isRequired
          isMultiline
          rows={16}
        />
        <div className={layout.toolbar}>
          <Button isDisabled={navigation.state === 'submitting'}>Save and re-index</Button>
          <Link to={`/articles/${article.id}`}>Cancel</Link>
        </div>
      </Form>
    </section>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
