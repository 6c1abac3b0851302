import type { Failure } from './form-errors'
import * as styles from './settings.css'
import { inSentences } from '~/utils/form-words'

/** A failed load shown in the page, as the error toast of SEED.md §8 would say it; it stays until the next load. */
export function FailureMessage({ failure }: { failure: Failure | null | undefined }) {
  if (!failure) return null
  return (
    <div role="alert" className={styles.formError}>
      <strong>{failure.summary}</strong>
      <div>{failure.message}</div>
    </div>
  )
}

/** The form-level errors of a conform form (a backend refusal that names no field). */
export function FormErrors({ id, errors }: { id: string; errors?: string[] }) {
  if (!errors?.length) return null
  return (
    <div id={id} role="alert" className={styles.formError}>
      {inSentences(errors)}
    </div>
  )
}
