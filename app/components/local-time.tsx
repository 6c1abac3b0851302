import { useEffect, useState } from 'react'
import { formatTimestamp } from '~/utils/format'
import { part } from './local-time.css'

/**
 * A UTC timestamp shown in the viewer's local time once scripts run; in UTC (and labelled so) without them. The date
 * and the time may go on two lines, never break inside.
 */
export function LocalTime({ iso }: { iso: string }) {
  const [zone, setZone] = useState<string | undefined>('UTC')
  useEffect(() => setZone(undefined), [])
  const { date, time } = formatTimestamp(iso, zone)
  return (
    <time dateTime={iso}>
      <span className={part}>{date}</span> <span className={part}>
        {time}
        {zone === 'UTC' ? ' UTC' : ''}
      </span>
    </time>
  )
}
