/**
 * An order-independent digest of a set of chunk ids: two 32-bit lanes, each the sum modulo 2^32 of a mixed hash
 * of every id. Adding and removing an id are O(1), and two processes holding the same chunks report the same
 * digest whatever order they applied the changes in.
 */
export class ChunkSetDigest {
  private low = 0
  private high = 0

  add(chunkId: number): void {
    this.low = (this.low + mixLow(chunkId)) >>> 0
    this.high = (this.high + mixHigh(chunkId)) >>> 0
  }

  remove(chunkId: number): void {
    this.low = (this.low - mixLow(chunkId)) >>> 0
    this.high = (this.high - mixHigh(chunkId)) >>> 0
  }

  toString(): string {
    return this.high.toString(16).padStart(8, '0') + this.low.toString(16).padStart(8, '0')
  }
}

/** The digest of the given chunk ids, as a process holding exactly these chunks reports it. */
export function digestOf(chunkIds: Iterable<number>): string {
  const digest = new ChunkSetDigest()
  for (const chunkId of chunkIds) digest.add(chunkId)
  return digest.toString()
}

/** MurmurHash3's 32-bit finaliser: every input bit affects every output bit. */
function finalise(value: number): number {
  let hash = value | 0
  hash ^= hash >>> 16
  hash = Math.imul(hash, 0x85ebca6b)
  hash ^= hash >>> 13
  hash = Math.imul(hash, 0xc2b2ae35)
  hash ^= hash >>> 16
  return hash >>> 0
}

const mixLow = (chunkId: number) => finalise(chunkId ^ 0x9e3779b9)
const mixHigh = (chunkId: number) => finalise(Math.imul(chunkId, 0x2545f491) + 0x6a09e667)
