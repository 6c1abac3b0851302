import { fileTypeFromBuffer } from 'file-type'
import type { DocumentFormat } from './extracted-document'
import { decodeText } from './text-decoding'

export type SniffResult =
  | { isSupported: true; format: DocumentFormat; contentType: string }
  | { isSupported: false; description: string }

const DOCX_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'

/** Text formats a file name or declared type may choose between once the content is known to be text. */
const TEXT_HINTS: Array<{ format: DocumentFormat; extensions: string[]; types: string[] }> = [
  { format: 'csv', extensions: ['csv', 'tsv'], types: ['text/csv', 'text/tab-separated-values', 'application/csv'] },
  { format: 'markdown', extensions: ['md', 'markdown', 'mdown', 'mkd'], types: ['text/markdown', 'text/x-markdown'] },
  { format: 'html', extensions: ['html', 'htm', 'xhtml'], types: ['text/html', 'application/xhtml+xml'] },
  { format: 'text', extensions: ['txt', 'text', 'log'], types: ['text/plain'] },
]

/**
 * Decides how to read a file from its content, never from its name alone: magic numbers (file-type) for
 * binary formats, then text heuristics. The name and declared type only choose among text formats, and
 * let a damaged zip named .docx be reported as a damaged DOCX rather than as an unknown type.
 */
export async function sniffFormat(bytes: Uint8Array, hint: { fileName: string; declaredType?: string }): Promise<SniffResult> {
  const extension = /\.([A-Za-z0-9]+)$/.exec(hint.fileName)?.[1]?.toLowerCase() ?? ''
  const declaredType = (hint.declaredType ?? '').split(';')[0].trim().toLowerCase()
  // Text that starts with a byte-order mark is text, whatever else its first bytes look like (UTF-16's FF FE is also how
  // an MPEG audio frame starts).
  const startsAsText = (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff) || (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf)
  const detected = startsAsText && decodeText(bytes) ? undefined : await fileTypeFromBuffer(bytes)
  if (detected?.ext === 'pdf') return { isSupported: true, format: 'pdf', contentType: 'application/pdf' }
  if (detected?.ext === 'docx') return { isSupported: true, format: 'docx', contentType: DOCX_TYPE }
  if (detected?.ext === 'zip' && (extension === 'docx' || declaredType === DOCX_TYPE)) return { isSupported: true, format: 'docx', contentType: DOCX_TYPE }
  if (detected) return { isSupported: false, description: `${detected.mime} (.${detected.ext})` }

  const decoded = decodeText(bytes)
  if (!decoded) return { isSupported: false, description: 'binary data of an unknown type' }
  if (decoded.text.trim() === '') return { isSupported: false, description: 'an empty file' }
  const head = decoded.text.slice(0, 4096)
  const charset = `; charset=${decoded.charset}`
  const hinted = TEXT_HINTS.find((candidate) => candidate.extensions.includes(extension) || candidate.types.includes(declaredType))?.format
  const format: DocumentFormat = looksLikeHtmlDocument(head) ? 'html' : (hinted ?? guessTextFormat(head))
  return { isSupported: true, format, contentType: `${CONTENT_TYPES[format]}${charset}` }
}

const CONTENT_TYPES: Record<DocumentFormat, string> = {
  pdf: 'application/pdf',
  docx: DOCX_TYPE,
  html: 'text/html',
  markdown: 'text/markdown',
  csv: 'text/csv',
  text: 'text/plain',
}

function looksLikeHtmlDocument(head: string): boolean {
  return /^\s*(?:<!--[\s\S]*?-->\s*)*<(?:!doctype\s+html|html[\s>])/i.test(head)
}

/** For text with no useful name: HTML by its tags, Markdown by its syntax, CSV by a steady column count. */
function guessTextFormat(head: string): DocumentFormat {
  if (/<(?:body|head|p|div|article|h[1-6])[\s>]/i.test(head) && /<\/(?:p|div|body|article|h[1-6])>/i.test(head)) return 'html'
  if (/^#{1,6} \S/m.test(head) || /^\s*[-*+] \S/m.test(head) || /\[[^\]]+\]\([^)]+\)/.test(head)) return 'markdown'
  const lines = head.split('\n').slice(0, 10).filter((line) => line.trim())
  for (const delimiter of [',', ';', '\t']) {
    const counts = lines.map((line) => line.split(delimiter).length)
    if (lines.length >= 3 && counts[0] >= 2 && counts.every((count) => count === counts[0])) return 'csv'
  }
  return 'text'
}
