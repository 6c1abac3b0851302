/**
 * SEED.md §4: pages of logs are appended and de-duplicated by id, keeping the last copy of each (a later page holds
 * the fresher state of a log that moved while the list was open).
 */
export function mergeLogs<Log extends { id: number }>(...pages: Log[][]): Log[] {
  const seen = new Set<number>()
  const kept: Log[] = []
  const all = pages.flat()
  for (let index = all.length - 1; index >= 0; index--) {
    const log = all[index]
    if (seen.has(log.id)) continue
    seen.add(log.id)
    kept.push(log)
  }
  return kept.reverse()
}
