import { getFormProps, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { z } from 'zod'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { LocalTime } from '~/components/local-time'
import { Markdown } from '~/components/markdown/markdown'
import { Button } from '~/components/ui/button'
import * as controls from '~/components/ui/controls.css'
import { TextField } from '~/components/ui/text-field'
import { ApiError } from '~/models/api.server'
import { deleteDraft, getDraft, publishDrafts, updateDraft } from '~/models/articles.server'
import * as layout from '~/styles/layout.css'
import { requireApiSession } from '~/utils/auth.server'
import { redirectWithToast } from '~/utils/session.server'
import { screenMeta } from '~/sponsors/meta'
import { readFormData } from '~/utils/form.server'
import { tooLongContentErrors } from '~/utils/article-route.server'

const DraftForm = z.object({
  title: z.string({ error: 'Please enter a title' }).trim().min(1, 'Please enter a title').max(500, 'A title is at most 500 characters'),
  content: z.string({ error: 'Please enter the content' }).trim().min(1, 'Please enter the content'),
})

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => screenMeta(matches, `Draft ${data?.draft.title ?? ''}`)

function draftIdOf(params: { id?: string }) {
  const id = Number(params.id)
  if (!Number.isInteger(id) || id <= 0 || id > 2_147_483_647) throw new Response('No such draft', { status: 404 })
  return id
}

const EDIT_FORM_ID = 'edit-draft'

const notFound = () => new Response('This draft does not exist any more: it was published or deleted.', { status: 404 })

export async function loader({ request, params }: LoaderFunctionArgs) {
  const id = draftIdOf(params)
  try {
    return json({ draft: await getDraft(await requireApiSession(request), id) })
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) throw notFound()
    throw error
  }
}

export async function action({ request, params }: ActionFunctionArgs) {
  const id = draftIdOf(params)
  const formData = await readFormData(request)
  const intent = formData.get('intent')
  const api = await requireApiSession(request)
  try {
    if (intent === 'delete') {
      if (formData.get('confirm') !== 'on') return json({ intent, result: null, error: 'Please confirm that this draft is deleted' }, { status: 400 })
      await deleteDraft(api, id)
      return redirectWithToast(request, '/articles/drafts', { summary: 'All Ok', message: 'Draft deleted' })
    }
    // "Publish this draft" submits the edit form (its `publish` button): what is typed there is saved first, so an
    // edit not yet saved is published, not lost. A post with no title and content (an older page) publishes as saved.
    const publishes = intent === 'publish' || formData.has('publish')
    if (!publishes || formData.has('title') || formData.has('content')) {
      const submission = parseWithZod(formData, { schema: DraftForm })
      if (submission.status !== 'success') return json({ intent: 'update', result: submission.reply(), error: null }, { status: 400 })
      try {
        await updateDraft(api, id, submission.value)
      } catch (error) {
        // update_temp_doc is an (E) call: its error body names the fields it refuses.
        if (error instanceof ApiError && error.status === 400) {
          return json({ intent: 'update', result: submission.reply({ fieldErrors: error.fieldErrors() }), error: null }, { status: 400 })
        }
        const tooLong = tooLongContentErrors(error)
        if (tooLong) return json({ intent: 'update', result: submission.reply({ fieldErrors: tooLong }), error: null }, { status: 413 })
        throw error
      }
    }
    if (publishes) {
      const started = await publishDrafts(api, [id])
      return redirectWithToast(request, `/articles/drafts?task=${encodeURIComponent(started.task_id ?? '')}`, { summary: 'All Ok', message: 'Publishing started' })
    }
    return redirectWithToast(request, `/articles/drafts/${id}`, { summary: 'All Ok', message: 'Draft updated' })
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) throw notFound()
    throw error
  }
}

/** One draft: edit its title and content, publish it, or delete it (a required checkbox confirms). */
export default function DraftRoute() {
  const { draft } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const navigation = useNavigation()
  const isBusy = navigation.state === 'submitting'
  return (
    <>
      <section className={layout.card} aria-labelledby="draft-heading">
        <p>
          <Link to="/articles/drafts">← Drafts</Link>
        </p>
        <h1 id="draft-heading">Draft: {draft.title}</h1>
        <p className={layout.muted}>
          Draft {draft.id} · saved <LocalTime iso={draft.timestamp} />
          {typeof draft.metadata.source === 'string' ? <> · source {draft.metadata.source}</> : null}
        </p>
        {/* A saved change is a new timestamp: the form starts again from the saved text. */}
        <DraftEditForm key={draft.timestamp} draft={draft} />
      </section>

      <section className={layout.card} aria-labelledby="draft-preview-heading">
        <h2 id="draft-preview-heading">Preview</h2>
        <p className={layout.muted}>The saved content as readers will see it once the draft is published.</p>
        <Markdown source={draft.content} headingLevel={3} />
      </section>

      <section className={layout.card} aria-labelledby="draft-publish-heading">
        <h2 id="draft-publish-heading">Publish</h2>
        <p className={layout.muted}>Publishing saves the title and content above and indexes the draft so that answers can use it.</p>
        {/* A button of the edit form, so that an edit not yet saved is published with it. */}
        <Button variant="secondary" isDisabled={isBusy} form={EDIT_FORM_ID} name="publish" value="1">
          Publish this draft
        </Button>
      </section>

      <section className={layout.card} aria-labelledby="draft-delete-heading">
        <h2 id="draft-delete-heading">Delete draft</h2>
        <Form method="post" aria-labelledby="draft-delete-heading">
          <input type="hidden" name="intent" value="delete" />
          <p className={controls.field}>
            <label>
              <input type="checkbox" name="confirm" required /> Yes, delete this draft
            </label>
            {actionData?.intent === 'delete' && actionData.error ? (
              <span className={controls.error} role="alert">
                {actionData.error}
              </span>
            ) : null}
          </p>
          <Button variant="danger" isDisabled={isBusy}>
            Delete draft
          </Button>
        </Form>
      </section>
    </>
  )
}

function DraftEditForm({ draft }: { draft: { title: string; content: string } }) {
  const actionData = useActionData<typeof action>()
  const navigation = useNavigation()
  const [form, fields] = useForm({
    id: EDIT_FORM_ID,
    lastResult: actionData?.intent === 'update' ? (actionData.result ?? undefined) : undefined,
    constraint: getZodConstraint(DraftForm),
    defaultNoValidate: false,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: DraftForm }),
  })
  const initial = (value: unknown, fallback: string) => (typeof value === 'string' ? value : fallback)
  return (
    <Form method="post" {...getFormProps(form)} aria-label="Edit draft">
      <input type="hidden" name="intent" value="update" />
      <TextField
        label="Title"
        name={fields.title.name}
        id={fields.title.id}
        defaultValue={initial(fields.title.initialValue, draft.title)}
        errors={fields.title.errors}
        isRequired
        maxLength={500}
      />
      <TextField
        label="Content"
        name={fields.content.name}
        id={fields.content.id}
        defaultValue={initial(fields.content.initialValue, draft.content)}
        errors={fields.content.errors}
        isRequired
        isMultiline
        rows={14}
      />
      <Button isDisabled={navigation.state === 'submitting'}>Save draft</Button>
    </Form>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
