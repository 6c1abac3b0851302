import { getFormProps, useForm } from '@conform-to/react'
import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { useEffect, useState } from 'react'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { MarkdownView } from '~/components/markdown/markdown-view'
import { PollAgain } from '~/components/poll'
import { Button } from '~/components/ui/button'
import { TextField } from '~/components/ui/text-field'
import { ApiError } from '~/models/api.server'
import {
  askQuestion,
  FavoriteForm,
  FeedbackForm,
  getAnswer,
  getBotInfo,
  getWhoAmI,
  parseAskForm,
  saveFavorite,
  sendFeedback,
  ToggleForm,
} from '~/models/ask.server'
import { MAX_ANSWER_TRIES, QUESTION_MAX_LENGTH } from '~/models/ask-limits'
import * as layout from '~/styles/layout.css'
import { requireApiSession } from '~/utils/auth.server'
import { isTaskId } from '~/utils/task-id'
import { getSession, redirectWithToast, sessionStorage } from '~/utils/session.server'
import { screenMeta } from '~/sponsors/meta'
import { badForm, readFormData } from '~/utils/form.server'

export const meta: MetaFunction = ({ matches }) => screenMeta(matches, 'Ask')

export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url)
  const taskId = url.searchParams.get('task')
  const attempt = Math.min(Math.max(Number(url.searchParams.get('attempt')) || 1, 1), MAX_ANSWER_TRIES)
  const api = await requireApiSession(request)
  const session = await getSession(request)
  // SEED.md §2: the Bot info section is shown by default and the choice is remembered (here in the session cookie).
  const showBotInfo = session.get('showBotInfoSection') ?? true
  const [whoAmI, botInfo] = await Promise.all([getWhoAmI(api), showBotInfo ? getBotInfo(api) : Promise.resolve(null)])
  const base = { whoAmI, botInfo, showBotInfo, attempt }
  if (!taskId) return json({ ...base, answer: null, taskId: null, isUnknownTask: false })
  if (!isTaskId(taskId)) return json({ ...base, answer: null, taskId, isUnknownTask: true })
  try {
    return json({ ...base, answer: await getAnswer(api, taskId), taskId, isUnknownTask: false })
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return json({ ...base, answer: null, taskId, isUnknownTask: true })
    throw error
  }
}

export async function action({ request }: ActionFunctionArgs) {
  const formData = await readFormData(request)
  const intent = formData.get('intent')
  if (intent === 'toggleBotInfo') {
    const toggle = ToggleForm.safeParse(Object.fromEntries(formData))
    if (!toggle.success) throw badForm('The task to come back to is not a text')
    const task = isTaskId(toggle.data.task) ? toggle.data.task : undefined
    const session = await getSession(request)
    session.set('showBotInfoSection', !(session.get('showBotInfoSection') ?? true))
    return redirect(task ? `/ask?task=${encodeURIComponent(task)}` : '/ask', { headers: { 'Set-Cookie': await sessionStorage().commitSession(session) } })
  }
  if (intent === 'feedback') {
    const parsed = FeedbackForm.safeParse(Object.fromEntries(formData))
    if (!parsed.success) throw badForm('Feedback needs a log and a choice')
    const back = `/ask?task=${encodeURIComponent(parsed.data.task)}`
    try {
      await sendFeedback(await requireApiSession(request), parsed.data.log_id, parsed.data.feedback)
    } catch (error) {
      if (error instanceof ApiError) return redirectWithToast(request, back, { summary: 'Something went wrong', severity: 'error', message: error.message })
      throw error
    }
    return redirectWithToast(request, back, { summary: 'Feedback sent', message: 'Thank you for your feedback! It helps us improve.', life: 2000 })
  }
  if (intent === 'favorite') {
    const parsed = FavoriteForm.safeParse(Object.fromEntries(formData))
    if (!parsed.success) throw badForm('A saved query needs its log')
    const back = `/ask?task=${encodeURIComponent(parsed.data.task)}`
    try {
      await saveFavorite(await requireApiSession(request), parsed.data.log_id, parsed.data.comment)
    } catch (error) {
      if (error instanceof ApiError) return redirectWithToast(request, back, { summary: 'Something went wrong', severity: 'error', message: 'Cannot save or update query' })
      throw error
    }
    return redirectWithToast(request, back, { summary: 'All Ok', message: 'Saved to your queries' })
  }
  const submission = parseAskForm(formData)
  if (submission.status !== 'success') return json({ result: submission.reply() }, { status: 400 })
  try {
    const answer = await askQuestion(await requireApiSession(request), submission.value.question, submission.value.timezone)
    // Post/redirect/get: the answer has its own address, so a reload never asks twice.
    return redirect(`/ask?task=${encodeURIComponent(answer.task_id ?? '')}`)
  } catch (error) {
    if (error instanceof ApiError && error.status === 400) {
      const fieldErrors = error.fieldErrors()
      return json({ result: submission.reply({ fieldErrors: { question: fieldErrors.command ?? [error.message] } }) }, { status: 400 })
    }
    throw error
  }
}

export default function AskRoute() {
  const { whoAmI, botInfo, showBotInfo, answer, attempt, taskId, isUnknownTask } = useLoaderData<typeof loader>()
  const [downloadNote, setDownloadNote] = useState('')
  const actionData = useActionData<typeof action>()
  const navigation = useNavigation()
  const isAsking = navigation.state === 'submitting' && navigation.formAction === '/ask'
  const [timezone, setTimezone] = useState('')
  useEffect(() => setTimezone(Intl.DateTimeFormat().resolvedOptions().timeZone), [])
  const [form, fields] = useForm({
    id: 'ask',
    lastResult: actionData && 'result' in actionData ? actionData.result : undefined,
    // Checked on the server (the same rules with scripts on or off); the field's own required and maxlength
    // attributes catch the obvious cases before a round trip.
    shouldValidate: 'onSubmit',
  })
  const shortcuts = whoAmI.query_shortcuts.filter((shortcut) => shortcut.enabled && shortcut.query.trim())
  const isPending = answer && (answer.status === 'queued' || answer.status === 'running')

  return (
    <>
      <section className={layout.card} aria-labelledby="ask-heading">
        <h1 id="ask-heading">Ask</h1>
        <p className={layout.muted}>{whoAmI.bot_who_am_i}</p>
        <Form method="post" action="/ask" {...getFormProps(form)}>
          <input type="hidden" name="timezone" value={timezone} />
          <TextField
            label="Question"
            name={fields.question.name}
            id={fields.question.id}
            defaultValue={typeof fields.question.initialValue === 'string' ? fields.question.initialValue : (answer?.command ?? undefined)}
            errors={fields.question.errors}
            isRequired
            isMultiline
            rows={3}
            maxLength={QUESTION_MAX_LENGTH}
          />
          <Button isDisabled={isAsking}>{isAsking ? 'Asking…' : 'Ask'}</Button>
        </Form>
        {shortcuts.length ? (
          <Form method="post" action="/ask" className={layout.toolbar} style={{ marginTop: '1rem' }} aria-label="Query shortcuts">
            <span className={layout.muted}>Try:</span>
            {shortcuts.map((shortcut) => (
              <Button key={shortcut.query} name="question" value={shortcut.query} variant="secondary" isDisabled={isAsking}>
                {shortcut.query}
              </Button>
            ))}
          </Form>
        ) : null}
      </section>

      <section className={layout.card} aria-labelledby="bot-info-heading">
        <Form method="post" action="/ask" className={layout.toolbar}>
          <h2 id="bot-info-heading" style={{ margin: 0 }}>
            Bot info
          </h2>
          <input type="hidden" name="intent" value="toggleBotInfo" />
          {taskId ? <input type="hidden" name="task" value={taskId} /> : null}
          <Button variant="secondary">{showBotInfo ? 'Hide bot info' : 'Show bot info'}</Button>
        </Form>
        {showBotInfo && botInfo ? (
          <dl className={layout.facts}>
            <dt>Documents</dt>
            <dd>{botInfo.list_of_docs_length}</dd>
            <dt>Indexed passages</dt>
            <dd>{botInfo.doc_chunks}</dd>
            <dt>Visited pages</dt>
            <dd>{botInfo.visited_urls_length}</dd>
            <dt>Excluded links</dt>
            <dd>{botInfo.excluded_links_length}</dd>
            <dt>Errored pages</dt>
            <dd>{botInfo.errored_urls_length}</dd>
            <dt>YouTube videos</dt>
            <dd>{botInfo.tube_urls_length}</dd>
          </dl>
        ) : null}
      </section>

      {isUnknownTask ? (
        <section className={layout.card} aria-label="Answer">
          <p>That answer is no longer available. Ask the question again.</p>
        </section>
      ) : null}

      {isPending && taskId ? (
        <section className={layout.card} aria-label="Answer" aria-busy="true">
          {attempt < MAX_ANSWER_TRIES ? (
            <>
              <p>Still working on your answer… (check {attempt} of {MAX_ANSWER_TRIES})</p>
              <PollAgain seconds={attempt} url={`/ask?task=${encodeURIComponent(taskId)}&attempt=${attempt + 1}`} />
            </>
          ) : (
            <p>
              The answer is taking longer than expected. <Link to={`/ask?task=${encodeURIComponent(taskId)}`}>Check again</Link>
            </p>
          )}
        </section>
      ) : null}

      {answer && !isPending ? (
        <section className={layout.card} aria-label="Answer">
          <h2>Answer</h2>
          {answer.command ? <p className={layout.muted}>You asked: {answer.command}</p> : null}
          {answer.success ? (
            <MarkdownView
              document={answer.result_document ?? { children: [] }}
              headingLevel={3}
              citation={(n) => {
                const source = answer.source_list[n - 1]
                return source ? { href: `#source-${n}`, title: source.metadata.title || source.metadata.source } : undefined
              }}
            />
          ) : (
            <p role="alert">{answer.error ?? 'The answer could not be produced.'}</p>
          )}
          {answer.source_list.length ? (
            <>
              <h3 id="sources-heading">Sources</h3>
              <ol aria-label="Sources">
                {answer.source_list.map((source, index) => (
                  <li key={source.metadata.id} id={`source-${index + 1}`}>
                    <Link to={`/articles/${source.metadata.doc_id}`}>{source.metadata.title || source.metadata.source}</Link>
                    {source.metadata.is_deleted ? <span className={layout.muted}> (deleted)</span> : null}
                  </li>
                ))}
              </ol>
            </>
          ) : null}
          {answer.success && answer.log_id && taskId ? (
            <div className={layout.answerActions}>
              <Form method="post" action="/ask" className={layout.toolbar} aria-label="Feedback">
                <input type="hidden" name="intent" value="feedback" />
                <input type="hidden" name="log_id" value={answer.log_id} />
                <input type="hidden" name="task" value={taskId} />
                <span>Was this helpful?</span>
                <Button name="feedback" value="like" variant="secondary">
                  Yes, helpful
                </Button>
                <Button name="feedback" value="dislike" variant="secondary">
                  No, not helpful
                </Button>
              </Form>
              <Form method="post" action="/ask" className={layout.toolbar} aria-label="Save query">
                <input type="hidden" name="intent" value="favorite" />
                <input type="hidden" name="log_id" value={answer.log_id} />
                <input type="hidden" name="task" value={taskId} />
                <TextField label="Comment for your saved query" name="comment" maxLength={5000} />
                <Button variant="secondary">Save query</Button>
              </Form>
              <p>
                <a href={`/resources/answer.docx?task=${encodeURIComponent(taskId)}`} download onClick={() => setDownloadNote('Converted MD file downloaded')}>
                  Download as Word (.docx)
                </a>
                <span role="status" className={layout.muted}>
                  {downloadNote ? ` ${downloadNote}` : ''}
                </span>
              </p>
            </div>
          ) : null}
        </section>
      ) : null}
    </>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
