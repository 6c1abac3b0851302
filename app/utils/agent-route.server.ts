import { json, redirect } from '@remix-run/node'
import { z } from 'zod'
import { markdownExcerptShowing } from '~/components/markdown/markdown-document'
import { ApiError, type ApiSession } from '~/models/api.server'
import { keptDraftOf } from '~/models/ask-limits'
import { cancelAgentRun, getAgentRun, getAgentScreenSettings, listTemplateChoices, startAgentRun } from '~/models/agents.server'
import { ANSWER_ID } from '~/components/ask/answer-section'
import { getRunningTask, setRunningTask, type AgentVariant } from './agent.server'
import { requireApiSession } from './auth.server'
import { getSession, sessionStorage } from './session.server'
import { readFormData } from './form.server'
import { isTaskId } from './task-id'
import { pollCheckNumber } from './poll-check'

const pathOf = (variant: AgentVariant) => (variant === 'general' ? ('/agent' as const) : ('/agent/government' as const))

/** How much of each source's passage the screen shows under its title, as plain text. */
const AGENT_SOURCE_EXCERPT_LENGTH = 160

/**
 * A run as the screen shows it: each source's passage cut to a plain-text excerpt that shows what the run quotes from
 * it (ADR 245), here on the server.
 */
async function getShownRun(api: ApiSession, taskId: string) {
  const run = await getAgentRun(api, taskId)
  const result = typeof run.result === 'string' ? run.result : undefined
  return { ...run, source_list: run.source_list.map((source) => ({ ...source, page_content: markdownExcerptShowing(source.page_content, AGENT_SOURCE_EXCERPT_LENGTH, result) })) }
}

/**
 * Loader of an agent screen: checks the variant's running task. A finished run is forgotten and shown by its
 * address; 'not found' ends quietly (SEED.md §4); any other failure ends it with an error toast. A variant without
 * its agent in Agent settings is off: the screen says so instead of offering a run (ADR 280).
 */
export async function loadAgentScreen(request: Request, variant: AgentVariant) {
  const api = await requireApiSession(request)
  const [templates, { shortcuts, runnableVariants }] = await Promise.all([
    variant === 'government' ? listTemplateChoices(api) : [],
    getAgentScreenSettings(api),
  ])
  const isOff = !runnableVariants.includes(variant)
  const running = await getRunningTask(request, variant)
  const shownTask = new URL(request.url).searchParams.get('task')
  // A command kept through sign-in when the session ended (ADR 324): back in the field, to be run again.
  const keptDraft = running ? null : keptDraftOf(new URL(request.url))
  if (running) {
    try {
      const run = await getShownRun(api, running.taskId)
      if (run.status === 'queued' || run.status === 'running') {
        // Each check has an address of its own: a refresh to the address it is on, #answer included, would only move
        // to the fragment without reloading (no-JS polling stopped there).
        const check = pollCheckNumber(new URL(request.url).searchParams.get('check'))
        const pollUrl = `${pathOf(variant)}?check=${check + 1}#${ANSWER_ID}`
        return json({ variant, running: { taskId: running.taskId, command: run.command ?? running.command ?? '', pollUrl }, run, templates, shortcuts, isOff, keptDraft: null })
      }
      if (run.status === 'finished') {
        return redirect(`${pathOf(variant)}?task=${encodeURIComponent(running.taskId)}#${ANSWER_ID}`, { headers: { 'Set-Cookie': await setRunningTask(request, variant, null) } })
      }
      return flashError(request, variant, run.error ?? `The agent run ${run.status}`)
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) {
        return redirect(pathOf(variant), { headers: { 'Set-Cookie': await setRunningTask(request, variant, null) } })
      }
      if (error instanceof ApiError) return flashError(request, variant, error.message)
      throw error
    }
  }
  if (isTaskId(shownTask)) {
    try {
      return json({ variant, running: null, run: await getShownRun(api, shownTask), templates, shortcuts, isOff, keptDraft })
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 404)) throw error
    }
  }
  return json({ variant, running: null, run: null, templates, shortcuts, isOff, keptDraft })
}

async function flashError(request: Request, variant: AgentVariant, message: string) {
  // Forget the task and add the toast in one session commit.
  const session = await getSession(request)
  session.unset(variant === 'general' ? 'agentTaskGeneral' : 'agentTaskGovernment')
  session.flash('toast', { summary: 'Something went wrong', message, severity: 'error', life: 2000 })
  return redirect(pathOf(variant), { headers: { 'Set-Cookie': await sessionStorage().commitSession(session) } })
}

const RunForm = z.object({
  intent: z.literal('run'),
  command: z.string().default(''),
  // A query shortcut's button names its command, in place of the typed one.
  shortcut: z.string().max(4000).optional(),
  template_id: z.coerce.number().int().positive().optional(),
})

/** Action of an agent screen: run (a blank command warns 'Hey' / 'You need to provide a command') or cancel. */
export async function actAgentScreen(request: Request, variant: AgentVariant) {
  const formData = await readFormData(request)
  // A session that has ended sends a typed command to sign-in and back into this screen's field (ADR 324).
  const typed = formData.get('intent') === 'run' ? formData.get('command') : null
  const draft = typeof typed === 'string' && typed.trim() ? { path: pathOf(variant), text: typed } : undefined
  const api = await requireApiSession(request, { draft })
  if (formData.get('intent') === 'cancel') {
    const running = await getRunningTask(request, variant)
    if (!running) return redirect(pathOf(variant))
    let cancelled = true
    await cancelAgentRun(api, running.taskId).catch(() => {
      cancelled = false
    })
    // The run is shown by its address: its command comes back in the field, to change or run again, and a note says
    // what happened (a run that had just finished is shown finished).
    const session = await getSession(request)
    session.unset(variant === 'general' ? 'agentTaskGeneral' : 'agentTaskGovernment')
    if (cancelled) session.flash('toast', { summary: 'Run cancelled', message: 'The agent stopped. Your command is back in the field.', severity: 'info', life: 4000 })
    return redirect(`${pathOf(variant)}?task=${encodeURIComponent(running.taskId)}`, { headers: { 'Set-Cookie': await sessionStorage().commitSession(session) } })
  }
  const parsed = RunForm.safeParse(Object.fromEntries(formData))
  const command = parsed.success ? (parsed.data.shortcut ?? parsed.data.command).trim() : ''
  // A refused run comes back with every field as chosen: the template too (with scripts off the page is drawn anew).
  const chosenTemplate = formData.get('template_id')
  const kept = { template_id: typeof chosenTemplate === 'string' && chosenTemplate ? chosenTemplate : undefined }
  if (!command) {
    // SEED.md's warning says it, once: the field is marked invalid and points at it (AgentWarning.field).
    return json({ errors: {}, warning: { summary: 'Hey', message: 'You need to provide a command', field: 'command' }, ...kept }, { status: 400 })
  }
  const templateId = parsed.success ? parsed.data.template_id : undefined
  if (variant === 'government' && !templateId) {
    const message = 'Choose a template for the government agent. There is none yet: an administrator adds one in Settings, Templates.'
    return json({ errors: {}, warning: { summary: 'No template', message, field: 'template_id' }, command, ...kept }, { status: 400 })
  }
  try {
    const run = await startAgentRun(api, { command, variant, templateId })
    if (!run.task_id) throw new ApiError(502, { success: false, error: 'Bad Gateway', message: 'The agent run has no task id' })
    // The page opens at the run (and, once it finishes, at its answer), below the form. Only the task is kept: the
    // session is a cookie, which a command of thousands of characters would overflow.
    return redirect(`${pathOf(variant)}#${ANSWER_ID}`, { headers: { 'Set-Cookie': await setRunningTask(request, variant, { taskId: run.task_id }) } })
  } catch (error) {
    // Its agent removed from Agent settings since the screen was shown: the variant is off.
    if (error instanceof ApiError && error.status === 409 && error.fieldErrors().variant) {
      return json({ errors: {}, warning: { summary: 'Agent off', message: error.message }, command, ...kept }, { status: 409 })
    }
    // Too many questions and runs from this account for now (ASK_RATE_LIMIT): said, with the command kept to run again.
    if (error instanceof ApiError && error.status === 429) {
      const headers = error.retryAfter ? { 'Retry-After': error.retryAfter } : undefined
      return json({ errors: {}, warning: { summary: 'Too many questions', message: error.message }, command, ...kept }, { status: 429, headers })
    }
    if (error instanceof ApiError && error.status === 400) {
      const fieldErrors = error.fieldErrors()
      // What was typed comes back in the field, beside the reason.
      return json({ errors: Object.keys(fieldErrors).length ? fieldErrors : { command: [error.message] }, warning: undefined, command, ...kept }, { status: 400 })
    }
    throw error
  }
}
