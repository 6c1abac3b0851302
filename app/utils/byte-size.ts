/** A size in bytes as people read it: megabytes to one decimal, or kilobytes below one megabyte. */
export function formatMegabytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`
}
