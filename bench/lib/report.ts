import { cpus, freemem, loadavg, totalmem } from 'node:os'

/** The machine a benchmark ran on, for the results files. */
export function describeMachine(): string {
  const processors = cpus()
  const gib = (bytes: number) => `${(bytes / 2 ** 30).toFixed(0)} GiB`
  return [
    `${processors.length} × ${processors[0]?.model.trim() ?? 'unknown CPU'}`,
    `${gib(totalmem())} memory (${gib(freemem())} free)`,
    `Node ${process.version} on ${process.platform}`,
    `load average ${loadavg().map((value) => value.toFixed(1)).join(' / ')} at the end of the run`,
    new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC',
  ].join(', ')
}

/** A markdown table; numbers are shown as given (format them first). */
export function formatMarkdownTable(header: string[], rows: (string | number)[][]): string {
  const line = (cells: (string | number)[]) => `| ${cells.map((cell) => String(cell).replace(/\|/g, '\\|')).join(' | ')} |`
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n')
}

export function formatNumber(value: number, digits = 0): string {
  return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })
}

/** Percentile of sorted values (nearest rank). */
export function percentile(sortedValues: number[], fraction: number): number {
  if (sortedValues.length === 0) return Number.NaN
  const rank = Math.min(sortedValues.length - 1, Math.max(0, Math.ceil(fraction * sortedValues.length) - 1))
  return sortedValues[rank] as number
}

export function log(message: string): void {
  process.stdout.write(`[${new Date().toISOString().slice(11, 19)}] ${message}\n`)
}
