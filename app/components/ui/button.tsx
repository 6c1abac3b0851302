import type { ReactNode } from 'react'
import { Button as AriaButton } from 'react-aria-components'
import * as styles from './controls.css'

interface ButtonProps {
  children: ReactNode
  type?: 'button' | 'submit' | 'reset'
  name?: string
  value?: string
  variant?: 'primary' | 'secondary' | 'danger'
  isDisabled?: boolean
  form?: string
  onPress?: () => void
}

/** A flat button (no ripple); a submit button posts its form with scripts on or off. */
export function Button({ children, type = 'submit', name, value, variant = 'primary', isDisabled, form, onPress }: ButtonProps) {
  return (
    <AriaButton type={type} name={name} value={value} form={form} isDisabled={isDisabled} onPress={onPress} className={styles.button} data-variant={variant}>
      {children}
    </AriaButton>
  )
}
