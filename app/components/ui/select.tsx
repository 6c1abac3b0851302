import { useState, useSyncExternalStore } from 'react'
import { Button, Label, ListBox, ListBoxItem, Popover, Select as AriaSelect, SelectValue, Text } from 'react-aria-components'
import * as controls from './controls.css'
import * as styles from './select.css'
import { LabelRow } from './required-mark'
import { inFieldWords } from '~/utils/form-words'

export interface SelectOption {
  value: string
  label: string
}

interface SelectProps {
  label: string
  name: string
  options: readonly SelectOption[]
  id?: string
  defaultValue?: string
  errors?: string[]
  description?: string
  isRequired?: boolean
  /** Called with the chosen value once scripts run; without them the choice is only posted with the form. */
  onChange?: (value: string) => void
}

const subscribeNever = () => () => {}

/** False in the server render and during hydration, true afterwards (and on every later client render). */
export function useIsHydrated() {
  return useSyncExternalStore(
    subscribeNever,
    () => true,
    () => false,
  )
}

/**
 * An outlined select. The server (and a browser without scripts) renders a native <select>, which posts and can be
 * chosen without JavaScript; once hydrated it becomes a react-aria-components Select whose value is posted by a
 * hidden input of the same name, so the form's payload is identical either way.
 */
export function Select({ label, name, options, id, defaultValue, errors, description, isRequired, onChange }: SelectProps) {
  const isHydrated = useIsHydrated()
  const initial = options.some((option) => option.value === defaultValue) ? (defaultValue as string) : options[0]?.value ?? ''
  const [value, setValue] = useState(initial)
  const fieldId = id ?? `field-${name}`
  const errorId = `${fieldId}-error`
  const descriptionId = `${fieldId}-description`
  const hasErrors = Boolean(errors?.length)
  const describedBy = [description ? descriptionId : null, hasErrors ? errorId : null].filter(Boolean).join(' ') || undefined
  const errorText = hasErrors ? (
    <p id={errorId} className={controls.error} role="alert">
      {inFieldWords(errors!, { name, label })}
    </p>
  ) : null

  if (!isHydrated) {
    return (
      <div className={controls.field}>
        <LabelRow isRequired={isRequired}>
          <label htmlFor={fieldId} className={controls.label}>
            {label}
          </label>
        </LabelRow>
        <select
          id={fieldId}
          name={name}
          defaultValue={value}
          required={isRequired}
          className={styles.trigger}
          aria-invalid={hasErrors || undefined}
          aria-describedby={describedBy}
          onChange={(event) => {
            setValue(event.currentTarget.value)
            onChange?.(event.currentTarget.value)
          }}
        >
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
        {description ? (
          <p id={descriptionId} className={controls.description}>
            {description}
          </p>
        ) : null}
        {errorText}
      </div>
    )
  }

  // Keys are positions, so any value (even an empty string) can be an option.
  const selectedIndex = Math.max(
    0,
    options.findIndex((option) => option.value === value),
  )
  return (
    <div className={controls.field}>
      <AriaSelect
        id={fieldId}
        value={String(selectedIndex)}
        onChange={(key) => {
          const next = options[Number(key)]?.value
          if (next === undefined) return
          setValue(next)
          onChange?.(next)
        }}
        isInvalid={hasErrors}
        isRequired={isRequired}
        aria-describedby={describedBy}
        className={styles.root}
      >
        <LabelRow isRequired={isRequired}>
          <Label className={controls.label}>{label}</Label>
        </LabelRow>
        <Button className={styles.trigger} aria-describedby={describedBy}>
          <SelectValue />
          <span aria-hidden="true" className={styles.chevron}>
            ▾
          </span>
        </Button>
        {description ? (
          <Text slot="description" id={descriptionId} className={controls.description}>
            {description}
          </Text>
        ) : null}
        <Popover className={styles.popover}>
          <ListBox className={styles.listBox}>
            {options.map((option, index) => (
              <ListBoxItem key={index} id={String(index)} textValue={option.label} className={styles.option}>
                {option.label}
              </ListBoxItem>
            ))}
          </ListBox>
        </Popover>
      </AriaSelect>
      <input type="hidden" name={name} value={value} />
      {errorText}
    </div>
  )
}
