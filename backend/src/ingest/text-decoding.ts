/** Text decoded from bytes, with the charset it was read in. */
export interface DecodedText {
  text: string
  charset: 'utf-8' | 'windows-1252'
}

/**
 * Decodes bytes that are text: UTF-8 (a BOM is dropped), else Windows-1252 when the bytes look like
 * legacy single-byte text. Undefined for binary data (NUL bytes or many control characters).
 */
export function decodeText(bytes: Uint8Array): DecodedText | undefined {
  const sample = bytes.subarray(0, 64 * 1024)
  let controls = 0
  for (const byte of sample) {
    if (byte === 0) return undefined
    // Tab, line feed, form feed and carriage return are ordinary in text.
    if (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0c && byte !== 0x0d) controls++
  }
  if (controls > sample.length * 0.01) return undefined
  try {
    return { text: new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes), charset: 'utf-8' }
  } catch {
    return { text: new TextDecoder('windows-1252').decode(bytes), charset: 'windows-1252' }
  }
}

/** Normalises line endings and strips a leading BOM the decoder kept. */
export function normaliseText(text: string): string {
  return text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n')
}
