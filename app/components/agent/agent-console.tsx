import { Form, Link, useActionData, useLoaderData, useLocation, useNavigation } from '@remix-run/react'
import type { AskAnswer } from '../../../contracts/ask'
import { AnswerSection } from '~/components/ask/answer-section'
import { Markdown } from '~/components/markdown/markdown'
import { PollAgain } from '~/components/poll'
import { Button } from '~/components/ui/button'
import * as controls from '~/components/ui/controls.css'
import * as selectStyles from '~/components/ui/select.css'
import { TextField } from '~/components/ui/text-field'
import * as layout from '~/styles/layout.css'
import { backHere, readerHref } from '~/utils/reader'
import * as styles from './agent.css'
import { sourceCards } from '~/components/ask/source-cards'
import { AskedQuestion, clippedText, SHOWN_QUESTION_LENGTH } from '~/components/ask/asked-question'
import { KeptDraftNotice } from '~/components/ask/kept-draft-notice'


/** The trace's step names and statuses in words (toggle_debug's trace is read by people, not parsed). */
const STEP_NAMES: Record<string, string> = {
  plan: 'Plan',
  retrieve: 'Search',
  grade: 'Check the evidence',
  compose: 'Write the answer',
  fill_template: 'Fill the template',
  firewall: 'Semantic firewall',
}
const STATUS_NAMES: Record<'done' | 'failed' | 'resumed' | 'blocked', string> = { done: 'done', failed: 'failed', resumed: 'resumed after a restart', blocked: 'blocked' }

export interface AgentConsoleData {
  variant: 'general' | 'government'
  /** The run under way, and the address its next check goes to. */
  running: { taskId: string; command: string; pollUrl: string } | null
  run: AskAnswer | null
  templates: { id: number; name: string }[]
  /** The agent query shortcuts of Agent settings: commands run with one press. */
  shortcuts: string[]
  /** No agent in Agent settings is named after this variant, so it runs nothing (ADR 280). */
  isOff: boolean
  /** A command kept through sign-in when the session ended (ADR 324), and whether only its beginning fitted. */
  keptDraft: { text: string; isCut: boolean } | null
}

/** How often a running agent is checked (SEED.md leaves the interval open; polling itself is unlimited). */
export const AGENT_POLL_SECONDS = 2

/** A refused run's warning (SEED.md: 'Hey' / 'You need to provide a command'), and the field it is about. */
interface AgentWarning {
  summary: string
  message: string
  field?: 'command' | 'template_id'
}

const WARNING_ID = 'agent-warning'

/** The command form, the running task and the finished answer of one agent variant. */
export function AgentConsole({ title, description }: { title: string; description: string }) {
  const { variant, running, run, templates, shortcuts, isOff, keptDraft } = useLoaderData<AgentConsoleData>()
  const actionData = useActionData<{ errors?: Record<string, string[]>; warning?: AgentWarning; command?: string; template_id?: string }>()
  const navigation = useNavigation()
  const location = useLocation()
  const isBusy = navigation.state === 'submitting'
  // The field a warning is about is marked invalid and described by it; the warning is not said again beside it.
  const warnedField = actionData?.warning?.field
  const templateErrorId = actionData?.errors?.template_id ? 'template_id-error' : warnedField === 'template_id' ? WARNING_ID : undefined
  return (
    <>
      <section className={layout.card} aria-labelledby="agent-heading">
        <h1 id="agent-heading">{title}</h1>
        <p className={layout.muted}>{description}</p>
        {actionData?.warning ? (
          <div role="status" id={WARNING_ID} className={layout.notice} data-severity="warn">
            <strong>{actionData.warning.summary}</strong>
            <div>{actionData.warning.message}</div>
          </div>
        ) : null}
        {isOff ? (
          // Without its agent the variant may use no tool, so it offers no run rather than one that finds nothing.
          <p className={layout.notice} data-severity="warn" id="agent-off">
            The {variant} agent is off: Agent settings have no agent named “{variant}”, so it has nothing to run with. An
            administrator adds one in <Link to="/settings/agent">Settings, Agent</Link>.
          </p>
        ) : (
          <Form method="post">
            <input type="hidden" name="intent" value="run" />
            {keptDraft && !actionData ? <KeptDraftNotice isCut={keptDraft.isCut} noun="command" button="Run agent" /> : null}
            <TextField
              label="Command"
              name="command"
              errors={actionData?.errors?.command}
              invalidBy={warnedField === 'command' ? WARNING_ID : undefined}
              isMultiline
              rows={3}
              maxLength={4000}
              defaultValue={actionData?.command ?? running?.command ?? (run && !running && run.status === 'cancelled' ? (run.command ?? undefined) : keptDraft?.text)}
            />
            {variant === 'government' && templates.length ? (
              // A native select (it posts with scripts off), drawn like the other fields: as wide as the form, in its font.
              <div className={controls.field}>
                <label htmlFor="template_id" className={controls.label}>
                  Template
                </label>
                <select
                  id="template_id"
                  name="template_id"
                  // The template chosen for a refused run stays chosen (with scripts off the page is drawn anew).
                  defaultValue={actionData?.template_id}
                  className={selectStyles.trigger}
                  required
                  aria-invalid={Boolean(templateErrorId) || undefined}
                  aria-describedby={templateErrorId}
                >
                  {templates.map((template) => (
                    <option key={template.id} value={template.id}>
                      {template.name}
                    </option>
                  ))}
                </select>
                {actionData?.errors?.template_id ? (
                  <p id="template_id-error" role="alert" className={controls.error}>
                    {actionData.errors.template_id.join(' ')}
                  </p>
                ) : null}
              </div>
            ) : null}
            {variant === 'government' && templates.length === 0 ? (
              // Without a template the agent cannot run: say so here, and again (as an alert) if Run agent is pressed.
              <p className={layout.notice} data-severity="warn" id="no-template">
                No templates with sections yet, so the government agent has nothing to fill. An administrator adds one in{' '}
                <Link to="/settings/templates">Settings, Templates</Link>.
              </p>
            ) : null}
            {shortcuts.length ? (
              <div className={layout.toolbar} role="group" aria-label="Query shortcuts">
                <span className={layout.muted}>Try:</span>
                {shortcuts.map((query) => (
                  <Button key={query} name="shortcut" value={query} variant="secondary" isDisabled={isBusy || Boolean(running)}>
                    {query}
                  </Button>
                ))}
              </div>
            ) : null}
            <Button isDisabled={isBusy || Boolean(running)}>Run agent</Button>
          </Form>
        )}
      </section>

      {running ? (
        <AnswerSection focusKey={`running:${running.taskId}`} isBusy>
          <p role="status">
            Working on “{clippedText(running.command, SHOWN_QUESTION_LENGTH)}”… ({run?.status ?? 'queued'})
          </p>
          <Form method="post">
            <input type="hidden" name="intent" value="cancel" />
            <Button variant="secondary">Cancel run</Button>
          </Form>
          <PollAgain seconds={AGENT_POLL_SECONDS} url={running.pollUrl} />
        </AnswerSection>
      ) : null}

      {run && !running && run.status === 'finished' ? (
        <AnswerSection focusKey={`finished:${run.task_id ?? ''}`}>
          {run.command ? <AskedQuestion question={run.command} lead="Command" noun="command" /> : null}
          {/* A model that failed: the answer (or some of its sections) quotes the sources instead, said as on Ask. */}
          {run.note ? (
            <p className={layout.notice} data-severity="warn">
              {run.note}
            </p>
          ) : null}
          <Markdown
            source={run.result ?? ''}
            headingLevel={3}
            citation={(n) => {
              const source = run.source_list[n - 1]
              return source ? { href: `#agent-source-${n}`, title: source.metadata.title || source.metadata.source } : undefined
            }}
          />
          {run.model ? <p className={layout.muted}>Written by the language model {run.model}.</p> : null}
          {run.source_list.length ? (
            <>
              <h3>Sources</h3>
              {/* An article once, with each passage quoted from it under the number the answer cites it by. */}
              <ol aria-label="Sources">
                {sourceCards(run.source_list).map(({ source, passages }) => (
                  <li key={source.metadata.doc_id} id={`agent-source-${passages[0].n}`}>
                    {source.metadata.is_deleted ? (
                      <>
                        {source.metadata.title || source.metadata.source}
                        <span className={layout.muted}> (deleted)</span>
                      </>
                    ) : (
                      <Link to={readerHref(source.metadata.doc_id, source.metadata.id, backHere(location, `agent-source-${passages[0].n}`))}>{source.metadata.title || source.metadata.source}</Link>
                    )}
                    {passages.map(({ n, source: passage }, index) =>
                      passage.page_content ? (
                        <p key={n} id={index === 0 ? undefined : `agent-source-${n}`} className={styles.sourceExcerpt}>
                          {passages.length > 1 ? `[${n}] ` : ''}
                          {passage.page_content}
                        </p>
                      ) : null,
                    )}
                  </li>
                ))}
              </ol>
            </>
          ) : null}
          {run.log_agent_ask_qa?.length ? (
            <details>
              <summary>Steps ({run.log_agent_ask_qa.length})</summary>
              <ol aria-label="Agent steps">
                {run.log_agent_ask_qa.map((entry, index) => (
                  <li key={index}>
                    <strong>{entry.tool ? `${STEP_NAMES[entry.step] ?? entry.step}: ${entry.tool}` : (STEP_NAMES[entry.step] ?? entry.step)}</strong>
                    {entry.status === 'done' ? null : <span className={layout.muted}> ({STATUS_NAMES[entry.status]})</span>} {entry.detail}
                    {entry.error ? <span className={layout.muted}> {entry.error}</span> : null}
                  </li>
                ))}
              </ol>
            </details>
          ) : null}
          {run.task_id ? (
            <p>
              <a href={`/resources/answer.docx?task=${encodeURIComponent(run.task_id)}`}>
                Download as Word (.docx)
              </a>
            </p>
          ) : null}
        </AnswerSection>
      ) : null}
    </>
  )
}
