import { Form, Link } from '@remix-run/react'
import { useEffect, useState } from 'react'
import type { AskAnswer, Source } from '../../../contracts/ask'
import { MarkdownView } from '~/components/markdown/markdown-view'
import type { MarkdownDocument } from '~/components/markdown/markdown-document'
import { Button } from '~/components/ui/button'
import * as controls from '~/components/ui/controls.css'
import { TextField } from '~/components/ui/text-field'
import { FEEDBACK_REASON_MAX_LENGTH, SAVED_COMMENT_MAX_LENGTH } from '~/models/ask-limits'
import * as layout from '~/styles/layout.css'
import { readerHref } from '~/utils/reader'
import * as styles from './ask.css'
import { sourceCards } from './source-cards'
import { AskedQuestion } from './asked-question'
import { RelatedArticles } from './related-articles'

/** An answer as the Ask page renders it: the backend's AskAnswer with its text parsed as Markdown on the server. */
export type RenderedAnswer = Pick<
  AskAnswer,
  'command' | 'success' | 'error' | 'source_list' | 'log_id' | 'note' | 'unsupported' | 'model' | 'thread_id' | 'feedback' | 'feedback_reason' | 'related_list'
> & {
  result_document: MarkdownDocument | null
}

/** Where the answer lives, for the forms that come back to it: its task (asked by form), or its log (streamed), in its thread. */
export type AnswerAddress = ({ task: string } | { log: number }) & { thread?: number | null }

/** The hidden fields that bring a form's answer back: task or log, and thread. */
export function AddressFields({ address }: { address: AnswerAddress }) {
  return (
    <>
      {'task' in address ? <input type="hidden" name="task" value={address.task} /> : <input type="hidden" name="log" value={address.log} />}
      {address.thread ? <input type="hidden" name="thread" value={address.thread} /> : null}
    </>
  )
}

/** True once the page's scripts run: what needs them (copying) is offered only then. */
export function useIsHydrated(): boolean {
  const [isHydrated, setIsHydrated] = useState(false)
  useEffect(() => setIsHydrated(true), [])
  return isHydrated
}

/**
 * The reader view of a source's passage, which every role may open; `back` is the Ask page's address to return to
 * (the reader's "Back to Ask"), so the way back is the thread even where the browser sends no Referer.
 */
export function sourceHref(source: Source, back?: string | null): string {
  return readerHref(source.metadata.doc_id, source.metadata.id, back)
}

/** The Ask page's address of an answer in its thread (`thread`, `log`), where its sources' reader comes back to. */
export function answerReturnPath(answer: { thread_id?: number | null; log_id?: number | null }, hash = '#answer'): string | null {
  const params = new URLSearchParams()
  if (answer.thread_id) params.set('thread', String(answer.thread_id))
  if (answer.log_id) params.set('log', String(answer.log_id))
  const query = params.toString()
  return query ? `/ask?${query}${hash}` : null
}

const sourceTitle = (source: Source) => source.metadata.title || source.metadata.source

const KIND_LABELS: Record<NonNullable<Source['metadata']['kind']>, string> = { article: 'Article', web_page: 'Web page', file: 'File', video: 'Video' }

const DOCX_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'

/**
 * Fetches the answer's .docx and saves it; the note to show: SEED's success text, the route's reason when the answer is
 * not there or not the asker's to download, or SEED's failure text.
 */
async function downloadDocx(href: string): Promise<string> {
  try {
    const response = await fetch(href, { headers: { 'x-download': 'script' } })
    const isReason = (response.status === 403 || response.status === 404) && (response.headers.get('content-type') ?? '').startsWith('text/plain')
    if (isReason) return (await response.text()) || 'Cannot download File. Please try again later'
    if (!response.ok || !(response.headers.get('content-type') ?? '').startsWith(DOCX_TYPE)) return 'Cannot download File. Please try again later'
    const url = URL.createObjectURL(await response.blob())
    const link = document.createElement('a')
    link.href = url
    link.download = 'answer.docx'
    link.click()
    setTimeout(() => URL.revokeObjectURL(url), 10_000)
    return 'Converted MD file downloaded'
  } catch {
    return 'Cannot download File. Please try again later'
  }
}

/**
 * The sources as cards: the article's title (to the reader, at its first quoted passage), its kind, and each quoted
 * passage with the number the answer cites it by; `#source-n` lands on passage n.
 */
function SourceCards({ sources, back }: { sources: Source[]; back: string | null }) {
  return (
    <ol aria-label="Sources" className={styles.sourceCards}>
      {sourceCards(sources).map(({ source, passages }) => (
        <li key={source.metadata.doc_id} id={`source-${passages[0].n}`} className={styles.sourceCard}>
          <p className={styles.sourceHeading}>
            <a href={sourceHref(source, back)}>{sourceTitle(source)}</a>
            {source.metadata.kind ? <span className={layout.muted}> · {KIND_LABELS[source.metadata.kind]}</span> : null}
            {source.metadata.is_deleted ? <span className={layout.muted}> (deleted)</span> : null}
          </p>
          {passages.map(({ n, source: passage }, index) =>
            passage.page_content ? (
              <blockquote key={n} id={index === 0 ? undefined : `source-${n}`} className={styles.sourcePassage}>
                <span className={styles.sourceNumber}>[{n}]</span> {passage.page_content}
                {passages.length > 1 ? (
                  <>
                    {' '}
                    <a href={sourceHref(passage, back)} aria-label={`Read passage ${n} in ${sourceTitle(passage)}`}>
                      Read in context
                    </a>
                  </>
                ) : null}
              </blockquote>
            ) : null,
          )}
        </li>
      ))}
    </ol>
  )
}

/**
 * The complete answer: its text with each "[n]" linked to the n-th source below, the note that comes with it (a model
 * that did not answer), the sentences no source supports, the sources, and the feedback, save and download actions.
 * `savedNote`: the note of the asker's saved query for this answer, when they saved it (the save form then shows it,
 * so that saving again does not wipe it).
 */
export function AnswerContent({ answer, address, savedNote = null }: { answer: RenderedAnswer; address: AnswerAddress | null; savedNote?: string | null }) {
  const [downloadNote, setDownloadNote] = useState('')
  const unsupported = answer.unsupported ?? []
  const addressFields = address ? <AddressFields address={address} /> : null
  return (
    <>
      {answer.command ? <AskedQuestion question={answer.command} /> : null}
      {answer.note ? (
        <p className={layout.notice} data-severity="warn">
          {answer.note}
        </p>
      ) : null}
      {answer.success ? (
        <MarkdownView
          id="answer-text"
          document={answer.result_document ?? { children: [] }}
          headingLevel={3}
          citation={(n) => {
            const source = answer.source_list[n - 1]
            return source ? { href: `#source-${n}`, title: sourceTitle(source) } : undefined
          }}
        />
      ) : (
        <p role="alert">{answer.error ?? 'The answer could not be produced.'}</p>
      )}
      {answer.success && unsupported.length ? (
        <div className={styles.unsupported}>
          <p>No source supports these sentences of the answer; check them before you rely on them:</p>
          <ul aria-label="Unsupported sentences">
            {unsupported.map((sentence) => (
              <li key={sentence}>
                <mark>{sentence}</mark>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {answer.success && answer.model ? <p className={layout.muted}>Written by the language model {answer.model}.</p> : null}
      {/* A not-found answer: the articles whose passages came close to the question, to read for oneself. */}
      {answer.success ? (
        <RelatedArticles articles={answer.related_list} headingId="related-heading" back={answerReturnPath({ thread_id: answer.thread_id ?? address?.thread, log_id: answer.log_id })} />
      ) : null}
      {answer.source_list.length ? (
        <>
          <h3 id="sources-heading">Sources</h3>
          <SourceCards sources={answer.source_list} back={answerReturnPath({ thread_id: answer.thread_id ?? address?.thread, log_id: answer.log_id })} />
        </>
      ) : null}
      {answer.success && answer.log_id && address ? (
        <div className={layout.answerActions}>
          <AnswerTools answer={answer} address={address} />
          <FeedbackForm answer={answer} logId={answer.log_id} address={address} />
          <Form method="post" action="/ask" id={SAVE_QUERY_FORM_ID} className={`${layout.toolbar} ${styles.returnedTo}`} aria-label="Save query">
            <input type="hidden" name="intent" value="favorite" />
            <input type="hidden" name="log_id" value={answer.log_id} />
            {addressFields}
            <TextField key={savedNote ?? ''} label="Comment for your saved query" name="comment" maxLength={SAVED_COMMENT_MAX_LENGTH} defaultValue={savedNote ?? undefined} />
            <Button variant="secondary">{savedNote === null ? 'Save query' : 'Update saved query'}</Button>
          </Form>
          {savedNote === null ? null : (
            <p className={layout.muted}>
              Saved to your queries (<Link to="/saved">Saved queries</Link>).
            </p>
          )}
          <p>
            {/* No `download` attribute: the file comes as an attachment, and a refusal or a sign-in page is shown, not saved. */}
            <a
              href={'task' in address ? `/resources/answer.docx?task=${encodeURIComponent(address.task)}` : `/resources/answer.docx?log=${encodeURIComponent(String(address.log))}`}
              onClick={(event) => {
                // With scripts the file is fetched here, so the note says what happened only once the file came.
                event.preventDefault()
                setDownloadNote('')
                void downloadDocx(event.currentTarget.href).then(setDownloadNote)
              }}
            >
              Download as Word (.docx)
            </a>
            <span role="status" className={layout.muted}>
              {downloadNote ? ` ${downloadNote}` : ''}
            </span>
          </p>
        </div>
      ) : null}
    </>
  )
}

/** The forms' fragments: sending feedback or saving the query comes back to the form that was used (ask.tsx). */
export const FEEDBACK_FORM_ID = 'feedback'
export const SAVE_QUERY_FORM_ID = 'save-query'

const FEEDBACK_LABELS = { like: 'Yes, helpful', dislike: 'No, not helpful' } as const

/**
 * Was the answer helpful: the choice so far is shown (pressed, and said in words), and a reason may go with it.
 * A plain form: the reason field, then the two choices that send it.
 */
function FeedbackForm({ answer, logId, address }: { answer: RenderedAnswer; logId: number; address: AnswerAddress }) {
  const chosen = answer.feedback ?? null
  return (
    <Form method="post" action="/ask" id={FEEDBACK_FORM_ID} className={`${styles.feedback} ${styles.returnedTo}`} aria-label="Feedback">
      <input type="hidden" name="intent" value="feedback" />
      <input type="hidden" name="log_id" value={logId} />
      <AddressFields address={address} />
      <p className={styles.feedbackQuestion}>Was this helpful?</p>
      {chosen ? (
        <p className={layout.muted} data-testid="feedback-chosen">
          Your feedback: {chosen === 'like' ? 'helpful' : 'not helpful'}
          {answer.feedback_reason ? ` (“${answer.feedback_reason}”)` : ''}. You can change it.
        </p>
      ) : null}
      <TextField
        label="Reason (optional)"
        name="reason"
        id={`feedback-reason-${logId}`}
        defaultValue={answer.feedback_reason ?? ''}
        maxLength={FEEDBACK_REASON_MAX_LENGTH}
      />
      <div className={layout.toolbar} style={{ marginBottom: 0 }}>
        {(['like', 'dislike'] as const).map((value) => (
          <button
            key={value}
            type="submit"
            name="feedback"
            value={value}
            className={controls.button}
            data-variant={chosen === value ? 'primary' : 'secondary'}
            aria-pressed={chosen === value}
          >
            {FEEDBACK_LABELS[value]}
          </button>
        ))}
      </div>
    </Form>
  )
}

/**
 * Copy (with scripts: the answer's text as read, then its sources) and ask again (a plain form: the same question,
 * in the same thread).
 */
function AnswerTools({ answer, address }: { answer: RenderedAnswer; address: AnswerAddress }) {
  const isHydrated = useIsHydrated()
  const [copyNote, setCopyNote] = useState('')

  async function copyAnswer() {
    const text = document.getElementById('answer-text')?.innerText.trim() ?? ''
    const sources = answer.source_list.map((source, index) => `[${index + 1}] ${sourceTitle(source)}`).join('\n')
    try {
      await navigator.clipboard.writeText(sources ? `${text}\n\nSources:\n${sources}` : text)
      setCopyNote('Answer copied')
    } catch {
      setCopyNote('The answer could not be copied; select its text instead')
    }
  }

  return (
    <div className={layout.toolbar} style={{ marginBottom: 0 }}>
      {isHydrated ? (
        <>
          <Button type="button" variant="secondary" onPress={() => void copyAnswer()}>
            Copy answer
          </Button>
          <span role="status" className={layout.muted}>
            {copyNote}
          </span>
        </>
      ) : null}
      {answer.command ? (
        <Form method="post" action="/ask" aria-label="Ask again">
          <input type="hidden" name="question" value={answer.command} />
          {address.thread ? <input type="hidden" name="thread" value={address.thread} /> : null}
          <Button variant="secondary">Ask again</Button>
        </Form>
      ) : null}
    </div>
  )
}
