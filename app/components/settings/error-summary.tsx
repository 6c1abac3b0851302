import * as styles from './settings.css'

/** A field's problems as the error summary lists them: its label, its messages and the id of its control. */
export interface FieldProblem {
  id: string
  label: string
  messages: string[]
}

/**
 * A refused long form's problems at its top, each linking to its field. Without scripts the page reloads at its
 * top, where a message beside a field further down would go unseen.
 */
export function ErrorSummary({ id, formErrors = [], problems }: { id: string; formErrors?: string[]; problems: FieldProblem[] }) {
  if (!formErrors.length && !problems.length) return null
  return (
    <div id={id} role="alert" aria-labelledby={`${id}-title`} className={styles.formError}>
      <p id={`${id}-title`} className={styles.errorSummaryTitle}>
        {formErrors.length ? formErrors.join(' ') : 'Nothing was saved. Please correct:'}
      </p>
      {problems.length ? (
        <ul className={styles.errorSummaryList}>
          {problems.map((problem) => (
            <li key={problem.id}>
              <a href={`#${problem.id}`}>
                {problem.label}: {problem.messages.join(' ')}
              </a>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  )
}
