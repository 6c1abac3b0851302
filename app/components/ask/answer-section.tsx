import { useEffect, useRef, type ReactNode } from 'react'
import * as layout from '~/styles/layout.css'
import * as askStyles from './ask.css'

/** The answer section's fragment: Ask's and the agent screens' addresses carry `#answer` to open the page at it. */
export const ANSWER_ID = 'answer'

/** A new answer whose section starts lower in the window than this share of its height is scrolled to the top. */
const ANSWER_TOP_SHARE = 0.25

/**
 * An answer (or the run on its way to one), after the form that asked for it: `#answer` opens the page at it, and when
 * a new answer arrives (`focusKey` changes) it comes to the top of the window and its heading takes focus, unless the reader is already in it (a streamed
 * answer getting its address). Used by Ask and by both agent screens.
 */
export function AnswerSection({ focusKey, isBusy = false, children }: { focusKey: string; isBusy?: boolean; children: ReactNode }) {
  const section = useRef<HTMLElement>(null)
  const heading = useRef<HTMLHeadingElement>(null)
  useEffect(() => {
    if (section.current?.contains(document.activeElement)) return
    // The answer opens at the top of the window, as `#answer` opens it without scripts: focus alone would leave a
    // heading low on a phone's screen where it is, with the answer under it out of sight.
    const top = section.current?.getBoundingClientRect().top
    if (top !== undefined && (top < 0 || top > window.innerHeight * ANSWER_TOP_SHARE)) section.current?.scrollIntoView({ block: 'start' })
    heading.current?.focus({ preventScroll: true })
  }, [focusKey])
  return (
    <section ref={section} id={ANSWER_ID} className={`${layout.card} ${askStyles.answer}`} aria-labelledby="answer-heading" aria-busy={isBusy || undefined}>
      <h2 id="answer-heading" ref={heading} tabIndex={-1} className={askStyles.answerHeading}>
        Answer
      </h2>
      {children}
    </section>
  )
}
