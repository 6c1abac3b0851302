/** Text decoded from bytes, with the charset it was read in. */
export interface DecodedText {
  text: string
  charset: 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252'
}

/**
 * UTF-16 (what Windows' Notepad and Excel save as "Unicode"): by its byte-order mark, else by its zero bytes, which
 * fall on every other byte in Latin-script text. Undefined when the bytes are no UTF-16 text.
 */
function decodeUtf16(bytes: Uint8Array): DecodedText | undefined {
  let charset: 'utf-16le' | 'utf-16be' | undefined
  if (bytes[0] === 0xff && bytes[1] === 0xfe) charset = 'utf-16le'
  else if (bytes[0] === 0xfe && bytes[1] === 0xff) charset = 'utf-16be'
  else {
    const sample = bytes.subarray(0, 64 * 1024 - ((64 * 1024) % 2))
    if (sample.length < 4 || sample.length % 2 !== 0) return undefined
    let evenZeros = 0
    let oddZeros = 0
    for (let index = 0; index < sample.length; index += 2) {
      if (sample[index] === 0) evenZeros++
      if (sample[index + 1] === 0) oddZeros++
    }
    const pairs = sample.length / 2
    if (oddZeros > pairs * 0.6 && evenZeros < pairs * 0.05) charset = 'utf-16le'
    else if (evenZeros > pairs * 0.6 && oddZeros < pairs * 0.05) charset = 'utf-16be'
  }
  if (charset === undefined || bytes.length % 2 !== 0) return undefined
  try {
    const text = new TextDecoder(charset, { fatal: true, ignoreBOM: false }).decode(bytes)
    return /[\u0000-\u0008\u000e-\u001f]/.test(text) ? undefined : { text, charset }
  } catch {
    return undefined
  }
}

/**
 * Decodes bytes that are text: UTF-16 (by its byte-order mark or its zero bytes), UTF-8 (a BOM is dropped), else
 * Windows-1252 when the bytes look like legacy single-byte text. Undefined for binary data (NUL bytes or many control
 * characters).
 */
export function decodeText(bytes: Uint8Array): DecodedText | undefined {
  const utf16 = decodeUtf16(bytes)
  if (utf16) return utf16
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
