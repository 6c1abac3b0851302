/** The formats an uploaded file (or a fetched page) can be read as. */
export type DocumentFormat = 'pdf' | 'docx' | 'html' | 'markdown' | 'text' | 'csv'

/** Readable text taken out of a file or page: one future draft. Content is Markdown. */
export interface ExtractedDocument {
  title: string
  content: string
}

/** Bounds on what one file may cost to read; exceeding one is an error for that file only. */
export interface ExtractionLimits {
  /** Bytes a DOCX (a zip) may expand to, counted as its entries are inflated: guards against zip bombs. */
  maxDecompressedBytes: number
  /** Characters of text kept from one file. */
  maxTextChars: number
  maxPdfPages: number
  /** Drafts made from one CSV file. */
  maxCsvRows: number
  /** Wall-clock time to read one file. */
  timeoutMs: number
}

/** A file that cannot be read as what it claims to be (corrupt, too big once expanded, empty…). */
export class ExtractionError extends Error {
  override readonly name = 'ExtractionError'
}

/** The file name without its extension and folders, as a fallback title. */
export function titleFromFileName(fileName: string): string {
  const base = fileName.split(/[\\/]/).pop() ?? fileName
  const withoutExtension = base.replace(/\.[A-Za-z0-9]{1,5}$/, '')
  return withoutExtension.replace(/[_-]+/g, ' ').trim() || base || 'Untitled'
}

/** Throws when a deadline has passed; long extractions call it between steps. */
export function assertBeforeDeadline(deadline: number, what: string): void {
  if (Date.now() > deadline) throw new ExtractionError(`Reading ${what} took too long`)
}

/** Formats a byte count for messages: 25 MB, 512 KB, 900 bytes. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`
  return `${bytes} bytes`
}

/** Cuts text at the limit, on a paragraph boundary when one is near. */
export function capText(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text
  const cut = text.lastIndexOf('\n\n', maxChars)
  return text.slice(0, cut > maxChars * 0.8 ? cut : maxChars).trimEnd()
}
