import type { Source } from '../../../contracts/ask'
import { LocalTime } from '~/components/local-time'
import { MarkdownView } from '~/components/markdown/markdown-view'
import * as layout from '~/styles/layout.css'
import { answerReturnPath, sourceHref, type RenderedAnswer } from './answer-content'
import * as styles from './ask.css'
import { AskedQuestion, clippedText } from './asked-question'

const sourceTitle = (source: Source) => source.metadata.title || source.metadata.source

/** The earlier questions of a thread and their answers, oldest first: what the latest answer follows on from. */
export function EarlierTurns({ turns }: { turns: RenderedAnswer[] }) {
  if (turns.length === 0) return null
  return (
    <section className={layout.card} aria-labelledby="earlier-heading">
      <h2 id="earlier-heading">Earlier in this thread</h2>
      <ol className={styles.turns}>
        {turns.map((turn) => {
          const key = turn.log_id ?? 0
          return (
            <li key={key} className={styles.turn}>
              <AskedQuestion question={turn.command ?? ''} className={styles.turnQuestion} />
              {turn.success && turn.result_document ? (
                <MarkdownView
                  id={`turn-${key}-text`}
                  document={turn.result_document}
                  headingLevel={4}
                  citation={(n) => {
                    const source = turn.source_list[n - 1]
                    return source ? { href: `#turn-${key}-source-${n}`, title: sourceTitle(source) } : undefined
                  }}
                />
              ) : (
                <p className={layout.muted}>{turn.error ?? 'This question has no answer yet.'}</p>
              )}
              {turn.source_list.length ? (
                <>
                  <p className={layout.muted} aria-hidden="true">
                    Sources
                  </p>
                  <ol aria-label={`Sources of the answer to: ${turn.command ?? ''}`}>
                    {turn.source_list.map((source, index) => (
                      <li key={`${source.metadata.id}-${index}`} id={`turn-${key}-source-${index + 1}`}>
                        <a href={sourceHref(source, answerReturnPath({ thread_id: turn.thread_id }, `#turn-${key}-text`))}>{sourceTitle(source)}</a>
                      </li>
                    ))}
                  </ol>
                </>
              ) : null}
            </li>
          )
        })}
      </ol>
    </section>
  )
}

/** How much of a question the list of recent questions shows (the thread shows the whole of it). */
const RECENT_QUESTION_LENGTH = 160

/**
 * The asker's recent threads, each by its first question, with when it was last asked and how many questions it
 * holds: threads that began with the same question are told apart.
 */
export function RecentThreads({
  threads,
  currentThread,
  moreHref,
  olderHref = null,
  newerHref = null,
}: {
  threads: { thread_id: number; command: string; turns: number; last_asked: string }[]
  currentThread: number | null
  /** Where the list goes on, when the user has more threads than it shows. */
  moreHref: string | null
  /** In the longer list, a page at a time: its older threads, and its newer ones. */
  olderHref?: string | null
  newerHref?: string | null
}) {
  if (threads.length === 0 && !newerHref) return null
  return (
    <section className={layout.card} aria-labelledby="recent-heading">
      <h2 id="recent-heading">Your recent questions</h2>
      {threads.length === 0 ? <p className={layout.muted}>No older questions.</p> : null}
      <ul className={styles.recentList} hidden={threads.length === 0}>
        {threads.map((thread) => (
          <li key={thread.thread_id}>
            <a href={`/ask?thread=${thread.thread_id}#answer`} aria-current={thread.thread_id === currentThread ? 'page' : undefined}>
              {clippedText(thread.command, RECENT_QUESTION_LENGTH)}
            </a>
            <span className={layout.muted}>
              {' · '}
              <LocalTime iso={thread.last_asked} />
              {thread.turns > 1 ? ` · ${thread.turns} questions` : null}
            </span>
          </li>
        ))}
      </ul>
      {moreHref ? (
        <p>
          <a href={moreHref}>Show more of your questions</a>
        </p>
      ) : null}
      {olderHref || newerHref ? (
        <p className={styles.recentPages}>
          {newerHref ? <a href={newerHref}>Newer questions</a> : null}
          {olderHref ? <a href={olderHref}>Older questions</a> : null}
        </p>
      ) : null}
    </section>
  )
}
