import zlib from 'node:zlib'
import { ExtractionError, formatBytes } from './extracted-document'

const END_OF_CENTRAL_DIRECTORY = 0x06054b50
const ZIP64_END_LOCATOR = 0x07064b50
const ZIP64_END_OF_CENTRAL_DIRECTORY = 0x06064b50
const CENTRAL_DIRECTORY_ENTRY = 0x02014b50
const LOCAL_FILE_HEADER = 0x04034b50
const ZIP64_EXTRA_FIELD = 0x0001
const STORED = 0
const DEFLATED = 8
const UNKNOWN_32 = 0xffffffff
const UNKNOWN_16 = 0xffff

/** One entry of a zip archive's central directory, as a zip reader (JSZip, used by mammoth) takes it. */
export interface ZipEntry {
  name: string
  method: number
  compressedSize: number
  /** What the directory says the entry expands to: a claim, not a fact. */
  declaredSize: number
  /** Where the entry's local header starts, corrected for bytes prepended to the archive. */
  localHeaderOffset: number
}

/** The entries a zip archive's central directory lists, read without inflating anything. */
export function readZipEntries(bytes: Uint8Array): ZipEntry[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const end = findEndOfCentralDirectory(view)
  if (end < 0) throw new ExtractionError('Not a readable zip archive: its directory is missing (the file may be truncated)')
  let entryCount = view.getUint16(end + 10, true)
  let directorySize = view.getUint32(end + 12, true)
  let directoryOffset = view.getUint32(end + 16, true)
  let directoryEnd = end
  if (entryCount === UNKNOWN_16 || directorySize === UNKNOWN_32 || directoryOffset === UNKNOWN_32) {
    const zip64End = readZip64End(view, end)
    ;({ entryCount, directorySize, directoryOffset } = zip64End)
    directoryEnd = zip64End.recordOffset
  }
  // Bytes before the archive (a self-extractor stub, say) shift every offset; zip readers allow for them.
  const shift = directoryEnd - (directoryOffset + directorySize)
  if (shift < 0) throw new ExtractionError('Not a readable zip archive: its directory is damaged')
  const entries: ZipEntry[] = []
  let offset = directoryOffset + shift
  for (let index = 0; index < entryCount; index++) {
    if (offset + 46 > view.byteLength || view.getUint32(offset, true) !== CENTRAL_DIRECTORY_ENTRY) {
      throw new ExtractionError('Not a readable zip archive: its directory is damaged')
    }
    const method = view.getUint16(offset + 10, true)
    let compressedSize = view.getUint32(offset + 20, true)
    let declaredSize = view.getUint32(offset + 24, true)
    const nameLength = view.getUint16(offset + 28, true)
    const extraLength = view.getUint16(offset + 30, true)
    const commentLength = view.getUint16(offset + 32, true)
    let localHeaderOffset = view.getUint32(offset + 42, true)
    if (offset + 46 + nameLength + extraLength > view.byteLength) throw new ExtractionError('Not a readable zip archive: its directory is damaged')
    const name = Buffer.from(bytes.buffer, bytes.byteOffset + offset + 46, nameLength).toString('utf8')
    if (declaredSize === UNKNOWN_32 || compressedSize === UNKNOWN_32 || localHeaderOffset === UNKNOWN_32) {
      // The zip64 extra field holds, in this order, each of the three that the fixed fields mark unknown.
      const values = readZip64Extra(view, offset + 46 + nameLength, extraLength)
      if (declaredSize === UNKNOWN_32) declaredSize = takeZip64Value(values, name)
      if (compressedSize === UNKNOWN_32) compressedSize = takeZip64Value(values, name)
      if (localHeaderOffset === UNKNOWN_32) localHeaderOffset = takeZip64Value(values, name)
    }
    entries.push({ name, method, compressedSize, declaredSize, localHeaderOffset: localHeaderOffset + shift })
    offset += 46 + nameLength + extraLength + commentLength
  }
  return entries
}

/**
 * The total uncompressed size a zip archive declares in its central directory, read without inflating
 * anything: a first, cheap bound. The directory can lie; `assertInflatesWithin` counts what the data really gives.
 */
export function readDeclaredZipSize(bytes: Uint8Array): number {
  return readZipEntries(bytes).reduce((total, entry) => total + entry.declaredSize, 0)
}

/** A zip archive whose entries, inflated, give more bytes than the limit. */
export class ZipTooLargeError extends ExtractionError {
  constructor(
    fileName: string,
    readonly limit: number,
  ) {
    super(`${fileName}: expands past ${formatBytes(limit)} when unzipped`)
  }
}

/**
 * Inflates every entry of a zip archive as a stream, counting the bytes it gives and keeping none, and throws
 * ZipTooLargeError as soon as the running total passes `limit`: whatever sizes the directory declares, no more
 * than the limit (plus one chunk) is ever inflated. Returns the total when it stays within the limit.
 */
export async function assertInflatesWithin(bytes: Uint8Array, limit: number, fileName: string, deadline = Number.POSITIVE_INFINITY): Promise<number> {
  let total = 0
  for (const entry of readZipEntries(bytes)) {
    const data = entryData(bytes, entry)
    if (entry.method === STORED) total += data.length
    else if (entry.method === DEFLATED) total += await inflatedLength(data, limit - total, entry.name, deadline)
    else throw new ExtractionError(`Not a readable zip archive: ${entry.name} uses a compression method (${entry.method}) that cannot be read`)
    if (total > limit) throw new ZipTooLargeError(fileName, limit)
  }
  return total
}

/** The compressed bytes of an entry, found through its local header as zip readers find them. */
function entryData(bytes: Uint8Array, entry: ZipEntry): Uint8Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const header = entry.localHeaderOffset
  if (header + 30 > view.byteLength || view.getUint32(header, true) !== LOCAL_FILE_HEADER) {
    throw new ExtractionError(`Not a readable zip archive: the entry ${entry.name} is damaged`)
  }
  const start = header + 30 + view.getUint16(header + 26, true) + view.getUint16(header + 28, true)
  if (start + entry.compressedSize > view.byteLength) throw new ExtractionError(`Not a readable zip archive: the entry ${entry.name} is cut short`)
  return bytes.subarray(start, start + entry.compressedSize)
}

/** How many bytes raw-deflate data inflates to, counted chunk by chunk; stops once past `budget`. */
async function inflatedLength(data: Uint8Array, budget: number, entryName: string, deadline: number): Promise<number> {
  const inflater = zlib.createInflateRaw()
  inflater.end(data)
  let produced = 0
  try {
    for await (const chunk of inflater) {
      produced += (chunk as Buffer).length
      if (produced > budget) break
      if (Date.now() > deadline) throw new ExtractionError('Reading the DOCX took too long')
    }
  } catch (error) {
    if (error instanceof ExtractionError) throw error
    throw new ExtractionError(`Not a readable zip archive: the entry ${entryName} is damaged (${(error as Error).message})`)
  } finally {
    inflater.destroy()
  }
  return produced
}

function findEndOfCentralDirectory(view: DataView): number {
  // The record is 22 bytes plus a comment of at most 65535 bytes, at the very end.
  const earliest = Math.max(0, view.byteLength - 22 - 0xffff)
  for (let offset = view.byteLength - 22; offset >= earliest; offset--) {
    if (view.getUint32(offset, true) === END_OF_CENTRAL_DIRECTORY) return offset
  }
  return -1
}

function readZip64End(view: DataView, end: number): { entryCount: number; directorySize: number; directoryOffset: number; recordOffset: number } {
  const locator = end - 20
  if (locator < 0 || view.getUint32(locator, true) !== ZIP64_END_LOCATOR) throw new ExtractionError('Not a readable zip archive: its zip64 directory is missing')
  const declaredRecord = Number(view.getBigUint64(locator + 8, true))
  // The record sits right before its locator (56 bytes without extensible data); prepended bytes shift the declared offset.
  const recordOffset = [declaredRecord, locator - 56].find((candidate) => candidate >= 0 && candidate + 56 <= view.byteLength && view.getUint32(candidate, true) === ZIP64_END_OF_CENTRAL_DIRECTORY)
  if (recordOffset === undefined) throw new ExtractionError('Not a readable zip archive: its zip64 directory is damaged')
  return {
    entryCount: safeNumber(view.getBigUint64(recordOffset + 32, true)),
    directorySize: safeNumber(view.getBigUint64(recordOffset + 40, true)),
    directoryOffset: safeNumber(view.getBigUint64(recordOffset + 48, true)),
    recordOffset,
  }
}

function readZip64Extra(view: DataView, start: number, length: number): number[] {
  for (let offset = start; offset + 4 <= start + length; ) {
    const id = view.getUint16(offset, true)
    const size = view.getUint16(offset + 2, true)
    if (id === ZIP64_EXTRA_FIELD) {
      const values: number[] = []
      for (let field = offset + 4; field + 8 <= offset + 4 + size && field + 8 <= view.byteLength; field += 8) values.push(safeNumber(view.getBigUint64(field, true)))
      return values
    }
    offset += 4 + size
  }
  return []
}

function takeZip64Value(values: number[], name: string): number {
  const value = values.shift()
  if (value === undefined) throw new ExtractionError(`Not a readable zip archive: the entry ${name} has no size`)
  return value
}

function safeNumber(value: bigint): number {
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new ExtractionError('Not a readable zip archive: a size or offset is out of range')
  return Number(value)
}
