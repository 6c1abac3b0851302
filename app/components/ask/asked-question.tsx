import * as layout from '~/styles/layout.css'

/** How much of a question "You asked" shows before the rest goes behind "The whole question". */
export const SHOWN_QUESTION_LENGTH = 280

/** The text cut to at most `length` characters, at a word where there is one, with an ellipsis when cut. */
export function clippedText(text: string, length: number): string {
  if (text.length <= length) return text
  const cut = text.slice(0, length)
  const atWord = cut.replace(/\s+\S*$/, '')
  return `${(atWord.length >= length * 0.6 ? atWord : cut).trimEnd()}…`
}

/**
 * The question an answer answers, above it. A long one (a pasted page) is shown in part, the whole of it a press
 * away (a disclosure, which works without scripts), so the answer stays near the top of the window.
 */
export function AskedQuestion({
  question,
  className = layout.muted,
  lead = 'You asked',
  noun = 'question',
}: {
  question: string
  className?: string
  lead?: string
  noun?: string
}) {
  if (question.length <= SHOWN_QUESTION_LENGTH) {
    return (
      <p className={className}>
        {lead}: {question}
      </p>
    )
  }
  return (
    <div className={className}>
      <p style={{ marginBottom: '0.25rem' }}>
        {lead}: {clippedText(question, SHOWN_QUESTION_LENGTH)}
      </p>
      <details>
        <summary>
          The whole {noun} ({question.length.toLocaleString('en')} characters)
        </summary>
        <p style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{question}</p>
      </details>
    </div>
  )
}
