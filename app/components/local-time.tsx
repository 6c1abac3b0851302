import { useEffect, useState } from 'react'
import { formatTimestamp } from '~/utils/format'

/** A UTC timestamp shown in the viewer's local time once scripts run; in UTC (and labelled so) without them. */
export function LocalTime({ iso }: { iso: string }) {
  const [zone, setZone] = useState<string | undefined>('UTC')
  useEffect(() => setZone(undefined), [])
  const { date, time } = formatTimestamp(iso, zone)
  return (
    <time dateTime={iso}>
      {date} {time}
      {zone === 'UTC' ? ' UTC' : ''}
    </time>
  )
}
