import { Input, Label, Text, TextArea, TextField as AriaTextField } from 'react-aria-components'
import * as styles from './controls.css'

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
}

/**
 * An outlined text field. Validation messages from the server (or conform, with scripts on) sit beside the
 * field; `required` keeps the browser's own check working before scripts load.
 */
export function TextField({ label, name, id, defaultValue, errors, description, isRequired, isMultiline, rows = 4, type = 'text', maxLength }: TextFieldProps) {
  const fieldId = id ?? `field-${name}`
  const errorId = `${fieldId}-error`
  const hasErrors = Boolean(errors?.length)
  const inputProps = {
    id: fieldId,
    className: styles.input,
    'aria-invalid': hasErrors || undefined,
    'aria-describedby': hasErrors ? errorId : undefined,
  }
  return (
    <AriaTextField name={name} defaultValue={defaultValue} isRequired={isRequired} maxLength={maxLength} type={isMultiline ? undefined : type} className={styles.field}>
      <Label className={styles.label}>{label}</Label>
      {isMultiline ? <TextArea {...inputProps} rows={rows} /> : <Input {...inputProps} />}
      {description ? (
        <Text slot="description" className={styles.description}>
          {description}
        </Text>
      ) : null}
      {hasErrors ? (
        <p id={errorId} className={styles.error} role="alert">
          {errors!.join(' ')}
        </p>
      ) : null}
    </AriaTextField>
  )
}
