import * as styles from './controls.css'
import { LabelRow } from './required-mark'
import { inFieldWords } from '~/utils/form-words'

/** A conform field's metadata, as much of it as a text field needs. */
interface ConformField {
  name: string
  id: string
  initialValue?: unknown
  errors?: string[]
}

/**
 * name, id, defaultValue and errors of a conform field, for <TextField> or <Select>. The value is what was posted when
 * the form comes back refused (conform keeps it as the field's initial value), else `stored`: a refusal never wipes
 * what was typed or chosen, with scripts or without.
 */
export function fieldProps(field: ConformField, stored = '') {
  return { name: field.name, id: field.id, defaultValue: typeof field.initialValue === 'string' ? field.initialValue : stored, errors: field.errors }
}

interface TextFieldProps {
  label: string
  name: string
  id?: string
  defaultValue?: string
  errors?: string[]
  description?: string
  isRequired?: boolean
  isMultiline?: boolean
  rows?: number
  type?: 'text' | 'search' | 'url' | 'email' | 'password' | 'number'
  maxLength?: number
  minLength?: number
  /** What the browser or a password manager may fill in (`current-password`, `new-password`, …). */
  autoComplete?: string
  /** The id of a message elsewhere on the page that says what is wrong with the field: it is marked invalid and described by it, the message not repeated. */
  invalidBy?: string
}

/**
 * An outlined text field: a native label and input (or textarea), so it works before and without scripts and ships
 * no widget library. Validation messages from the server (or conform, with scripts on) sit beside the field and are
 * tied to it by aria-describedby; `required` keeps the browser's own check working before scripts load.
 */
export function TextField({ label, name, id, defaultValue, errors, description, isRequired, isMultiline, rows = 4, type = 'text', maxLength, minLength, autoComplete, invalidBy }: TextFieldProps) {
  const fieldId = id ?? `field-${name}`
  const errorId = `${fieldId}-error`
  const descriptionId = `${fieldId}-description`
  const hasErrors = Boolean(errors?.length)
  const describedBy = [hasErrors ? errorId : null, invalidBy ?? null, description ? descriptionId : null].filter(Boolean).join(' ') || undefined
  const inputProps = {
    id: fieldId,
    name,
    defaultValue,
    required: isRequired,
    maxLength,
    minLength,
    autoComplete,
    className: styles.input,
    'aria-invalid': hasErrors || Boolean(invalidBy) || undefined,
    'aria-describedby': describedBy,
  }
  return (
    <div className={styles.field}>
      <LabelRow isRequired={isRequired}>
        <label className={styles.label} htmlFor={fieldId}>
          {label}
        </label>
      </LabelRow>
      {isMultiline ? <textarea {...inputProps} rows={rows} /> : <input {...inputProps} type={type} />}
      {description ? (
        <p id={descriptionId} className={styles.description}>
          {description}
        </p>
      ) : null}
      {hasErrors ? (
        <p id={errorId} className={styles.error} role="alert">
          {inFieldWords(errors!, { name, label })}
        </p>
      ) : null}
    </div>
  )
}
