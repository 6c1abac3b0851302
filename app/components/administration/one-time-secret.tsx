import * as styles from '~/components/settings/settings.css'
import * as layout from '~/styles/layout.css'

/**
 * A secret shown this once (an integration key, an invitation or reset link): in a read-only field that selects
 * itself, with the warning that it will not be shown again. It is never kept by the web server or the backend.
 */
export function OneTimeSecret({ id, heading, label, value, note }: { id: string; heading: string; label: string; value: string; note?: string }) {
  return (
    <section className={styles.confirm} aria-labelledby={`${id}-heading`} role="status">
      <h2 id={`${id}-heading`}>{heading}</h2>
      <p>
        <strong>Copy it now: it won’t be shown again.</strong> {note}
      </p>
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
          style={{ display: 'block', width: '100%', boxSizing: 'border-box', fontFamily: 'monospace', padding: '0.5rem', overflowWrap: 'anywhere' }}
        />
      </p>
    </section>
  )
}
