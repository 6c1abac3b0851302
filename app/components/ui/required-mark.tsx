import type { ReactNode } from 'react'
import * as controls from './controls.css'

/** A field's label with the visible "Required" mark after it when the field must be filled. */
export function LabelRow({ isRequired, children }: { isRequired?: boolean; children: ReactNode }) {
  if (!isRequired) return <>{children}</>
  return (
    <div className={controls.labelRow}>
      {children}
      <span className={controls.requiredMark} aria-hidden="true" data-required-mark="">
        Required
      </span>
    </div>
  )
}
