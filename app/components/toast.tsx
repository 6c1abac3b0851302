import { useEffect, useRef, useState } from 'react'
import type { Toast } from '~/utils/session.server'
import * as styles from './toast.css'

/** SEED.md §9: a toast lives 2000 ms (4000 ms for downloads) when its sender gives no life. */
export const DEFAULT_TOAST_LIFE = 2000

const SEVERITY_LABEL: Record<Toast['severity'], string> = { success: 'Success', info: 'Information', warn: 'Warning', error: 'Error' }

/**
 * A flash toast, rendered in the markup inside a role="status" region so it is read out and shown with scripts off.
 * With scripts on it goes away after its life (paused while hovered or focused) or when dismissed; a later `toast`
 * replaces it, a later `null` (loaders revalidated after the flash was read) lets it live out its life.
 */
export function ToastMessage({ toast }: { toast: Toast | null | undefined }) {
  const [current, setCurrent] = useState<{ toast: Toast; id: number } | null>(toast ? { toast, id: 0 } : null)
  const [isHydrated, setIsHydrated] = useState(false)
  const lastToast = useRef(toast)

  useEffect(() => setIsHydrated(true), [])

  useEffect(() => {
    if (toast === lastToast.current) return
    lastToast.current = toast
    if (toast) setCurrent((previous) => ({ toast, id: (previous?.id ?? 0) + 1 }))
  }, [toast])

  return (
    <div className={styles.region} role="status" aria-live="polite" aria-atomic="true">
      {current ? <ToastItem key={current.id} toast={current.toast} canDismiss={isHydrated} onDone={() => setCurrent(null)} /> : null}
    </div>
  )
}

function ToastItem({ toast, canDismiss, onDone }: { toast: Toast; canDismiss: boolean; onDone: () => void }) {
  const [isPaused, setIsPaused] = useState(false)
  const remaining = useRef(toast.life ?? DEFAULT_TOAST_LIFE)
  const done = useRef(onDone)
  done.current = onDone

  useEffect(() => {
    if (isPaused) return
    const startedAt = Date.now()
    const timer = setTimeout(() => done.current(), remaining.current)
    return () => {
      clearTimeout(timer)
      remaining.current = Math.max(remaining.current - (Date.now() - startedAt), 0)
    }
  }, [isPaused])

  const kind = SEVERITY_LABEL[toast.severity] ?? 'Notice'
  return (
    <div
      className={styles.toast}
      data-severity={toast.severity}
      onMouseEnter={() => setIsPaused(true)}
      onMouseLeave={() => setIsPaused(false)}
      onFocus={() => setIsPaused(true)}
      onBlur={() => setIsPaused(false)}
    >
      <div className={styles.text}>
        <strong className={styles.summary}>
          {/* Said once: a summary that names its kind ("Success") needs no label before it. */}
          {toast.summary === kind ? null : <span className="visually-hidden">{kind}: </span>}
          {toast.summary}
        </strong>
        <span className={styles.message}>{toast.message}</span>
      </div>
      {/* Only with scripts: without them the button could do nothing. */}
      {canDismiss ? (
        <button type="button" className={styles.dismiss} aria-label="Dismiss notification" onClick={() => done.current()}>
          <span aria-hidden="true">×</span>
        </button>
      ) : null}
    </div>
  )
}
