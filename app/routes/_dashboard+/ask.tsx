import { getFormProps, useForm } from '@conform-to/react'
import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useActionData, useFetcher, useLoaderData, useLocation, useNavigate, useNavigation, useSubmit } from '@remix-run/react'
import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent, type ReactNode } from 'react'
import { AnswerContent, FEEDBACK_FORM_ID, SAVE_QUERY_FORM_ID, useIsHydrated, type AnswerAddress, type RenderedAnswer } from '~/components/ask/answer-content'
import * as askStyles from '~/components/ask/ask.css'
import { AnswerSection } from '~/components/ask/answer-section'
import { EarlierTurns, RecentThreads } from '~/components/ask/thread'
import { useAnswerStream, type AnswerStream } from '~/components/ask/use-answer-stream'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { PollAgain } from '~/components/poll'
import { Button } from '~/components/ui/button'
import * as controls from '~/components/ui/controls.css'
import { TextField } from '~/components/ui/text-field'
import { ApiError } from '~/models/api.server'
import { getAgentScreenSettings } from '~/models/agents.server'
import { listFavorites } from '~/models/query-logs.server'
import {
  askQuestion,
  FavoriteForm,
  FeedbackForm,
  getAnswer,
  getAnswerOfLog,
  getAskModels,
  getBotInfo,
  getRecentThreads,
  getThread,
  MORE_RECENT_THREADS,
  RECENT_THREADS,
  getWhoAmI,
  ModeForm,
  parseAskForm,
  saveFavorite,
  sendFeedback,
  ToggleForm,
} from '~/models/ask.server'
import { answerCheckOf, FEEDBACK_REASON_MAX_LENGTH, keptDraftOf, MAX_ANSWER_TRIES, nextAnswerCheck, QUESTION_MAX_LENGTH, SAVED_COMMENT_MAX_LENGTH } from '~/models/ask-limits'
import * as layout from '~/styles/layout.css'
import { assertSameOrigin, requireApiSession } from '~/utils/auth.server'
import { getEnv } from '~/utils/env.server'
import { isTaskId } from '~/utils/task-id'
import { inFieldWords } from '~/utils/form-words'
import { getSession, redirectWithToast, sessionStorage } from '~/utils/session.server'
import { screenMeta } from '~/sponsors/meta'
import { badForm, readFormData } from '~/utils/form.server'
import { AskedQuestion } from '~/components/ask/asked-question'
import { KeptDraftNotice } from '~/components/ask/kept-draft-notice'

export const meta: MetaFunction = ({ matches }) => screenMeta(matches, 'Ask')

const NO_MODELS = { enabled: false, multiple_model: false, default_model: null, models: [] as string[] }

/** A log or thread id from the address: a positive integer, else none. */
function logIdOf(value: string | null | undefined): number | null {
  if (!value || !/^\d{1,10}$/.test(value)) return null
  const id = Number(value)
  return id > 0 && id <= 2 ** 31 - 1 ? id : null
}

/**
 * The Ask page's address of an answer: its thread, then its task (asked by form) or log (streamed), and which check of
 * a slow answer it is (SEED.md §4's schedule); `#answer` opens the page at it.
 */
function answerPath(address: { thread?: number | null; task?: string | null; log?: number | null; check?: number }, hash = ''): string {
  const params = new URLSearchParams()
  if (address.thread) params.set('thread', String(address.thread))
  if (address.task && isTaskId(address.task)) params.set('task', address.task)
  else if (address.log) params.set('log', String(address.log))
  if (address.check !== undefined && (params.has('task') || params.has('log'))) params.set('check', String(address.check))
  const query = params.toString()
  return `/ask${query ? `?${query}` : ''}${query ? hash : ''}`
}

/**
 * The same page listing more of the user's threads, from the `from` newest on, opened at the list: what it shows stays
 * (not a slow answer's check).
 */
function moreRecentPath(url: URL, from = 0): string {
  const params = new URLSearchParams(url.searchParams)
  params.delete('check')
  params.set('recent', 'more')
  if (from > 0) params.set('recent_from', String(from))
  else params.delete('recent_from')
  return `/ask?${params.toString()}#recent-heading`
}

/** Where the longer list starts (`?recent_from=`): a whole number, else the newest. */
function recentFromOf(value: string | null): number {
  return value !== null && /^\d{1,6}$/.test(value) ? Number(value) : 0
}

type AskMode = 'expert' | 'agent'

const AGENT_FORM_ID = 'ask-agent'
const BOT_INFO_ID = 'bot-info'

const isMissing = (error: unknown) => error instanceof ApiError && (error.status === 404 || error.status === 400)

export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url)
  const taskId = url.searchParams.get('task')
  const logParam = url.searchParams.get('log')
  const threadParam = url.searchParams.get('thread')
  const check = answerCheckOf(url.searchParams.get('check'))
  const api = await requireApiSession(request)
  const session = await getSession(request)
  // Bot info is for editors and administrators (demo mode signs in as the administrator).
  const role = getEnv().AUTH_ENABLED ? (session.get('auth')?.user.role ?? 'user') : 'admin'
  const mayReadBotInfo = role !== 'user'
  // SEED.md §2: the Bot info section is shown by default and the choice is remembered (here in the session cookie).
  const showBotInfo = session.get('showBotInfoSection') ?? true
  // TARGET says what Ask does first; the user's own choice (remembered in the session) wins.
  const chosenMode = session.get('askMode')
  // A question kept through sign-in when the session ended (ADR 324): back in its field, to be asked again; it was
  // typed for an answer from the knowledge base, so that is the way shown.
  const keptDraft = keptDraftOf(url)
  const mode: AskMode = keptDraft ? 'expert' : chosenMode === 'agent' || chosenMode === 'expert' ? chosenMode : getEnv().TARGET
  const threadId = logIdOf(threadParam)
  // "Show more" lists the user's threads as many at a time as the API gives (`?recent=more`), older ones page by page.
  const showsMoreRecent = url.searchParams.get('recent') === 'more'
  const recentFrom = showsMoreRecent ? recentFromOf(url.searchParams.get('recent_from')) : 0
  const [whoAmI, agentSettings, botInfo, models, recent, thread] = await Promise.all([
    getWhoAmI(api),
    // The agent's own shortcuts (Agent settings), offered when Ask runs the agent: loaded in either way to ask, as the
    // way is switched in the page with scripts on. Without them the page still asks.
    getAgentScreenSettings(api).catch((error: unknown): Awaited<ReturnType<typeof getAgentScreenSettings>> => {
      if (error instanceof ApiError) return { shortcuts: [], runnableVariants: [] }
      throw error
    }),
    mayReadBotInfo && showBotInfo ? getBotInfo(api) : Promise.resolve(null),
    // Without the model list the page still asks, the plain way.
    getAskModels(api).catch((error: unknown) => {
      if (error instanceof ApiError) return NO_MODELS
      throw error
    }),
    getRecentThreads(api, showsMoreRecent ? MORE_RECENT_THREADS : RECENT_THREADS, recentFrom).catch((error: unknown): Awaited<ReturnType<typeof getRecentThreads>> => {
      if (error instanceof ApiError) return { threads: [], hasMore: false }
      throw error
    }),
    threadId
      ? getThread(api, threadId).catch((error: unknown) => {
          if (isMissing(error)) return null
          throw error
        })
      : Promise.resolve(null),
  ])
  // End users get the sponsor's suggestions, not questions about running this product.
  const shortcuts = whoAmI.query_shortcuts
    .filter((shortcut) => shortcut.enabled && shortcut.query.trim())
    .filter((shortcut) => role !== 'user' || !shortcut.product_guide)
    .map((shortcut) => shortcut.query)
  // A run needs the general agent (ADR 280): while it is off, its shortcuts would only be refused.
  const agentShortcuts = agentSettings.runnableVariants.includes('general') ? agentSettings.shortcuts : []
  const base = {
    whoAmI: { bot_who_am_i: whoAmI.bot_who_am_i },
    shortcuts,
    agentShortcuts,
    botInfo,
    mayReadBotInfo,
    showBotInfo,
    check,
    models,
    mode,
    recent: recent.threads,
    moreRecentHref: recent.hasMore && !showsMoreRecent ? moreRecentPath(url) : null,
    olderRecentHref: recent.hasMore && showsMoreRecent ? moreRecentPath(url, recentFrom + MORE_RECENT_THREADS) : null,
    newerRecentHref: recentFrom > 0 ? moreRecentPath(url, Math.max(0, recentFrom - MORE_RECENT_THREADS)) : null,
    threadId: thread?.thread_id ?? null,
    isUnknownThread: threadParam !== null && thread === null,
    keptDraft,
  }
  const turns: (RenderedAnswer & { task_id: string | null; status: string })[] = thread?.turns ?? []
  const withEarlier = (answer: (RenderedAnswer & { status?: string; task_id?: string | null }) | null, extra: { taskId?: string | null; logId?: number | null } = {}) => ({
    ...base,
    answer,
    taskId: extra.taskId ?? null,
    logId: extra.logId ?? null,
    isUnknownTask: false,
    // The thread's turns before the one shown: what it follows on from.
    earlier: answer?.log_id ? turns.filter((turn) => turn.log_id !== null && turn.log_id < answer.log_id!) : turns,
  })
  // The asker's saved query for the answer shown, if any: its save form shows the note, so saving again keeps it.
  const favorites = taskId !== null || logParam !== null || threadParam !== null ? listFavorites(api).catch(() => []) : Promise.resolve([])
  const withNote = async <Payload extends { answer: { log_id?: number | null } | null }>(payload: Payload) =>
    json({ ...payload, savedNote: (await favorites).find((favorite) => payload.answer?.log_id && favorite.log_id === payload.answer.log_id)?.comment ?? null })
  const none = { ...withEarlier(null), isUnknownTask: false }
  if (taskId !== null) {
    if (!isTaskId(taskId)) return withNote({ ...none, taskId, isUnknownTask: true })
    if (check === 0) {
      // The page a question's post leads to fetches nothing (SEED.md §4: the first check comes a second later); the
      // thread, read for its earlier turns, already says whether this turn is done.
      const turn = thread?.turns.find((item) => item.task_id === taskId) ?? null
      return withNote(withEarlier(turn, { taskId }))
    }
    try {
      return withNote(withEarlier(await getAnswer(api, taskId), { taskId }))
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return withNote({ ...none, taskId, isUnknownTask: true })
      throw error
    }
  }
  if (logParam !== null) {
    const logId = logIdOf(logParam)
    if (logId === null) return withNote({ ...none, isUnknownTask: true })
    try {
      return withNote(withEarlier(await getAnswerOfLog(api, logId), { logId }))
    } catch (error) {
      if (isMissing(error)) return withNote({ ...none, isUnknownTask: true })
      throw error
    }
  }
  // A thread by itself: its latest turn is the answer shown.
  const latest = turns.at(-1) ?? null
  return withNote(withEarlier(latest, { logId: latest?.log_id ?? null, taskId: null }))
}

export async function action({ request }: ActionFunctionArgs) {
  // Refused from another site before anything is read, for every intent: the session-only ones (the way to ask, the
  // bot info section) too, which ask the backend nothing (remix-serve does not refuse cross-site posts itself).
  assertSameOrigin(request)
  const formData = await readFormData(request)
  const intent = formData.get('intent')
  // The way-to-ask buttons submit the form being typed in (its question or command) with a mode.
  if (formData.has('mode')) {
    const parsed = ModeForm.safeParse(Object.fromEntries(formData))
    if (!parsed.success) throw badForm('The way to ask is a knowledge-base answer or the agent')
    const session = await getSession(request)
    session.set('askMode', parsed.data.mode)
    const headers = { 'Set-Cookie': await sessionStorage().commitSession(session) }
    if (parsed.data.remember_only) return json({ mode: parsed.data.mode, draft: '' }, { headers })
    const draft = parsed.data.question ?? parsed.data.command ?? ''
    if (!draft.trim()) return redirect('/ask', { headers })
    // What was typed stays in the other way's field. The page is rendered from this response (the loader of this
    // request still reads the old choice), so the choice made comes with it.
    return json({ mode: parsed.data.mode, draft }, { headers })
  }
  if (intent === 'toggleBotInfo') {
    const toggle = ToggleForm.safeParse(Object.fromEntries(formData))
    if (!toggle.success) throw badForm('The answer to come back to is not a text')
    const session = await getSession(request)
    session.set('showBotInfoSection', !(session.get('showBotInfoSection') ?? true))
    // Back to the section that was opened or closed.
    return redirect(`${answerPath({ thread: logIdOf(toggle.data.thread), task: toggle.data.task, log: logIdOf(toggle.data.log) })}#${BOT_INFO_ID}`, {
      headers: { 'Set-Cookie': await sessionStorage().commitSession(session) },
    })
  }
  if (intent === 'feedback') {
    const parsed = FeedbackForm.safeParse(Object.fromEntries(formData))
    if (!parsed.success) {
      const reason = formData.get('reason')
      if (typeof reason === 'string' && reason.trim().length > FEEDBACK_REASON_MAX_LENGTH) {
        throw badForm(`The reason can be at most ${FEEDBACK_REASON_MAX_LENGTH} characters; yours has ${reason.trim().length}. Go back to shorten it.`)
      }
      throw badForm('Feedback needs a log, a choice (helpful or not) and the answer to come back to')
    }
    // Back to the answer's feedback form, which now shows the choice (not to the top of the page).
    const back = answerPath(parsed.data, `#${FEEDBACK_FORM_ID}`)
    try {
      await sendFeedback(await requireApiSession(request), parsed.data.log_id, parsed.data.feedback, parsed.data.reason ?? '')
    } catch (error) {
      if (error instanceof ApiError) return redirectWithToast(request, back, { summary: 'Something went wrong', severity: 'error', message: error.message })
      throw error
    }
    return redirectWithToast(request, back, { summary: 'Feedback sent', message: 'Thank you for your feedback! It helps us improve.', life: 2000 })
  }
  if (intent === 'favorite') {
    const parsed = FavoriteForm.safeParse(Object.fromEntries(formData))
    if (!parsed.success) {
      const comment = formData.get('comment')
      if (typeof comment === 'string' && comment.trim().length > SAVED_COMMENT_MAX_LENGTH) {
        throw badForm(`The comment can be at most ${SAVED_COMMENT_MAX_LENGTH} characters; yours has ${comment.trim().length}. Go back to shorten it.`)
      }
      throw badForm('A saved query needs its log and the answer to come back to')
    }
    const back = answerPath(parsed.data, `#${SAVE_QUERY_FORM_ID}`)
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
  const { question, timezone, model, thread } = submission.value
  try {
    // A session that has ended sends the question to sign-in and back into this field (ADR 324).
    const api = await requireApiSession(request, { draft: { path: '/ask', text: question, thread } })
    const answer = await askQuestion(api, question, timezone, model || undefined, thread)
    const isPending = answer.status === 'queued' || answer.status === 'running'
    // Post/redirect/get: the answer has its own address, so a reload never asks twice; #answer opens the page at it.
    // A slow answer starts SEED.md's schedule at check 0, which waits a second before fetching again.
    return redirect(answerPath({ thread: answer.thread_id ?? thread, task: answer.task_id, log: answer.log_id, check: isPending ? 0 : undefined }, '#answer'))
  } catch (error) {
    if (error instanceof ApiError && error.status === 404 && thread) {
      return json({ result: submission.reply({ fieldErrors: { question: ['This conversation is no longer available. Start a new thread to ask.'] } }) }, { status: 400 })
    }
    // Too many questions from this account for now (ASK_RATE_LIMIT): said above the form, the question kept to ask again.
    if (error instanceof ApiError && error.status === 429) {
      return json({ result: submission.reply({ formErrors: [error.message] }) }, { status: 429, headers: error.retryAfter ? { 'Retry-After': error.retryAfter } : undefined })
    }
    if (error instanceof ApiError && error.status === 400) {
      const fieldErrors = error.fieldErrors()
      const errors: Record<string, string[]> = fieldErrors.model ? { model: fieldErrors.model } : { question: fieldErrors.command ?? [error.message] }
      return json({ result: submission.reply({ fieldErrors: errors }) }, { status: 400 })
    }
    throw error
  }
}

export default function AskRoute() {
  const data = useLoaderData<typeof loader>()
  const { whoAmI, shortcuts, agentShortcuts, botInfo, mayReadBotInfo, showBotInfo, models, answer, check, taskId, logId, isUnknownTask, recent, moreRecentHref, olderRecentHref, newerRecentHref, threadId, isUnknownThread, keptDraft } = data
  const earlier = data.earlier as RenderedAnswer[]
  const actionData = useActionData<typeof action>()
  // A switch of the way to ask that carried a draft: the choice made and the text typed. With scripts the page
  // switches the fields itself, at once, and a fetcher only tells the server to remember the choice.
  const [scriptSwitch, setScriptSwitch] = useState<{ mode: 'expert' | 'agent'; draft: string } | null>(null)
  const modeFetcher = useFetcher()
  const posted = actionData && 'mode' in actionData ? actionData : null
  const switched = scriptSwitch ?? posted
  const mode = switched?.mode ?? data.mode
  const navigation = useNavigation()
  const navigate = useNavigate()
  const submit = useSubmit()
  const location = useLocation()
  const isHydrated = useIsHydrated()
  // Another address (an answer, a new thread) renders from its loader, which by then knows the choice.
  useEffect(() => setScriptSwitch(null), [location.key])
  // The streamed answer belongs to the address it was asked from; any other address shows its own answer.
  const [streamLocation, setStreamLocation] = useState<string | null>(null)
  // A streamed question empties the field as it is sent, and what is typed while the answer streams stays when the
  // answer gets its address: the form keeps the key of its stream until another answer is shown.
  const streamCount = useRef(0)
  const [streamForm, setStreamForm] = useState<{ key: string; logId: number | null } | null>(null)
  // A question the stream refused (too many questions, a model gone) goes the plain way: its field, emptied as it was
  // sent, gets it back at once, and keeps it if the post is refused too: the refused post's own navigation (a new
  // location, the same answer) leaves the field as it is; another answer or thread brings its own.
  const [refusedDraft, setRefusedDraft] = useState<{ key: string; question: string } | null>(null)
  useEffect(() => setRefusedDraft(null), [taskId, logId, threadId])
  const { stream, start } = useAnswerStream((finished) => {
    // The answer is logged once its stream closes: give it its address (in its thread), so a reload shows it and its forms come back.
    const done = finished.answer
    if (finished.phase === 'complete' && done?.log_id) {
      const logId = done.log_id
      setStreamForm((current) => (current ? { ...current, logId } : current))
      navigate(answerPath({ thread: done.thread_id, log: logId }), { replace: true, preventScrollReset: true })
    }
  })
  const shownStream = stream && streamLocation === location.key ? stream : null
  // The answer's own address as soon as the server gives it, kept in this history entry without a navigation (the
  // page goes on showing the words): a reload, or Back after leaving, finds the answer, written meanwhile (ADR 297).
  const streamAddress = shownStream?.phase === 'writing' ? shownStream.address : null
  useEffect(() => {
    if (streamAddress) window.history.replaceState(window.history.state, '', answerPath({ thread: streamAddress.thread, log: streamAddress.log }))
  }, [streamAddress?.log])
  const isAsking =
    (navigation.state === 'submitting' && navigation.formAction === '/ask' && navigation.formData?.get('intent') === null && !navigation.formData.has('mode')) ||
    shownStream?.phase === 'writing'
  const [timezone, setTimezone] = useState('')
  useEffect(() => setTimezone(Intl.DateTimeFormat().resolvedOptions().timeZone), [])
  const [form, fields] = useForm({
    id: 'ask',
    lastResult: actionData && 'result' in actionData ? actionData.result : undefined,
    // Checked on the server (the same rules with scripts on or off); the field's own required and maxlength
    // attributes catch the obvious cases before a round trip.
    shouldValidate: 'onSubmit',
  })
  const isPending = answer && (answer.status === 'queued' || answer.status === 'running')
  const offersModels = models.multiple_model && models.models.length > 0
  // The model chosen for a question stays chosen for the next one (a follow-up goes on with it): the one chosen for a
  // question streamed from this page, else the one that wrote the answer shown when it is not the default.
  const [sentModel, setSentModel] = useState<string | null>(null)
  const answerModel = answer?.model && answer.model !== models.default_model && models.models.includes(answer.model) ? answer.model : ''
  const chosenModel = typeof fields.model.initialValue === 'string' ? fields.model.initialValue : (sentModel ?? answerModel)
  const address: AnswerAddress | null = taskId && isTaskId(taskId) ? { task: taskId, thread: threadId } : logId ? { log: logId, thread: threadId } : null
  const isFollowUp = threadId !== null && !isUnknownThread
  const expertFormKey =
    streamForm && (streamLocation === location.key || (logId !== null && logId === streamForm.logId))
      ? streamForm.key
      : (refusedDraft?.key ?? `expert:${taskId ?? logId ?? ''}`)

  /** With a language model, the question streams; anything the stream refuses goes the plain way (form post). */
  function askByStream(event: FormEvent<HTMLFormElement>) {
    if (!models.enabled) return
    // One answer is written at a time: a second Enter (or a question sent) while it streams waits for it.
    if (shownStream?.phase === 'writing') {
      event.preventDefault()
      return
    }
    const submitter = (event.nativeEvent as SubmitEvent).submitter
    // A way-to-ask button switches, it does not ask.
    if (submitter instanceof HTMLButtonElement && submitter.name === 'mode') return
    const data = new FormData(event.currentTarget, submitter instanceof HTMLElement ? submitter : undefined)
    const question = String(data.get('question') ?? '').trim()
    // A blank or too long question is posted: the server says what is wrong, beside the field.
    if (!question || question.length > QUESTION_MAX_LENGTH) return
    event.preventDefault()
    if (data.has('model')) setSentModel(String(data.get('model')))
    setStreamLocation(location.key)
    streamCount.current += 1
    setStreamForm({ key: `stream:${streamCount.current}`, logId: null })
    void start(data).then(({ isStreaming }) => {
      if (isStreaming) return
      setStreamLocation(null)
      setStreamForm(null)
      setRefusedDraft({ key: `refused:${streamCount.current}`, question: String(data.get('question') ?? '') })
      submit(data, { method: 'post', action: '/ask' })
    })
  }

  /** With scripts, Enter sends the question and Shift+Enter adds a line (without them, Enter adds a line). */
  function sendOnEnter(event: KeyboardEvent<HTMLFormElement>) {
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing || !(event.target instanceof HTMLTextAreaElement)) return
    event.preventDefault()
    if (isAsking) return
    event.currentTarget.requestSubmit()
  }

  let answerSection: ReactNode = null
  if (shownStream) {
    answerSection = (
      <AnswerSection focusKey={`stream:${shownStream.id}`} isBusy={shownStream.phase === 'writing'}>
        <StreamedAnswerView stream={shownStream} thread={threadId} />
      </AnswerSection>
    )
  } else if (isUnknownTask || isUnknownThread) {
    answerSection = (
      <AnswerSection focusKey={`unknown:${taskId ?? ''}`}>
        <p>{isUnknownThread ? 'That conversation is not available. Start a new thread to ask.' : 'That answer is no longer available. Ask the question again.'}</p>
      </AnswerSection>
    )
  } else if ((isPending || (!answer && check === 0)) && (taskId || (isPending && logId))) {
    // A queued question by its task; or a streamed answer still being written by its log (its asker left or reloaded).
    const pendingAddress = taskId ? { thread: threadId, task: taskId } : { thread: threadId, log: logId }
    // A task's checks follow SEED.md's schedule from its post; a log's begin when its address is opened.
    const next = check === null ? (taskId ? null : nextAnswerCheck(0)) : nextAnswerCheck(check)
    const checkAgain = answerPath(pendingAddress, '#answer')
    answerSection = (
      <AnswerSection focusKey={taskId ? `task:${taskId}` : `log:${logId ?? ''}`} isBusy>
        {answer?.command ? <AskedQuestion question={answer.command} /> : null}
        {next ? (
          <>
            <p>
              Still working on your answer…{check ? ` (check ${check} of ${MAX_ANSWER_TRIES})` : ''}
            </p>
            <PollAgain seconds={next.waitSeconds} url={answerPath({ ...pendingAddress, check: next.check }, '#answer')} />
          </>
        ) : (
          <p>
            The answer is taking longer than expected. <Link to={checkAgain}>Check again</Link>
          </p>
        )}
      </AnswerSection>
    )
  } else if (answer) {
    answerSection = (
      <AnswerSection focusKey={taskId ? `task:${taskId}` : `log:${logId ?? ''}`}>
        <AnswerContent answer={answer} address={address} savedNote={data.savedNote} />
      </AnswerSection>
    )
  }

  return (
    <>
      <section className={layout.card} aria-labelledby="ask-heading">
        <div className={askStyles.askBar}>
          <h1 id="ask-heading" style={{ margin: 0 }}>
            Ask
          </h1>
          {threadId !== null || isUnknownThread ? (
            <Link to="/ask" className={controls.button} data-variant="secondary">
              New thread
            </Link>
          ) : null}
        </div>
        <p className={layout.muted}>{whoAmI.bot_who_am_i}</p>
        {/* The buttons submit the form below to /ask, so what is typed in it comes along to the other way's field;
            with scripts the page carries it over itself, without a round trip in which typing would be lost. */}
        <div role="group" className={askStyles.modeSwitch} aria-label="Way to ask">
          <span className={layout.muted}>Ask for:</span>
          {(
            [
              ['expert', 'An answer from the knowledge base'],
              ['agent', 'The agent'],
            ] as const
          ).map(([value, label]) => (
            <button
              key={value}
              type="submit"
              form={mode === 'agent' ? AGENT_FORM_ID : form.id}
              formAction="/ask"
              formMethod="post"
              formNoValidate
              name="mode"
              value={value}
              className={controls.button}
              data-variant={mode === value ? 'primary' : 'secondary'}
              aria-pressed={mode === value}
              onClick={(event) => {
                if (!isHydrated) return
                event.preventDefault()
                if (value === mode) return
                const field = document.getElementById(mode === 'agent' ? 'ask-command' : fields.question.id)
                setScriptSwitch({ mode: value, draft: field instanceof HTMLTextAreaElement ? field.value : '' })
                modeFetcher.submit({ mode: value, remember_only: '1' }, { method: 'post', action: '/ask' })
              }}
            >
              {label}
            </button>
          ))}
        </div>
        {mode === 'agent' ? (
          <Form key="agent" method="post" action="/agent" id={AGENT_FORM_ID} aria-label="Run the agent">
            <input type="hidden" name="intent" value="run" />
            <TextField
              label="Command"
              name="command"
              id="ask-command"
              defaultValue={switched?.draft}
              isRequired
              isMultiline
              rows={3}
              maxLength={QUESTION_MAX_LENGTH}
              description="The agent plans, searches the knowledge base, checks its evidence and answers on the Agent screen."
            />
            <Button>Run agent</Button>
          </Form>
        ) : (
          // A new answer (its task or log) brings an empty field for the next question, as the page without scripts
          // does; the checks of one answer, and a refused question, keep what is typed. A streamed one empties it as
          // it is sent (expertFormKey).
          <Form key={expertFormKey} method="post" action="/ask" {...getFormProps(form)} onSubmit={askByStream} onKeyDown={sendOnEnter}>
            <input type="hidden" name="timezone" value={timezone} />
            {isFollowUp ? <input type="hidden" name="thread" value={threadId} /> : null}
            {keptDraft && !form.errors?.length ? <KeptDraftNotice isCut={keptDraft.isCut} noun="question" button="Ask" /> : null}
            {/* A refusal of the whole question (too many questions for now): the question stays below, to ask again. */}
            {form.errors?.length ? (
              <p id={form.errorId} className={layout.notice} data-severity="warn" role="alert">
                {form.errors.join(' ')}
              </p>
            ) : null}
            <TextField
              label={isFollowUp ? 'Follow-up question' : 'Question'}
              name={fields.question.name}
              id={fields.question.id}
              defaultValue={switched?.draft ?? refusedDraft?.question ?? (typeof fields.question.initialValue === 'string' ? fields.question.initialValue : keptDraft?.text)}
              errors={fields.question.errors}
              description={isHydrated ? 'Enter sends the question; Shift+Enter adds a line.' : undefined}
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
                  defaultValue={models.models.includes(chosenModel) ? chosenModel : ''}
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
                    {inFieldWords(fields.model.errors, { name: 'model', label: 'Model' })}
                  </p>
                ) : null}
              </div>
            ) : null}
            <Button isDisabled={isAsking}>{isAsking ? 'Asking…' : 'Ask'}</Button>
          </Form>
        )}
      </section>

      {answerSection}

      {/* While a follow-up streams, the answer it follows joins the earlier turns. */}
      <EarlierTurns turns={shownStream && answer && isFollowUp ? [...earlier, answer] : earlier} />

      {shortcuts.length && mode === 'expert' ? (
        <section className={layout.card}>
          <Form method="post" action="/ask" className={layout.toolbar} style={{ marginBottom: 0 }} aria-label="Query shortcuts" onSubmit={askByStream}>
            <input type="hidden" name="timezone" value={timezone} />
            <span className={layout.muted}>Try:</span>
            {shortcuts.map((query) => (
              <Button key={query} name="question" value={query} variant="secondary" isDisabled={isAsking}>
                {query}
              </Button>
            ))}
          </Form>
        </section>
      ) : null}

      {agentShortcuts.length && mode === 'agent' ? (
        // The Agent screen's shortcuts, run as there (the answer is on the Agent screen). A form of their own: the
        // command field's required check must not stop a shortcut, which needs nothing typed.
        <section className={layout.card}>
          <Form method="post" action="/agent" className={layout.toolbar} style={{ marginBottom: 0 }} aria-label="Query shortcuts">
            <input type="hidden" name="intent" value="run" />
            <span className={layout.muted}>Try:</span>
            {agentShortcuts.map((query) => (
              <Button key={query} name="shortcut" value={query} variant="secondary" isDisabled={navigation.state === 'submitting'}>
                {query}
              </Button>
            ))}
          </Form>
        </section>
      ) : null}

      <RecentThreads threads={recent} currentThread={threadId} moreHref={moreRecentHref} olderHref={olderRecentHref} newerHref={newerRecentHref} />

      {mayReadBotInfo ? (
        <section id={BOT_INFO_ID} className={layout.card} aria-labelledby="bot-info-heading">
          <Form method="post" action="/ask" className={layout.toolbar}>
            <h2 id="bot-info-heading" style={{ margin: 0 }}>
              Bot info
            </h2>
            <input type="hidden" name="intent" value="toggleBotInfo" />
            {taskId ? <input type="hidden" name="task" value={taskId} /> : null}
            {logId ? <input type="hidden" name="log" value={logId} /> : null}
            {threadId ? <input type="hidden" name="thread" value={threadId} /> : null}
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

/** An answer as it streams: its words as they arrive (read out politely), then the complete answer in their place. */
function StreamedAnswerView({ stream, thread }: { stream: AnswerStream; thread: number | null }) {
  if (stream.phase === 'complete' && stream.answer) {
    return <AnswerContent answer={stream.answer} address={stream.answer.log_id ? { log: stream.answer.log_id, thread: stream.answer.thread_id ?? thread } : null} />
  }
  return (
    <>
      {stream.question ? <AskedQuestion question={stream.question} /> : null}
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
