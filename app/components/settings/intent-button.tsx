import { parse, type Submission } from '@conform-to/react'
import type { ReactNode } from 'react'
import * as controls from '../ui/controls.css'

interface IntentButtonProps {
  /** What the action should do with the form, e.g. `add-tool` or `remove-agent:1`. */
  value: string
  children: ReactNode
  variant?: 'primary' | 'secondary' | 'danger'
  name?: string
  /** An accessible name when the visible text is not enough (e.g. which row a Remove button removes). */
  label?: string
  isDisabled?: boolean
}

/**
 * A submit button that edits the form instead of saving it (add or remove a row): it posts the whole form with
 * its intent, so it works without JavaScript, and it skips validation, so a half-filled form can still grow.
 */
export function IntentButton({ value, children, variant = 'secondary', name = 'intent', label, isDisabled }: IntentButtonProps) {
  return (
    <button type="submit" name={name} value={value} formNoValidate className={controls.button} data-variant={variant} aria-label={label} disabled={isDisabled}>
      {children}
    </button>
  )
}

/**
 * Pressing Enter in a field submits with the form's first submit button; this invisible one makes that "save",
 * not the first Remove button.
 */
export function DefaultSubmit({ value = 'save' }: { value?: string }) {
  return (
    <button
      type="submit"
      name="intent"
      value={value}
      tabIndex={-1}
      aria-hidden="true"
      style={{ position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)', border: 0, padding: 0 }}
    >
      Save
    </button>
  )
}

/**
 * conform's `onValidate` for a form with IntentButtons: the form is checked when it is saved, and a row edit (add or
 * remove a row, any intent but `saveIntent`) is posted as typed, half-filled rows included, as it is without scripts.
 * The button's formNoValidate only stops the browser's check: conform would refuse the edit (a blank new agent could
 * not be removed, nor a second one added).
 */
export function checkOnSave<Output>(formData: FormData, check: (formData: FormData) => Submission<Output>, saveIntent = 'save'): Submission<Output> {
  const intent = formData.get('intent')
  if (intent === null || intent === saveIntent) return check(formData)
  // An error of null: conform neither reports nor stops the post.
  return parse(formData, { resolve: () => ({ error: null }) }) as Submission<Output>
}
