/**
 * The number of a no-JS check of a running task (`?check=n`), read from the address: a whole number from 0 to a
 * million, whatever was typed there ("-3", "2.5", "1e400", "x" and nothing all read as a number in that range).
 */
export function pollCheckNumber(value: string | null): number {
  const number = Math.floor(Number(value))
  return Number.isFinite(number) ? Math.min(Math.max(number, 0), 1e6) : 0
}
