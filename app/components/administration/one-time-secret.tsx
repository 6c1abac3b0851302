import type { ReactNode } from 'react'
import * as styles from '~/components/settings/settings.css'
import * as layout from '~/styles/layout.css'

/**
 * A secret shown this once (an integration key, an invitation or reset link, an invitation code): in a read-only
 * field that selects itself, with the warning that it will not be shown again. It is never kept by the web server or
 * the backend. `children` follow the field (for example the same secret in a link).
 */
export function OneTimeSecret({ id, heading, label, value, note, children }: { id: string; heading: string; label: string; value: string; note?: ReactNode; children?: ReactNode }) {
  return (
    <section className={styles.confirm} aria-labelledby={`${id}-heading`} role="status">
      <h2 id={`${id}-heading`}>{heading}</h2>
      <p>
        <strong>Copy it now: it won’t be shown again.</strong> {note}
      </p>
      <SecretField id={id} label={label} value={value} />
      {children}
    </section>
  )
}

/** A labelled read-only field holding a secret; it selects itself when focused, for copying. */
export function SecretField({ id, label, value }: { id: string; label: string; value: string }) {
  return (
    <p>
      <label htmlFor={id} className={layout.muted}>
        {label}
      </label>
      <input
        id={id}
        readOnly
        value={value}
        data-testid={id}
        onFocus={(event) => event.currentTarget.select()}
        // A line height of its own: at the browser's "normal" an underscore falls below the field's box and reads as a space.
        style={{ display: 'block', width: '100%', boxSizing: 'border-box', fontFamily: 'monospace', padding: '0.5rem', lineHeight: 1.5, overflowWrap: 'anywhere' }}
      />
    </p>
  )
}
