import { Form, useSubmit } from '@remix-run/react'
import { LogStatusFilter } from '../../../contracts/query-logs'
import { Button } from '~/components/ui/button'
import * as styles from './logs.css'

export const LOG_STATUS_LABELS: Record<LogStatusFilter, string> = {
  all: 'All',
  liked: 'Liked',
  disliked: 'Disliked',
  'no feedback': 'No feedback',
  commented: 'Commented',
  blocked: 'Blocked',
  failed: 'Failed',
}
type LogStatusFilter = (typeof LogStatusFilter.options)[number]

/**
 * The logs' status filter, a GET form: a new status is a new URL without the loaded pages, so the list starts again
 * (SEED.md §4). With scripts on a change submits at once; the button stays for keyboard and scripts-off use.
 */
export function StatusFilter({ status }: { status: LogStatusFilter }) {
  const submit = useSubmit()
  return (
    <Form method="get" action="/logs" aria-label="Filter logs by status" style={{ display: 'flex', gap: '0.75rem', alignItems: 'center' }}>
      <label htmlFor="log-status">Status</label>
      <select id="log-status" name="status" defaultValue={status} className={styles.select} onChange={(event) => submit(event.currentTarget.form)}>
        {LogStatusFilter.options.map((option) => (
          <option key={option} value={option}>
            {LOG_STATUS_LABELS[option]}
          </option>
        ))}
      </select>
      <Button variant="secondary">Filter</Button>
    </Form>
  )
}
