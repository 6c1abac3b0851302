import { createHash, randomBytes } from 'node:crypto'
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises'
import path from 'node:path'
import type { CompactIndex } from '../../retrieval/bm25-index'

/**
 * A snapshot of the keyword index: its chunks as flat arrays (`CompactIndex`) and the change-log position they
 * reflect, in one file. Layout: 8 bytes of magic, a little-endian uint32 header length, the header (JSON),
 * then each section 8-byte aligned, then the SHA-256 of everything before it. Raise SNAPSHOT_FORMAT when the
 * layout changes: a file of another format is ignored and the index rebuilt.
 */
export const SNAPSHOT_FORMAT = 1

const MAGIC = Buffer.from('KBIDXSNP', 'latin1')
const DIGEST_BYTES = 32

/** Where the snapshot comes from: a process loads it only into the database and log it was taken from. */
export interface SnapshotOrigin {
  /** The term format of the stored chunks (INDEX_FORMAT). */
  indexFormat: number
  /** The database the chunks are in (system identifier, database and schema). */
  database: string
  /** The last change of the log the chunks reflect, and what it was, so that a different log is noticed. */
  seq: number
  lastChange: string
}

export interface SnapshotHeader extends SnapshotOrigin {
  format: number
  chunks: number
  sections: { name: keyof Omit<CompactIndex, 'vocabulary'> | 'vocabulary'; type: SectionType; length: number }[]
}

type SectionType = 'f64' | 'i32' | 'u32' | 'u16' | 'u8' | 'f32' | 'utf8'

const BYTES: Record<SectionType, number> = { f64: 8, i32: 4, u32: 4, u16: 2, u8: 1, f32: 4, utf8: 1 }

/** The narrowest type that holds every term frequency exactly. */
function frequencyType(frequencies: Float32Array): SectionType {
  let largest = 0
  for (const frequency of frequencies) {
    if (!Number.isInteger(frequency)) return 'f32'
    if (frequency > largest) largest = frequency
  }
  return largest <= 0xff ? 'u8' : largest <= 0xffff ? 'u16' : 'f32'
}

function asBytes(values: ArrayLike<number>, type: SectionType): Uint8Array {
  const typed =
    type === 'u8' ? Uint8Array.from(values)
    : type === 'u16' ? Uint16Array.from(values)
    : type === 'f32' ? (values instanceof Float32Array ? values : Float32Array.from(values))
    : type === 'i32' ? (values instanceof Int32Array ? values : Int32Array.from(values))
    : type === 'u32' ? (values instanceof Uint32Array ? values : Uint32Array.from(values))
    : values instanceof Float64Array ? values : Float64Array.from(values)
  return new Uint8Array(typed.buffer, typed.byteOffset, typed.byteLength)
}

/** The snapshot file's bytes. Throws when a term cannot be stored (it holds a NUL character). */
export function encodeSnapshot(compact: CompactIndex, origin: SnapshotOrigin): Buffer[] {
  if (compact.vocabulary.some((term) => term.includes('\0'))) throw new Error('A term holds a NUL character')
  const vocabulary = Buffer.from(compact.vocabulary.join('\0'), 'utf8')
  const sections: { name: SnapshotHeader['sections'][number]['name']; type: SectionType; bytes: Uint8Array; length: number }[] = [
    { name: 'vocabulary', type: 'utf8', bytes: vocabulary, length: vocabulary.length },
  ]
  const add = (name: keyof Omit<CompactIndex, 'vocabulary'>, type: SectionType) => {
    const values = compact[name]
    sections.push({ name, type, bytes: asBytes(values, type), length: values.length })
  }
  add('chunkIds', 'f64')
  add('articleIds', 'f64')
  add('lengths', 'f64')
  add('termOffsets', 'i32')
  add('termIds', compact.vocabulary.length <= 0x10000 ? 'u16' : 'i32')
  add('termFrequencies', frequencyType(compact.termFrequencies))
  add('pairOffsets', 'i32')
  add('pairs', 'u32')
  const header: SnapshotHeader = {
    ...origin,
    format: SNAPSHOT_FORMAT,
    chunks: compact.chunkIds.length,
    sections: sections.map(({ name, type, length }) => ({ name, type, length })),
  }
  const headerBytes = Buffer.from(JSON.stringify(header), 'utf8')
  const lengthBytes = Buffer.alloc(4)
  lengthBytes.writeUInt32LE(headerBytes.length)
  const parts: Buffer[] = [MAGIC, lengthBytes, headerBytes]
  let offset = MAGIC.length + 4 + headerBytes.length
  for (const { bytes } of sections) {
    const padding = (8 - (offset % 8)) % 8
    if (padding > 0) parts.push(Buffer.alloc(padding))
    parts.push(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength))
    offset += padding + bytes.byteLength
  }
  const hash = createHash('sha256')
  for (const part of parts) hash.update(part)
  parts.push(hash.digest())
  return parts
}

/** The header of a snapshot, without checking its contents; undefined when the bytes are not one. */
export function decodeSnapshotHeader(bytes: Uint8Array): SnapshotHeader | undefined {
  if (bytes.length < MAGIC.length + 4 || !MAGIC.equals(bytes.subarray(0, MAGIC.length))) return undefined
  const length = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).readUInt32LE(MAGIC.length)
  const start = MAGIC.length + 4
  if (bytes.length < start + length) return undefined
  try {
    const header = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset + start, length).toString('utf8')) as SnapshotHeader
    return typeof header === 'object' && header !== null && typeof header.format === 'number' ? header : undefined
  } catch {
    return undefined
  }
}

function typedView(bytes: Uint8Array, type: SectionType, length: number): ArrayLike<number> {
  // A copy: aligned, and the file's buffer can be freed once the index is built.
  const copy = new Uint8Array(bytes)
  switch (type) {
    case 'f64':
      return new Float64Array(copy.buffer, 0, length)
    case 'i32':
      return new Int32Array(copy.buffer, 0, length)
    case 'u32':
      return new Uint32Array(copy.buffer, 0, length)
    case 'f32':
      return new Float32Array(copy.buffer, 0, length)
    case 'u16':
      return new Uint16Array(copy.buffer, 0, length)
    default:
      return copy
  }
}

export type DecodedSnapshot = { header: SnapshotHeader; compact: CompactIndex }

/**
 * The snapshot in `bytes`, or why it cannot be used: not a snapshot, another format, or corrupt (its checksum
 * or its layout does not match).
 */
export function decodeSnapshot(bytes: Uint8Array): DecodedSnapshot | { problem: string } {
  const header = decodeSnapshotHeader(bytes)
  if (!header) return { problem: 'not a snapshot' }
  if (header.format !== SNAPSHOT_FORMAT) return { problem: `snapshot format ${header.format}, not ${SNAPSHOT_FORMAT}` }
  if (bytes.length < DIGEST_BYTES) return { problem: 'corrupt: truncated' }
  const body = bytes.subarray(0, bytes.length - DIGEST_BYTES)
  const digest = createHash('sha256').update(body).digest()
  if (!digest.equals(bytes.subarray(bytes.length - DIGEST_BYTES))) return { problem: 'corrupt: checksum mismatch' }
  let offset = MAGIC.length + 4 + Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).readUInt32LE(MAGIC.length)
  const values = new Map<string, ArrayLike<number>>()
  let vocabulary: string[] = []
  for (const { name, type, length } of header.sections) {
    const size = BYTES[type]
    if (size === undefined || !(length >= 0)) return { problem: `corrupt: section ${name}` }
    offset += (8 - (offset % 8)) % 8
    const end = offset + length * size
    if (end > body.length) return { problem: `corrupt: section ${name} overruns the file` }
    const section = body.subarray(offset, end)
    if (name === 'vocabulary') vocabulary = section.length === 0 ? [] : Buffer.from(section.buffer, section.byteOffset, section.byteLength).toString('utf8').split('\0')
    else values.set(name, typedView(section, type, length))
    offset = end
  }
  const take = <T>(name: string, widen: (values: ArrayLike<number>) => T): T => widen(values.get(name) ?? [])
  const f64 = (array: ArrayLike<number>) => (array instanceof Float64Array ? array : Float64Array.from(array))
  const i32 = (array: ArrayLike<number>) => (array instanceof Int32Array ? array : Int32Array.from(array))
  const compact: CompactIndex = {
    vocabulary,
    chunkIds: take('chunkIds', f64),
    articleIds: take('articleIds', f64),
    lengths: take('lengths', f64),
    termOffsets: take('termOffsets', i32),
    termIds: take('termIds', i32),
    termFrequencies: take('termFrequencies', (array) => (array instanceof Float32Array ? array : Float32Array.from(array))),
    pairOffsets: take('pairOffsets', i32),
    pairs: take('pairs', (array) => (array instanceof Uint32Array ? array : Uint32Array.from(array))),
  }
  if (compact.chunkIds.length !== header.chunks) return { problem: 'corrupt: chunk count' }
  return { header, compact }
}

/** Writes the snapshot next to where it goes, then renames it into place: a reader sees the old file or the new one. */
export async function writeSnapshotFile(file: string, parts: Buffer[]): Promise<number> {
  await mkdir(path.dirname(file), { recursive: true })
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`
  try {
    const handle = await open(temporary, 'w')
    try {
      for (const part of parts) await handle.write(part)
      await handle.sync()
    } finally {
      await handle.close()
    }
    await rename(temporary, file)
  } catch (error) {
    await rm(temporary, { force: true })
    throw error
  }
  return parts.reduce((sum, part) => sum + part.length, 0)
}

/** The file's bytes, or undefined when there is none. */
export async function readSnapshotFile(file: string): Promise<Buffer | undefined> {
  try {
    return await readFile(file)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw error
  }
}

/** The header of the snapshot file (reading its first bytes only), or undefined. */
export async function readSnapshotFileHeader(file: string): Promise<SnapshotHeader | undefined> {
  let handle
  try {
    handle = await open(file, 'r')
  } catch {
    return undefined
  }
  try {
    const { buffer, bytesRead } = await handle.read({ buffer: Buffer.alloc(64 * 1024), position: 0 })
    return decodeSnapshotHeader(buffer.subarray(0, bytesRead))
  } finally {
    await handle.close()
  }
}

