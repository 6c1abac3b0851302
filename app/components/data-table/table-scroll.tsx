import type { ReactNode } from 'react'
import * as styles from './data-table.css'

/**
 * The box a table scrolls sideways in when it is wider than the screen, so the page itself never does. It is a named
 * region that takes keyboard focus, so it can be scrolled without a pointer.
 */
export function TableScroll({ label, isBusy, children }: { label: string; isBusy?: boolean; children: ReactNode }) {
  return (
    <div className={styles.tableWrap} role="region" aria-label={label} tabIndex={0} aria-busy={isBusy || undefined}>
      {children}
    </div>
  )
}
