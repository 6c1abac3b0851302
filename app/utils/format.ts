const pad = (value: number) => String(value).padStart(2, '0')

/** SEED.md §3: an article timestamp as date MM-DD-YYYY and time h:mm:ss a, in the given time zone (default: the runtime's). */
export function formatTimestamp(iso: string, timeZone?: string): { date: string; time: string } {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: 'numeric',
      minute: '2-digit',
      second: '2-digit',
      hour12: true,
    })
      .formatToParts(new Date(iso))
      .map((part) => [part.type, part.value]),
  )
  return {
    date: `${parts.month}-${parts.day}-${parts.year}`,
    time: `${Number(parts.hour)}:${pad(Number(parts.minute))}:${pad(Number(parts.second))} ${String(parts.dayPeriod).toLowerCase()}`,
  }
}

/** A duration as people read it: "35 ms" under a second, "1.2 s" under a minute, then "2 min 5 s". */
export function formatDuration(milliseconds: number): string {
  if (!Number.isFinite(milliseconds) || milliseconds < 0) return '—'
  if (milliseconds < 1000) return `${Math.round(milliseconds)} ms`
  if (milliseconds < 60_000) return `${(milliseconds / 1000).toFixed(1)} s`
  const seconds = Math.round(milliseconds / 1000)
  return `${Math.floor(seconds / 60)} min ${seconds % 60} s`
}
