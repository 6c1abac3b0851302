/** SEED.md §5: a CSV download is accepted only when its content type is text/csv (parameters such as charset aside). */
export function isCsvContentType(header: string | null | undefined): boolean {
  return (header ?? '').split(';')[0].trim().toLowerCase() === 'text/csv'
}
