import { Form } from '@remix-run/react'
import { useState } from 'react'
import type { AskAnswer, Source } from '../../../contracts/ask'
import { MarkdownView } from '~/components/markdown/markdown-view'
import type { MarkdownDocument } from '~/components/markdown/markdown-document'
import { Button } from '~/components/ui/button'
import { TextField } from '~/components/ui/text-field'
import * as layout from '~/styles/layout.css'
import * as styles from './ask.css'

/** An answer as the Ask page renders it: the backend's AskAnswer with its text parsed as Markdown on the server. */
export type RenderedAnswer = Pick<AskAnswer, 'command' | 'success' | 'error' | 'source_list' | 'log_id' | 'note' | 'unsupported' | 'model'> & {
  result_document: MarkdownDocument | null
}

/** Where the answer lives, for the forms that come back to it: its task (asked by form), or its log (streamed). */
export type AnswerAddress = { task: string } | { log: number }

/** The reader view of a source's passage, which every role may open. */
export function sourceHref(source: Source): string {
  return `/read/${source.metadata.doc_id}?passage=${source.metadata.id}#passage`
}

const sourceTitle = (source: Source) => source.metadata.title || source.metadata.source

/**
 * The complete answer: its text with each "[n]" linked to the n-th source below, the note that comes with it (a model
 * that did not answer), the sentences no source supports, the sources, and the feedback, save and download actions.
 */
export function AnswerContent({ answer, address }: { answer: RenderedAnswer; address: AnswerAddress | null }) {
  const [downloadNote, setDownloadNote] = useState('')
  const unsupported = answer.unsupported ?? []
  const addressFields =
    address && 'task' in address ? <input type="hidden" name="task" value={address.task} /> : address ? <input type="hidden" name="log" value={address.log} /> : null
  return (
    <>
      {answer.command ? <p className={layout.muted}>You asked: {answer.command}</p> : null}
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
      {answer.source_list.length ? (
        <>
          <h3 id="sources-heading">Sources</h3>
          <ol aria-label="Sources">
            {answer.source_list.map((source, index) => (
              <li key={`${source.metadata.id}-${index}`} id={`source-${index + 1}`}>
                <a href={sourceHref(source)}>{sourceTitle(source)}</a>
                {source.metadata.is_deleted ? <span className={layout.muted}> (deleted)</span> : null}
              </li>
            ))}
          </ol>
        </>
      ) : null}
      {answer.success && answer.log_id && address ? (
        <div className={layout.answerActions}>
          <Form method="post" action="/ask" className={layout.toolbar} aria-label="Feedback">
            <input type="hidden" name="intent" value="feedback" />
            <input type="hidden" name="log_id" value={answer.log_id} />
            {addressFields}
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
            {addressFields}
            <TextField label="Comment for your saved query" name="comment" maxLength={5000} />
            <Button variant="secondary">Save query</Button>
          </Form>
          <p>
            <a
              href={'task' in address ? `/resources/answer.docx?task=${encodeURIComponent(address.task)}` : `/resources/answer.docx?log=${encodeURIComponent(String(address.log))}`}
              download
              onClick={() => setDownloadNote('Converted MD file downloaded')}
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
