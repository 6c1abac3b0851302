import { getFormProps, useForm } from '@conform-to/react'
import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData, useLocation, useNavigate, useNavigation, useSubmit } from '@remix-run/react'
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react'
import { AnswerContent, type AnswerAddress } from '~/components/ask/answer-content'
import * as askStyles from '~/components/ask/ask.css'
import { useAnswerStream, type AnswerStream } from '~/components/ask/use-answer-stream'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { PollAgain } from '~/components/poll'
import { Button } from '~/components/ui/button'
import * as controls from '~/components/ui/controls.css'
import { TextField } from '~/components/ui/text-field'
import { ApiError } from '~/models/api.server'
import {
  askQuestion,
  FavoriteForm,
  FeedbackForm,
  getAnswer,
  getAnswerOfLog,
  getAskModels,
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
import { getEnv } from '~/utils/env.server'
import { isTaskId } from '~/utils/task-id'
import { getSession, redirectWithToast, sessionStorage } from '~/utils/session.server'
import { screenMeta } from '~/sponsors/meta'
import { badForm, readFormData } from '~/utils/form.server'

export const meta: MetaFunction = ({ matches }) => screenMeta(matches, 'Ask')

const NO_MODELS = { enabled: false, multiple_model: false, default_model: null, models: [] as string[] }

/** A log id from the address (a streamed answer's address): a positive integer, else none. */
function logIdOf(value: string | null | undefined): number | null {
  if (!value || !/^\d{1,10}$/.test(value)) return null
  const id = Number(value)
  return id > 0 && id <= 2 ** 31 - 1 ? id : null
}

/** The Ask page's address of an answer; `#answer` opens the page at it. */
function answerPath(address: { task?: string; log?: number | null }, hash = ''): string {
  if (address.task && isTaskId(address.task)) return `/ask?task=${encodeURIComponent(address.task)}${hash}`
  if (address.log) return `/ask?log=${address.log}${hash}`
  return '/ask'
}

export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url)
  const taskId = url.searchParams.get('task')
  const logParam = url.searchParams.get('log')
  const attempt = Math.min(Math.max(Number(url.searchParams.get('attempt')) || 1, 1), MAX_ANSWER_TRIES)
  const api = await requireApiSession(request)
  const session = await getSession(request)
  // Bot info is for editors and administrators (demo mode signs in as the administrator).
  const role = getEnv().AUTH_ENABLED ? (session.get('auth')?.user.role ?? 'user') : 'admin'
  const mayReadBotInfo = role !== 'user'
  // SEED.md §2: the Bot info section is shown by default and the choice is remembered (here in the session cookie).
  const showBotInfo = session.get('showBotInfoSection') ?? true
  const [whoAmI, botInfo, models] = await Promise.all([
    getWhoAmI(api),
    mayReadBotInfo && showBotInfo ? getBotInfo(api) : Promise.resolve(null),
    // Without the model list the page still asks, the plain way.
    getAskModels(api).catch((error: unknown) => {
      if (error instanceof ApiError) return NO_MODELS
      throw error
    }),
  ])
  const base = { whoAmI, botInfo, mayReadBotInfo, showBotInfo, attempt, models }
  const none = { ...base, answer: null, taskId: null, logId: null, isUnknownTask: false }
  if (taskId !== null) {
    if (!isTaskId(taskId)) return json({ ...none, taskId, isUnknownTask: true })
    try {
      return json({ ...none, answer: await getAnswer(api, taskId), taskId })
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return json({ ...none, taskId, isUnknownTask: true })
      throw error
    }
  }
  if (logParam !== null) {
    const logId = logIdOf(logParam)
    if (logId === null) return json({ ...none, isUnknownTask: true })
    try {
      return json({ ...none, answer: await getAnswerOfLog(api, logId), logId })
    } catch (error) {
      if (error instanceof ApiError && (error.status === 404 || error.status === 400)) return json({ ...none, isUnknownTask: true })
      throw error
    }
  }
  return json(none)
}

export async function action({ request }: ActionFunctionArgs) {
  const formData = await readFormData(request)
  const intent = formData.get('intent')
  if (intent === 'toggleBotInfo') {
    const toggle = ToggleForm.safeParse(Object.fromEntries(formData))
    if (!toggle.success) throw badForm('The answer to come back to is not a text')
    const session = await getSession(request)
    session.set('showBotInfoSection', !(session.get('showBotInfoSection') ?? true))
    return redirect(answerPath({ task: toggle.data.task, log: logIdOf(toggle.data.log) }), {
      headers: { 'Set-Cookie': await sessionStorage().commitSession(session) },
    })
  }
  if (intent === 'feedback') {
    const parsed = FeedbackForm.safeParse(Object.fromEntries(formData))
    if (!parsed.success) throw badForm('Feedback needs a log, a choice and the answer to come back to')
    const back = answerPath(parsed.data)
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
    if (!parsed.success) throw badForm('A saved query needs its log and the answer to come back to')
    const back = answerPath(parsed.data)
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
  const { question, timezone, model } = submission.value
  try {
    const answer = await askQuestion(await requireApiSession(request), question, timezone, model || undefined)
    // Post/redirect/get: the answer has its own address, so a reload never asks twice; #answer opens the page at it.
    return redirect(`/ask?task=${encodeURIComponent(answer.task_id ?? '')}#answer`)
  } catch (error) {
    if (error instanceof ApiError && error.status === 400) {
      const fieldErrors = error.fieldErrors()
      const errors: Record<string, string[]> = fieldErrors.model ? { model: fieldErrors.model } : { question: fieldErrors.command ?? [error.message] }
      return json({ result: submission.reply({ fieldErrors: errors }) }, { status: 400 })
    }
    throw error
  }
}

export default function AskRoute() {
  const { whoAmI, botInfo, mayReadBotInfo, showBotInfo, models, answer, attempt, taskId, logId, isUnknownTask } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const navigation = useNavigation()
  const navigate = useNavigate()
  const submit = useSubmit()
  const location = useLocation()
  // The streamed answer belongs to the address it was asked from; any other address shows its own answer.
  const [streamLocation, setStreamLocation] = useState<string | null>(null)
  const { stream, start } = useAnswerStream((finished) => {
    // The answer is logged once its stream closes: give it its address, so a reload shows it and its forms come back.
    if (finished.phase === 'complete' && finished.answer?.log_id) navigate(`/ask?log=${finished.answer.log_id}`, { replace: true, preventScrollReset: true })
  })
  const shownStream = stream && streamLocation === location.key ? stream : null
  const isAsking = (navigation.state === 'submitting' && navigation.formAction === '/ask' && navigation.formData?.get('intent') === null) || shownStream?.phase === 'writing'
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
  const offersModels = models.multiple_model && models.models.length > 0
  const address: AnswerAddress | null = taskId && isTaskId(taskId) ? { task: taskId } : logId ? { log: logId } : null

  /** With a language model, the question streams; anything the stream refuses goes the plain way (form post). */
  function askByStream(event: FormEvent<HTMLFormElement>) {
    if (!models.enabled) return
    const submitter = (event.nativeEvent as SubmitEvent).submitter
    const data = new FormData(event.currentTarget, submitter instanceof HTMLElement ? submitter : undefined)
    const question = String(data.get('question') ?? '').trim()
    // A blank or too long question is posted: the server says what is wrong, beside the field.
    if (!question || question.length > QUESTION_MAX_LENGTH) return
    event.preventDefault()
    setStreamLocation(location.key)
    void start(data).then(({ isStreaming }) => {
      if (isStreaming) return
      setStreamLocation(null)
      submit(data, { method: 'post', action: '/ask' })
    })
  }

  let answerSection: ReactNode = null
  if (shownStream) {
    answerSection = (
      <AnswerSection focusKey={`stream:${shownStream.id}`} isBusy={shownStream.phase === 'writing'}>
        <StreamedAnswerView stream={shownStream} />
      </AnswerSection>
    )
  } else if (isUnknownTask) {
    answerSection = (
      <AnswerSection focusKey={`unknown:${taskId ?? ''}`}>
        <p>That answer is no longer available. Ask the question again.</p>
      </AnswerSection>
    )
  } else if (isPending && taskId) {
    answerSection = (
      <AnswerSection focusKey={`task:${taskId}`} isBusy>
        {answer.command ? <p className={layout.muted}>You asked: {answer.command}</p> : null}
        {attempt < MAX_ANSWER_TRIES ? (
          <>
            <p>Still working on your answer… (check {attempt} of {MAX_ANSWER_TRIES})</p>
            <PollAgain seconds={attempt} url={`/ask?task=${encodeURIComponent(taskId)}&attempt=${attempt + 1}#answer`} />
          </>
        ) : (
          <p>
            The answer is taking longer than expected. <Link to={`/ask?task=${encodeURIComponent(taskId)}#answer`}>Check again</Link>
          </p>
        )}
      </AnswerSection>
    )
  } else if (answer) {
    answerSection = (
      <AnswerSection focusKey={taskId ? `task:${taskId}` : `log:${logId ?? ''}`}>
        <AnswerContent answer={answer} address={address} />
      </AnswerSection>
    )
  }

  return (
    <>
      <section className={layout.card} aria-labelledby="ask-heading">
        <h1 id="ask-heading">Ask</h1>
        <p className={layout.muted}>{whoAmI.bot_who_am_i}</p>
        <Form method="post" action="/ask" {...getFormProps(form)} onSubmit={askByStream}>
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
          {offersModels ? (
            <div className={controls.field}>
              <label htmlFor="ask-model" className={controls.label}>
                Model
              </label>
              <select
                id="ask-model"
                name="model"
                className={askStyles.modelSelect}
                defaultValue={typeof fields.model.initialValue === 'string' ? fields.model.initialValue : ''}
                aria-invalid={fields.model.errors?.length ? true : undefined}
                aria-describedby={fields.model.errors?.length ? 'ask-model-error' : undefined}
              >
                <option value="">{models.default_model ? `Default model (${models.default_model})` : 'Default model'}</option>
                {models.models.map((model) => (
                  <option key={model} value={model}>
                    {model}
                  </option>
                ))}
              </select>
              {fields.model.errors?.length ? (
                <p id="ask-model-error" className={controls.error} role="alert">
                  {fields.model.errors.join(' ')}
                </p>
              ) : null}
            </div>
          ) : null}
          <Button isDisabled={isAsking}>{isAsking ? 'Asking…' : 'Ask'}</Button>
        </Form>
      </section>

      {answerSection}

      {shortcuts.length ? (
        <section className={layout.card}>
          <Form method="post" action="/ask" className={layout.toolbar} style={{ marginBottom: 0 }} aria-label="Query shortcuts" onSubmit={askByStream}>
            <input type="hidden" name="timezone" value={timezone} />
            <span className={layout.muted}>Try:</span>
            {shortcuts.map((shortcut) => (
              <Button key={shortcut.query} name="question" value={shortcut.query} variant="secondary" isDisabled={isAsking}>
                {shortcut.query}
              </Button>
            ))}
          </Form>
        </section>
      ) : null}

      {mayReadBotInfo ? (
        <section className={layout.card} aria-labelledby="bot-info-heading">
          <Form method="post" action="/ask" className={layout.toolbar}>
            <h2 id="bot-info-heading" style={{ margin: 0 }}>
              Bot info
            </h2>
            <input type="hidden" name="intent" value="toggleBotInfo" />
            {taskId ? <input type="hidden" name="task" value={taskId} /> : null}
            {logId ? <input type="hidden" name="log" value={logId} /> : null}
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
      ) : null}
    </>
  )
}

/**
 * The answer, first after the question: `#answer` opens the page at it, and when a new answer arrives (`focusKey`
 * changes) its heading takes focus, unless the reader is already in it (a streamed answer getting its address).
 */
function AnswerSection({ focusKey, isBusy = false, children }: { focusKey: string; isBusy?: boolean; children: ReactNode }) {
  const section = useRef<HTMLElement>(null)
  const heading = useRef<HTMLHeadingElement>(null)
  useEffect(() => {
    if (section.current?.contains(document.activeElement)) return
    heading.current?.focus()
  }, [focusKey])
  return (
    <section ref={section} id="answer" className={`${layout.card} ${askStyles.answer}`} aria-labelledby="answer-heading" aria-busy={isBusy || undefined}>
      <h2 id="answer-heading" ref={heading} tabIndex={-1} className={askStyles.answerHeading}>
        Answer
      </h2>
      {children}
    </section>
  )
}

/** An answer as it streams: its words as they arrive (read out politely), then the complete answer in their place. */
function StreamedAnswerView({ stream }: { stream: AnswerStream }) {
  if (stream.phase === 'complete' && stream.answer) {
    return <AnswerContent answer={stream.answer} address={stream.answer.log_id ? { log: stream.answer.log_id } : null} />
  }
  return (
    <>
      {stream.question ? <p className={layout.muted}>You asked: {stream.question}</p> : null}
      {stream.note ? (
        <p className={layout.notice} data-severity="warn">
          {stream.note}
        </p>
      ) : null}
      <p className={askStyles.streamingText} aria-live="polite" data-testid="answer-so-far">
        {stream.text}
      </p>
      {stream.phase === 'writing' ? (
        <p className={layout.muted} role="status">
          Writing the answer…
        </p>
      ) : (
        <p role="alert">{stream.error}</p>
      )}
    </>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
