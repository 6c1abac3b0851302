import type { ReactNode } from 'react'
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

/**
 * A flat button (no ripple); a submit button posts its form with scripts on or off. A native <button>: it needs no
 * script to be keyboard reachable and pressable, and keeps react-aria-components out of pages that only post forms
 * (docs/decisions: the Ask page's JavaScript budget).
 */
export function Button({ children, type = 'submit', name, value, variant = 'primary', isDisabled, form, onPress }: ButtonProps) {
  return (
    <button type={type} name={name} value={value} form={form} disabled={isDisabled} onClick={onPress} className={styles.button} data-variant={variant}>
      {children}
    </button>
  )
}
