import { getFormProps, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useActionData, useFetcher, useLoaderData, useLocation } from '@remix-run/react'
import type { QueryLog } from '../../../contracts/query-logs'
import { readInteger } from '~/components/data-table/table-url'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { RelatedArticles } from '~/components/ask/related-articles'
import { LocalTime } from '~/components/local-time'
import { ActionButtonForm, CommentForm } from '~/components/logs/comment-form'
import { LogForms, type LogFormData } from '~/components/logs/log-forms'
import * as styles from '~/components/logs/logs.css'
import { errorToast, respondWithToast } from '~/components/logs/respond.server'
import { EnhancedField } from '~/components/logs/use-hydrated'
import { Markdown } from '~/components/markdown/markdown'
import { markdownExcerpt } from '~/components/markdown/markdown-document'
import { Button } from '~/components/ui/button'
import { TextField } from '~/components/ui/text-field'
import { ApiError, type ApiSession } from '~/models/api.server'
import { createDraftFromAnswer } from '~/models/articles.server'
import { addComment, deleteComment, deleteMainComment, getQueryLog, listFavorites, saveFavorite, setMainComment, updateComment } from '~/models/query-logs.server'
import * as layout from '~/styles/layout.css'
import { requireApiSession } from '~/utils/auth.server'
import { humanize, modeLabel, statusLabel } from '~/utils/labels'
import { listBack } from '~/utils/list-back'
import { backHere, readerHref } from '~/utils/reader'
import { redirectWithToast } from '~/utils/session.server'
import { screenMeta } from '~/sponsors/meta'
import { assertOnlyTypedFieldsFailed, readFormData, unknownIntent } from '~/utils/form.server'
import { formatDuration } from '~/utils/format'

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => screenMeta(matches, data && 'log' in data ? `Log ${data.log.id}` : 'Log')

const FETCH_FAILED = 'Cannot fetch query log by id'
const DELETE_FAILED = 'Cannot delete comment'
const SAVE_FAILED = 'Cannot save or update query'

/** What could not be done, by form, when the log itself is gone: said on the list, since the log's page is gone too. */
const GONE_FAILED: Record<keyof typeof LogForms, string> = {
  'main-save': 'Cannot save the main comment',
  'main-delete': 'Cannot delete the main comment',
  'comment-add': 'Cannot add comment',
  'comment-update': 'Cannot update comment',
  'comment-delete': DELETE_FAILED,
  favorite: SAVE_FAILED,
  draft: 'Cannot save the draft',
}

const logIdOf = (params: { id?: string }) => {
  const id = Number(params.id)
  return Number.isInteger(id) && id > 0 && id <= 2_147_483_647 ? id : null
}

/** The log's page, keeping the list it was opened from (its `back`), with `extra` parameters. */
const logPageHref = (logId: number, list: string, extra: Record<string, string> = {}) => {
  const search = new URLSearchParams({ ...(list === '/logs' ? {} : { back: list }), ...extra }).toString()
  return `/logs/${logId}${search ? `?${search}` : ''}`
}

/** Whether the log is gone (deleted since its page was shown, or never was); not when the backend cannot say. */
async function isLogGone(api: ApiSession, logId: number) {
  try {
    await getQueryLog(api, logId)
    return false
  } catch (error) {
    return error instanceof ApiError && error.status === 404
  }
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const logId = logIdOf(params)
  // The list the log was opened from, as it was: its filters, sort and the pages loaded.
  const back = listBack(request.url, '/logs')
  // SEED.md §8: a log that cannot be fetched is an error toast, back on the list.
  const fail = () => redirectWithToast(request, back, errorToast(FETCH_FAILED))
  if (!logId) return fail()
  try {
    const api = await requireApiSession(request)
    // The reader's own saved query of this log, if any: the save form shows its note, so saving again keeps it.
    const [log, favorites] = await Promise.all([getQueryLog(api, logId), listFavorites(api).catch(() => [])])
    const savedNote = favorites.find((favorite) => favorite.log_id === logId)?.comment ?? null
    return json({ log, savedNote, back, draftId: readInteger(new URL(request.url).searchParams, 'draft', 0) || null })
  } catch (error) {
    if (error instanceof ApiError) return fail()
    throw error
  }
}

export async function action({ request, params }: ActionFunctionArgs) {
  const logId = logIdOf(params)
  if (!logId) throw new Response('No such log', { status: 404 })
  const formData = await readFormData(request)
  const intent = String(formData.get('intent'))
  if (!Object.hasOwn(LogForms, intent)) throw unknownIntent(intent)
  const formId = String(formData.get('form_id') ?? intent)
  const list = listBack(request.url, '/logs')
  const back = logPageHref(logId, list)
  const isEnhanced = formData.get('enhanced') === '1'
  const api = await requireApiSession(request)
  const submission = parseWithZod(formData, { schema: LogForms[intent as keyof typeof LogForms] })
  if (submission.status !== 'success') {
    assertOnlyTypedFieldsFailed(submission.error, ['comment', 'question', 'answer'])
    return json<LogFormData>({ formId, result: submission.reply() }, { status: 400 })
  }
  const value = submission.value
  const done = (message: string, extra: Partial<LogFormData> = {}, redirectTo = back) =>
    respondWithToast<LogFormData>(request, { isEnhanced, redirectTo, data: { formId, ...extra }, toast: { summary: 'All Ok', message } })
  const failed = async (error: ApiError, message: string) => {
    // A log gone meanwhile: its page would only say that it cannot be fetched, so the list says what failed and why.
    if (error.status === 404 && (await isLogGone(api, logId))) return redirectWithToast(request, list, errorToast(`${GONE_FAILED[value.intent]}: log ${logId} no longer exists`))
    return respondWithToast<LogFormData>(request, { isEnhanced, redirectTo: back, data: { formId }, toast: errorToast(message) })
  }
  try {
    switch (value.intent) {
      case 'main-save':
        return done((await setMainComment(api, logId, value.comment)).message)
      case 'comment-add':
        await addComment(api, logId, value.comment)
        return done('Comment added')
      case 'comment-update':
        await updateComment(api, value.comment_id, value.comment)
        return done('Comment updated')
      case 'main-delete':
      case 'comment-delete':
        try {
          await (value.intent === 'main-delete' ? deleteMainComment(api, logId) : deleteComment(api, value.comment_id))
        } catch (error) {
          if (error instanceof ApiError) return failed(error, DELETE_FAILED)
          throw error
        }
        return done('Comment deleted')
      case 'favorite':
        try {
          return done((await saveFavorite(api, { logId, comment: value.comment })).message)
        } catch (error) {
          if (error instanceof ApiError) return failed(error, SAVE_FAILED)
          throw error
        }
      case 'draft': {
        const draft = await createDraftFromAnswer(api, { question: value.question, answer: value.answer, logId })
        return done('Draft saved', { draftId: draft.id }, logPageHref(logId, list, { draft: String(draft.id) }))
      }
    }
  } catch (error) {
    if (!(error instanceof ApiError)) throw error
    // upload_recovery_answer is an (E) call: its error body names the fields it refuses; so do the comment calls.
    if (error.status === 400) {
      const fieldErrors = error.fieldErrors()
      return json<LogFormData>({ formId, result: submission.reply({ fieldErrors: Object.keys(fieldErrors).length ? fieldErrors : { comment: [error.message] } }) }, { status: 400 })
    }
    return failed(error, error.message)
  }
}

/** One query log: the answer, its sources (deleted ones marked), feedback, the comments, and what can be made of it. */
export default function LogRoute() {
  const { log, draftId, savedNote, back } = useLoaderData<typeof loader>() as { log: QueryLog; draftId: number | null; savedNote: string | null; back: string }
  const location = useLocation()
  return (
    <>
      <section className={layout.card} aria-labelledby="log-heading">
        <p>
          <Link to={back}>← Logs</Link>
        </p>
        <h1 id="log-heading">Log {log.id}</h1>
        <dl className={styles.facts}>
          <dt>Question</dt>
          <dd>{log.command}</dd>
          <dt>Asked</dt>
          <dd>
            <LocalTime iso={log.timestamp} />
          </dd>
          <dt>By</dt>
          <dd>{log.username ?? '—'}</dd>
          <dt>Mode</dt>
          <dd>{modeLabel(log.mode, log.variant)}</dd>
          <dt>Status</dt>
          <dd>{statusLabel(log.status)}</dd>
          <dt>Feedback</dt>
          <dd>
            {log.feedback === 'like' ? 'Liked' : log.feedback === 'dislike' ? 'Disliked' : 'No feedback'}
            {/* The asker's reason, given with the rating on the Ask screen: why the answer did or did not help. */}
            {log.feedback && log.feedback_reason ? <span data-testid="feedback-reason">: “{log.feedback_reason}”</span> : null}
          </dd>
          {log.duration_ms !== null ? (
            <>
              <dt>Took</dt>
              <dd>{formatDuration(log.duration_ms)}</dd>
            </>
          ) : null}
        </dl>
      </section>

      {log.steps.length ? (
        <section className={layout.card} aria-labelledby="log-steps-heading">
          <h2 id="log-steps-heading">Steps</h2>
          <details>
            <summary>{log.steps.length} steps of the agent run</summary>
            <ol aria-label="Steps">
              {log.steps.map((entry, index) => (
                <li key={index}>
                  <strong>{entry.tool ? `${humanize(entry.step)}: ${humanize(entry.tool)}` : humanize(entry.step)}</strong> ({statusLabel(entry.status).toLowerCase()}, {entry.duration_ms} ms) {entry.detail}
                  {entry.error ? <span className={layout.muted}> {entry.error}</span> : null}
                </li>
              ))}
            </ol>
          </details>
        </section>
      ) : null}

      <section className={layout.card} aria-labelledby="log-answer-heading">
        <h2 id="log-answer-heading">Answer</h2>
        {log.answer ? (
          <Markdown
            source={log.answer}
            headingLevel={3}
            citation={(n) => (log.source_list[n - 1] ? { href: `#log-source-${n}`, title: log.source_list[n - 1].metadata.title || log.source_list[n - 1].metadata.source } : undefined)}
          />
        ) : (
          <p className={layout.muted}>No answer was given ({statusLabel(log.status).toLowerCase()}).</p>
        )}
        <h3 id="log-sources-heading">Sources</h3>
        {log.source_list.length ? (
          <ol aria-labelledby="log-sources-heading">
            {log.source_list.map((source, index) => (
              <li key={`${source.metadata.id}-${index}`} id={`log-source-${index + 1}`}>
                {source.metadata.is_deleted ? (
                  <>
                    {source.metadata.title || source.metadata.source} <span className={styles.deleted}>(deleted)</span>
                  </>
                ) : (
                  <Link to={readerHref(source.metadata.doc_id, source.metadata.id, backHere(location, `log-source-${index + 1}`))}>{source.metadata.title || source.metadata.source}</Link>
                )}
                {source.page_content ? <p className={styles.excerpt}>{excerptOf(source.page_content)}</p> : null}
              </li>
            ))}
          </ol>
        ) : (
          <p className={layout.muted}>No sources.</p>
        )}
        {/* Near misses: what the asker was pointed to, and where an article could say it better. */}
        <RelatedArticles
          articles={log.related_list}
          headingId="log-related-heading"
          back={backHere(location, 'log-related-heading')}
          note="Listed for the asker: their passages came close to the question without answering it."
        />
      </section>

      <section className={layout.card} aria-labelledby="comments-heading">
        <h2 id="comments-heading">Comments</h2>
        <h3 id="main-comment-heading">Main comment</h3>
        <div className={styles.inlineForms}>
          <div className={styles.growForm}>
            <CommentForm
              key={`main-${log.comment ?? ''}`}
              formId="main-comment"
              intent="main-save"
              schema={LogForms['main-save']}
              label="Main comment"
              fieldLabel="Main comment"
              submitLabel={log.comment ? 'Update main comment' : 'Add main comment'}
              defaultValue={log.comment ?? ''}
            />
          </div>
          {log.comment ? <ActionButtonForm formId="main-comment-delete" intent="main-delete" label="Delete main comment" buttonLabel="Delete main comment" /> : null}
        </div>

        <h3 id="user-comments-heading">User comments</h3>
        {log.comment_list.length ? (
          <ol aria-labelledby="user-comments-heading" className={styles.commentList}>
            {log.comment_list.map((entry, index) => (
              <li key={entry.id} className={styles.commentItem}>
                <p className={layout.muted}>
                  {entry.username ?? 'Someone'} · <LocalTime iso={entry.timestamp} />
                </p>
                <div className={styles.inlineForms}>
                  <div className={styles.growForm}>
                    <CommentForm
                      key={`${entry.id}-${entry.comment}`}
                      formId={`comment-${entry.id}`}
                      intent="comment-update"
              schema={LogForms['comment-update']}
                      label={`Edit comment ${index + 1}`}
                      fieldLabel={`Comment ${index + 1}`}
                      submitLabel="Update comment"
                      defaultValue={entry.comment}
                      hidden={{ comment_id: entry.id }}
                    />
                  </div>
                  <ActionButtonForm
                    formId={`comment-${entry.id}-delete`}
                    intent="comment-delete"
                    label={`Delete comment ${index + 1}`}
                    buttonLabel="Delete comment"
                    hidden={{ comment_id: entry.id }}
                  />
                </div>
              </li>
            ))}
          </ol>
        ) : (
          <p className={layout.muted}>No user comments yet.</p>
        )}
        <CommentForm key={`add-${log.comment_list.length}`} formId="add-comment" intent="comment-add"
              schema={LogForms['comment-add']} label="Add comment" fieldLabel="New comment" submitLabel="Add comment" />
      </section>

      <section className={layout.card} aria-labelledby="favorite-heading">
        <h2 id="favorite-heading">Save to my queries</h2>
        <CommentForm
          key={savedNote ?? ''}
          formId="favorite"
          intent="favorite"
          schema={LogForms['favorite']}
          label="Save to my queries"
          fieldLabel="Note for your saved query"
          submitLabel={savedNote === null ? 'Save query' : 'Update saved query'}
          defaultValue={savedNote ?? undefined}
          isRequired={false}
        >
          <p className={layout.muted}>
            {savedNote === null ? 'Your saved queries are under ' : 'Saved to your queries, under '}
            <Link to="/saved">Saved queries</Link>.
          </p>
        </CommentForm>
      </section>

      <DraftFromLog log={log} draftId={draftId} />
    </>
  )
}

// A passage is Markdown cut out of an article: shown as its words, so no marker is left dangling.
const excerptOf = (text: string) => markdownExcerpt(text, 280)

/** The correction loop: the question and a corrected answer become a draft article (POST /admin/upload_recovery_answer). */
function DraftFromLog({ log, draftId }: { log: QueryLog; draftId: number | null }) {
  const fetcher = useFetcher<LogFormData>()
  const actionData = useActionData<LogFormData>()
  const data = fetcher.data ?? actionData
  const schema = LogForms.draft
  const [form, fields] = useForm({
    id: 'draft',
    lastResult: data?.formId === 'draft' ? data.result : undefined,
    constraint: getZodConstraint(schema),
    defaultNoValidate: false,
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  })
  const savedDraftId = (data?.formId === 'draft' ? data.draftId : undefined) ?? draftId
  const initial = (value: unknown, fallback: string) => (typeof value === 'string' ? value : fallback)
  return (
    <section className={layout.card} aria-labelledby="draft-heading">
      <h2 id="draft-heading">Turn into a draft</h2>
      <p className={layout.muted}>Correct the answer and save it as a draft article; once published, answers to this question use it.</p>
      <fetcher.Form method="post" {...getFormProps(form)} aria-labelledby="draft-heading">
        <EnhancedField />
        <input type="hidden" name="intent" value="draft" />
        <input type="hidden" name="form_id" value="draft" />
        <TextField
          label="Draft question"
          name={fields.question.name}
          id={fields.question.id}
          defaultValue={initial(fields.question.initialValue, log.command.slice(0, 500))}
          errors={fields.question.errors}
          isRequired
          maxLength={500}
        />
        <TextField
          label="Corrected answer"
          name={fields.answer.name}
          id={fields.answer.id}
          defaultValue={initial(fields.answer.initialValue, log.answer ?? '')}
          errors={fields.answer.errors}
          isRequired
          isMultiline
          rows={8}
        />
        <Button isDisabled={fetcher.state !== 'idle'}>Save as draft</Button>
      </fetcher.Form>
      {savedDraftId ? (
        <p role="status">
          Draft {savedDraftId} saved. <Link to={`/articles/drafts/${savedDraftId}`}>Review it</Link> or see all <Link to="/articles/drafts">Drafts</Link>.
        </p>
      ) : null}
    </section>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
