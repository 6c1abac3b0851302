/** Vectors as the database stores them (single precision): the in-process search and pgvector see the same numbers. */
export function toFloat32(vector: ArrayLike<number>): Float32Array {
  return vector instanceof Float32Array ? vector : Float32Array.from(vector)
}

export function norm(vector: ArrayLike<number>): number {
  let sum = 0
  for (let index = 0; index < vector.length; index++) sum += vector[index] * vector[index]
  return Math.sqrt(sum)
}

/** Cosine similarity in [-1, 1]; NaN when either vector is all zeros or the lengths differ (no defined angle). */
export function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) return Number.NaN
  let dot = 0
  let normA = 0
  let normB = 0
  for (let index = 0; index < a.length; index++) {
    dot += a[index] * b[index]
    normA += a[index] * a[index]
    normB += b[index] * b[index]
  }
  return normA === 0 || normB === 0 ? Number.NaN : dot / Math.sqrt(normA * normB)
}

export interface VectorMatch {
  id: number
  /** Cosine similarity to the query. */
  score: number
}

/** Best first; equal scores by id, so every search of the same data gives the same order. */
export const byScoreThenId = (a: VectorMatch, b: VectorMatch) => b.score - a.score || a.id - b.id

/**
 * Vectors of one model in one growable matrix, each row stored as given (single precision) with its length,
 * searched exactly: the cosine of the query with every row. Rows are removed by moving the last row into the gap.
 */
export class VectorMatrix {
  private data = new Float32Array(0)
  private lengths = new Float64Array(0)
  private ids: number[] = []
  private readonly rowOf = new Map<number, number>()
  private width: number | undefined

  get size(): number {
    return this.ids.length
  }

  get dimensions(): number | undefined {
    return this.width
  }

  has(id: number): boolean {
    return this.rowOf.has(id)
  }

  /** Adds or replaces the vector of `id`. A vector of another length than the first one's is refused. */
  set(id: number, vector: ArrayLike<number>): void {
    const width = (this.width ??= vector.length)
    if (vector.length !== width) throw new RangeError(`A vector of ${vector.length} dimensions in a matrix of ${width}`)
    let row = this.rowOf.get(id)
    if (row === undefined) {
      row = this.ids.length
      this.grow(row + 1)
      this.ids.push(id)
      this.rowOf.set(id, row)
    }
    this.data.set(toFloat32(vector), row * width)
    this.lengths[row] = norm(this.data.subarray(row * width, (row + 1) * width))
  }

  delete(id: number): boolean {
    const row = this.rowOf.get(id)
    if (row === undefined) return false
    const last = this.ids.length - 1
    const width = this.width!
    if (row !== last) {
      const movedId = this.ids[last]
      this.data.copyWithin(row * width, last * width, (last + 1) * width)
      this.lengths[row] = this.lengths[last]
      this.ids[row] = movedId
      this.rowOf.set(movedId, row)
    }
    this.ids.pop()
    this.rowOf.delete(id)
    return true
  }

  get(id: number): Float32Array | undefined {
    const row = this.rowOf.get(id)
    if (row === undefined) return undefined
    return this.data.slice(row * this.width!, (row + 1) * this.width!)
  }

  /** The `limit` rows most similar to `query` (cosine), best first; rows or a query of length zero never match. */
  search(query: ArrayLike<number>, limit: number): VectorMatch[] {
    const count = Math.max(0, Math.floor(limit))
    const width = this.width
    if (count === 0 || width === undefined || query.length !== width) return []
    const q = toFloat32(query)
    const queryLength = norm(q)
    if (queryLength === 0) return []
    // A bounded min-heap would save little at knowledge-base sizes; a kept-sorted top list is simpler and exact.
    const best: VectorMatch[] = []
    let floor = -Infinity
    for (let row = 0; row < this.ids.length; row++) {
      const length = this.lengths[row]
      if (length === 0) continue
      let dot = 0
      const offset = row * width
      for (let column = 0; column < width; column++) dot += this.data[offset + column] * q[column]
      const score = dot / (length * queryLength)
      if (best.length === count && score < floor) continue
      const match = { id: this.ids[row], score }
      if (best.length === count && byScoreThenId(match, best[count - 1]) >= 0) continue
      insertSorted(best, match)
      if (best.length > count) best.pop()
      if (best.length === count) floor = best[count - 1].score
    }
    return best
  }

  private grow(rows: number): void {
    const width = this.width!
    if (rows * width <= this.data.length) return
    const capacity = Math.max(rows, Math.ceil((this.data.length / Math.max(width, 1)) * 1.5), 64)
    const data = new Float32Array(capacity * width)
    data.set(this.data)
    const lengths = new Float64Array(capacity)
    lengths.set(this.lengths)
    this.data = data
    this.lengths = lengths
  }
}

function insertSorted(list: VectorMatch[], match: VectorMatch): void {
  let low = 0
  let high = list.length
  while (low < high) {
    const middle = (low + high) >>> 1
    if (byScoreThenId(list[middle], match) <= 0) low = middle + 1
    else high = middle
  }
  list.splice(low, 0, match)
}
