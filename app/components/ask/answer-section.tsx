import { useEffect, useRef, type ReactNode } from 'react'
import * as layout from '~/styles/layout.css'
import * as askStyles from './ask.css'

/** The answer section's fragment: Ask's and the agent screens' addresses carry `#answer` to open the page at it. */
export const ANSWER_ID = 'answer'

/**
 * An answer (or the run on its way to one), after the form that asked for it: `#answer` opens the page at it, and when
 * a new answer arrives (`focusKey` changes) its heading takes focus, unless the reader is already in it (a streamed
 * answer getting its address). Used by Ask and by both agent screens.
 */
export function AnswerSection({ focusKey, isBusy = false, children }: { focusKey: string; isBusy?: boolean; children: ReactNode }) {
  const section = useRef<HTMLElement>(null)
  const heading = useRef<HTMLHeadingElement>(null)
  useEffect(() => {
    if (section.current?.contains(document.activeElement)) return
    heading.current?.focus()
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
