import { Input, Label, Text, TextField } from 'react-aria-components'
import * as controls from '../ui/controls.css'
import { LabelRow } from '../ui/required-mark'
import { inFieldWords } from '~/utils/form-words'

interface NumberFieldProps {
  label: string
  name: string
  id?: string
  defaultValue?: string
  errors?: string[]
  description?: string
  min?: number
  max?: number
  /** 'any' for decimals; whole numbers by default. */
  step?: number | 'any'
  isRequired?: boolean
}

/**
 * An outlined native number input: the browser checks min, max and step before anything is posted, with or
 * without scripts; the server checks again with the form's schema.
 */
export function NumberField({ label, name, id, defaultValue, errors, description, min, max, step = 1, isRequired }: NumberFieldProps) {
  const fieldId = id ?? `field-${name}`
  const errorId = `${fieldId}-error`
  const hasErrors = Boolean(errors?.length)
  return (
    <TextField name={name} defaultValue={defaultValue} isRequired={isRequired} type="number" className={controls.field}>
      <LabelRow isRequired={isRequired}>
        <Label className={controls.label}>{label}</Label>
      </LabelRow>
      <Input
        id={fieldId}
        className={controls.input}
        inputMode={step === 'any' ? 'decimal' : 'numeric'}
        min={min}
        max={max}
        step={step}
        aria-invalid={hasErrors || undefined}
        aria-describedby={hasErrors ? errorId : undefined}
      />
      {description ? (
        <Text slot="description" className={controls.description}>
          {description}
        </Text>
      ) : null}
      {hasErrors ? (
        <p id={errorId} className={controls.error} role="alert">
          {inFieldWords(errors!, { name, label })}
        </p>
      ) : null}
    </TextField>
  )
}
