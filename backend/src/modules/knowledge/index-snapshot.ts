import { createHash, randomBytes } from 'node:crypto'
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises'
import path from 'node:path'
import { setImmediate as nextTurn } from 'node:timers/promises'
import type { Bm25Index, CompactIndex } from '../../retrieval/bm25-index'

/**
 * A snapshot of the keyword index: its chunks as flat arrays (`CompactIndex`) and the change-log position they
 * reflect, in one file. Layout: 8 bytes of magic, a little-endian uint32 header length, the header (JSON),
 * then each section 8-byte aligned, then the SHA-256 of everything before it. Raise SNAPSHOT_FORMAT when the
 * layout changes: a file of another format is ignored and the index rebuilt.
 */
export const SNAPSHOT_FORMAT = 1

/** Terms and pairs copied (or values encoded) per turn of the event loop while a snapshot is written. */
export const SNAPSHOT_SLICE = 50_000

const MAGIC = Buffer.from('KBIDXSNP', 'latin1')
const DIGEST_BYTES = 32

/** Where the snapshot comes from: a process loads it only into the database and log it was taken from. */
export interface SnapshotOrigin {
  /** The term format of the stored chunks (INDEX_FORMAT)… */
  indexFormat: number
  /** …and the language their words were read in (KNOWLEDGE_LANGUAGE); absent: English. */
  language?: string
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
type NumberType = Exclude<SectionType, 'utf8'>

const BYTES: Record<SectionType, number> = { f64: 8, i32: 4, u32: 4, u16: 2, u8: 1, f32: 4, utf8: 1 }

/** Bytes hashed per slice of a snapshot's encoding, per value converted in one: hashing a byte costs less. */
const ENCODE_SLICE_FACTOR = 8

/** The narrowest type that holds every term frequency exactly. */
function* frequencyType(frequencies: Float32Array, valuesPerSlice: number): Generator<void, NumberType, void> {
  let largest = 0
  for (let start = 0; start < frequencies.length; start += valuesPerSlice) {
    yield
    const end = Math.min(frequencies.length, start + valuesPerSlice)
    for (let position = start; position < end; position += 1) {
      const frequency = frequencies[position] as number
      if (!Number.isInteger(frequency)) return 'f32'
      if (frequency > largest) largest = frequency
    }
  }
  return largest <= 0xff ? 'u8' : largest <= 0xffff ? 'u16' : 'f32'
}

type TypedValues = Float64Array | Float32Array | Int32Array | Uint32Array | Uint16Array | Uint8Array

const CONSTRUCTORS = { f64: Float64Array, f32: Float32Array, i32: Int32Array, u32: Uint32Array, u16: Uint16Array, u8: Uint8Array } as const

/** The values as bytes of `type`: a view when they already are of it, else converted a slice at a time. */
function* asBytes(values: TypedValues, type: NumberType, valuesPerSlice: number): Generator<void, Uint8Array, void> {
  const Constructor = CONSTRUCTORS[type]
  let typed: TypedValues = values
  if (!(values instanceof Constructor)) {
    typed = new Constructor(values.length)
    for (let start = 0; start < values.length; start += valuesPerSlice) {
      yield
      typed.set(values.subarray(start, start + valuesPerSlice), start)
    }
  }
  return new Uint8Array(typed.buffer, typed.byteOffset, typed.byteLength)
}

/** The snapshot file's bytes. Throws when a term cannot be stored (it holds a NUL character). */
export function encodeSnapshot(compact: CompactIndex, origin: SnapshotOrigin): Buffer[] {
  return drain(encodeSnapshotSlices(compact, origin, Number.POSITIVE_INFINITY))
}

/**
 * What `encodeSnapshot` returns, converted and hashed about `valuesPerSlice` values (or 8 × as many bytes) per
 * `next()`, so that the caller can let other work run between slices.
 */
export function* encodeSnapshotSlices(compact: CompactIndex, origin: SnapshotOrigin, valuesPerSlice: number): Generator<void, Buffer[], void> {
  if (compact.vocabulary.some((term) => term.includes('\0'))) throw new Error('A term holds a NUL character')
  const vocabulary = Buffer.from(compact.vocabulary.join('\0'), 'utf8')
  const sections: { name: SnapshotHeader['sections'][number]['name']; type: SectionType; bytes: Uint8Array; length: number }[] = [
    { name: 'vocabulary', type: 'utf8', bytes: vocabulary, length: vocabulary.length },
  ]
  function* add(name: keyof Omit<CompactIndex, 'vocabulary'>, type: NumberType) {
    const values = compact[name]
    sections.push({ name, type, bytes: yield* asBytes(values, type, valuesPerSlice), length: values.length })
  }
  yield* add('chunkIds', 'f64')
  yield* add('articleIds', 'f64')
  yield* add('lengths', 'f64')
  yield* add('termOffsets', 'i32')
  yield* add('termIds', compact.vocabulary.length <= 0x10000 ? 'u16' : 'i32')
  yield* add('termFrequencies', yield* frequencyType(compact.termFrequencies, valuesPerSlice))
  yield* add('pairOffsets', 'i32')
  yield* add('pairs', 'u32')
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
  const bytesPerSlice = valuesPerSlice * ENCODE_SLICE_FACTOR
  for (const part of parts) {
    for (let start = 0; start < part.length; start += bytesPerSlice) {
      yield
      hash.update(part.subarray(start, start + bytesPerSlice))
    }
  }
  parts.push(hash.digest())
  return parts
}

/** Runs the slices one after another, without turns between them. */
function drain<T>(slices: Generator<void, T, void>): T {
  for (;;) {
    const step = slices.next()
    if (step.done) return step.value
  }
}

/** Runs the slices one after another, giving the event loop a turn between them. */
async function drainYielding<T>(slices: Generator<void, T, void>): Promise<T> {
  for (;;) {
    const step = slices.next()
    if (step.done) return step.value
    await nextTurn()
  }
}

/**
 * Writes a snapshot of `index` as it is at this call, which must be at log position `origin.seq`. The copy and
 * the encoding run about `entriesPerSlice` terms at a time with a turn of the event loop between slices, so a
 * large index does not stop the process from answering; the index may change meanwhile (the copy is taken
 * now). Returns the bytes written.
 */
export async function writeSnapshot(file: string, index: Bm25Index, origin: SnapshotOrigin, entriesPerSlice = SNAPSHOT_SLICE): Promise<number> {
  const copy = index.compactSlices(entriesPerSlice)
  const compact = await drainYielding(copy)
  const parts = await drainYielding(encodeSnapshotSlices(compact, origin, entriesPerSlice))
  return writeSnapshotFile(file, parts)
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

