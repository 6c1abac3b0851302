import { ExtractionError } from './extracted-document'

const END_OF_CENTRAL_DIRECTORY = 0x06054b50
const CENTRAL_DIRECTORY_ENTRY = 0x02014b50
const ZIP64_EXTRA_FIELD = 0x0001

/**
 * The total uncompressed size a zip archive declares in its central directory, read without inflating
 * anything: the bound checked before a DOCX is handed to the unzipping parser.
 */
export function readDeclaredZipSize(bytes: Uint8Array): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const end = findEndOfCentralDirectory(view)
  if (end < 0) throw new ExtractionError('Not a readable zip archive: its directory is missing (the file may be truncated)')
  const entryCount = view.getUint16(end + 10, true)
  let offset = view.getUint32(end + 16, true)
  let total = 0
  for (let index = 0; index < entryCount; index++) {
    if (offset + 46 > view.byteLength || view.getUint32(offset, true) !== CENTRAL_DIRECTORY_ENTRY) {
      throw new ExtractionError('Not a readable zip archive: its directory is damaged')
    }
    let size = view.getUint32(offset + 24, true)
    const nameLength = view.getUint16(offset + 28, true)
    const extraLength = view.getUint16(offset + 30, true)
    const commentLength = view.getUint16(offset + 32, true)
    if (size === 0xffffffff) size = readZip64Size(view, offset + 46 + nameLength, extraLength)
    total += size
    offset += 46 + nameLength + extraLength + commentLength
  }
  return total
}

function findEndOfCentralDirectory(view: DataView): number {
  // The record is 22 bytes plus a comment of at most 65535 bytes, at the very end.
  const earliest = Math.max(0, view.byteLength - 22 - 0xffff)
  for (let offset = view.byteLength - 22; offset >= earliest; offset--) {
    if (view.getUint32(offset, true) === END_OF_CENTRAL_DIRECTORY) return offset
  }
  return -1
}

function readZip64Size(view: DataView, start: number, length: number): number {
  for (let offset = start; offset + 4 <= start + length; ) {
    const id = view.getUint16(offset, true)
    const size = view.getUint16(offset + 2, true)
    if (id === ZIP64_EXTRA_FIELD && size >= 8) return Number(view.getBigUint64(offset + 4, true))
    offset += 4 + size
  }
  throw new ExtractionError('Not a readable zip archive: an entry has no size')
}
