import * as styles from './skip-link.css'

/** The first stop of the keyboard on every dashboard page: past the header and the tabs, straight to the page itself. */
export function SkipLink({ target = 'main' }: { target?: string }) {
  return (
    <a href={`#${target}`} className={styles.skipLink}>
      Skip to main content
    </a>
  )
}
