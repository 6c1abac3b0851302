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
