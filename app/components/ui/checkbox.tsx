import { Checkbox as AriaCheckbox, Switch as AriaSwitch } from 'react-aria-components'
import { z } from 'zod'
import * as controls from './controls.css'
import * as styles from './checkbox.css'
import { inFieldWords } from '~/utils/form-words'

interface ToggleProps {
  label: string
  name: string
  id?: string
  defaultSelected?: boolean
  description?: string
  errors?: string[]
}

/**
 * How a Switch or Checkbox arrives in form data: a hidden 'false' and, when on, a 'true' after it (SEED.md §5:
 * booleans as the strings 'true'/'false'). The last value wins; a missing field is false.
 */
export const PostedBoolean = z.preprocess((value) => (Array.isArray(value) ? value[value.length - 1] : value), z.enum(['true', 'false']).default('false'))

/** Whether a posted (or conform initial) value of a Switch or Checkbox is on. */
export function isPostedTrue(value: unknown): boolean {
  const last = Array.isArray(value) ? value[value.length - 1] : value
  return last === true || last === 'true'
}

function useToggleIds({ id, name, description, errors }: ToggleProps) {
  const fieldId = id ?? `field-${name}`
  const hasErrors = Boolean(errors?.length)
  return {
    fieldId,
    errorId: `${fieldId}-error`,
    descriptionId: `${fieldId}-description`,
    hasErrors,
    describedBy: [description ? `${fieldId}-description` : null, hasErrors ? `${fieldId}-error` : null].filter(Boolean).join(' ') || undefined,
  }
}

function HelpText({ field, description, errors, descriptionId, errorId }: { field: { name: string; label: string }; description?: string; errors?: string[]; descriptionId: string; errorId: string }) {
  return (
    <>
      {description ? (
        <p id={descriptionId} className={controls.description} style={{ margin: '0.25rem 0 0' }}>
          {description}
        </p>
      ) : null}
      {errors?.length ? (
        <p id={errorId} className={controls.error} role="alert" style={{ margin: '0.25rem 0 0' }}>
          {inFieldWords(errors, field)}
        </p>
      ) : null}
    </>
  )
}

/**
 * An on/off switch (react-aria-components). Its input is a real checkbox inside a <label>, so it toggles and
 * posts without JavaScript; the hidden 'false' before it makes an off switch post 'false'.
 */
export function Switch(props: ToggleProps) {
  const { label, name, defaultSelected, description, errors } = props
  const ids = useToggleIds(props)
  return (
    <div className={styles.field}>
      <input type="hidden" name={name} value="false" />
      <AriaSwitch id={ids.fieldId} name={name} value="true" defaultSelected={defaultSelected} aria-describedby={ids.describedBy} className={styles.root}>
        <span aria-hidden="true" className={styles.track}>
          <span className={styles.thumb} />
        </span>
        {label}
      </AriaSwitch>
      <HelpText field={{ name, label }} description={description} errors={errors} descriptionId={ids.descriptionId} errorId={ids.errorId} />
    </div>
  )
}

/** A checkbox posting 'true' or 'false', like Switch. */
export function Checkbox(props: ToggleProps) {
  const { label, name, defaultSelected, description, errors } = props
  const ids = useToggleIds(props)
  return (
    <div className={styles.field}>
      <input type="hidden" name={name} value="false" />
      <AriaCheckbox id={ids.fieldId} name={name} value="true" defaultSelected={defaultSelected} aria-describedby={ids.describedBy} className={styles.root}>
        <span aria-hidden="true" className={styles.box}>
          <span className={styles.check}>✓</span>
        </span>
        {label}
      </AriaCheckbox>
      <HelpText field={{ name, label }} description={description} errors={errors} descriptionId={ids.descriptionId} errorId={ids.errorId} />
    </div>
  )
}
