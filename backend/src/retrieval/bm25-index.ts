import { termFrequencies, tokenize } from './text';

/** A chunk as stored in the index: stem → term frequency, and its length in tokens. */
export interface IndexedChunk {
  chunkId: number;
  articleId: number;
  terms: Record<string, number>;
  length: number;
}

export interface Bm25Parameters {
  k1: number;
  b: number;
}

/** Anserini's BM25 defaults. */
export const defaultBm25Parameters: Readonly<Bm25Parameters> = Object.freeze({ k1: 0.9, b: 0.4 });

export interface ScoredChunk {
  chunkId: number;
  articleId: number;
  score: number;
  /** Distinct query terms found in the chunk, in query order. */
  matchedTerms: string[];
}

/**
 * Pseudo-relevance feedback (RM3): the best chunks of a first BM25 pass lend their most frequent terms to a
 * second pass. It adds words the question did not use but relevant passages do ("helminths" → "albendazole").
 */
export interface QueryExpansionOptions {
  /** Chunks of the first pass taken as relevant. */
  feedbackChunks: number;
  /** Expansion terms added to the question. */
  expansionTerms: number;
  /** Share of the question itself in the expanded query (RM3's lambda), in (0, 1]. */
  originalQueryWeight: number;
  /**
   * Below this many chunks, no expansion: the first pass's top chunks are then a large part of the corpus,
   * so their words say little about the question (and small knowledge bases keep plain BM25).
   */
  minimumIndexSize: number;
}

/** Tuned on the SciFact train split only (bench/tune.ts, ADR 020). */
export const defaultQueryExpansion: Readonly<QueryExpansionOptions> = Object.freeze({
  feedbackChunks: 10,
  expansionTerms: 20,
  originalQueryWeight: 0.7,
  minimumIndexSize: 1000,
});

interface StoredChunk {
  chunkId: number;
  articleId: number;
  length: number;
  /** Position of the chunk in the index's per-chunk arrays (scores, lengths). */
  slot: number;
  /** The postings of each of the chunk's terms, and the term frequencies in the same order. */
  postings: Postings[];
  frequencies: Float32Array;
}

/**
 * The postings of a term as arrays sorted by slot, rebuilt lazily after the term's postings change: scanning
 * typed arrays is several times faster than iterating a Map, and the bounds let a search skip what cannot
 * reach the top.
 */
interface PostingArrays {
  slots: Int32Array;
  frequencies: Float64Array;
  maxFrequency: number;
  minLength: number;
}

interface Postings {
  term: string;
  /** chunkId → term frequency: the source of truth, cheap to update. */
  byChunk: Map<number, number>;
  arrays: PostingArrays | undefined;
  /** Scratch accumulator for query expansion, valid when `feedbackEpoch` equals the index's. */
  feedbackWeight: number;
  feedbackEpoch: number;
}

interface WeightedTerm {
  postings: Postings;
  /** Query weight of the term (1 for a question term). */
  weight: number;
}

interface WeightedList {
  postings: Postings;
  arrays: PostingArrays;
  /** Query weight × idf × (k1 + 1). */
  weight: number;
  /** The most this term can add to any chunk's score. */
  upperBound: number;
}

interface RankedSlot {
  slot: number;
  chunkId: number;
  score: number;
}

/** Builds an `IndexedChunk` from raw chunk text with the shared tokenizer. */
export function createIndexedChunk(chunkId: number, articleId: number, text: string): IndexedChunk {
  const tokens = tokenize(text);
  const terms: Record<string, number> = {};
  // Faster than Object.fromEntries for objects with many keys.
  for (const [term, frequency] of termFrequencies(tokens)) terms[term] = frequency;
  return { chunkId, articleId, terms, length: tokens.length };
}

function compareRanked(a: RankedSlot, b: RankedSlot): number {
  return b.score - a.score || a.chunkId - b.chunkId;
}

/** The `limit`-th best score among `count` slots (−Infinity when there are fewer), by quickselect. */
function kthBestScore(slots: Int32Array, count: number, scores: Float64Array, limit: number, scratch: { values: Float64Array }): number {
  if (count < limit) return -Infinity;
  if (scratch.values.length < count) scratch.values = new Float64Array(Math.max(count, 2 * scratch.values.length));
  const values = scratch.values;
  for (let position = 0; position < count; position += 1) values[position] = scores[slots[position] as number] as number;
  // Hoare selection of the value that would sit at index limit - 1 in descending order.
  const target = limit - 1;
  let low = 0;
  let high = count - 1;
  while (low < high) {
    const pivot = values[(low + high) >> 1] as number;
    let left = low;
    let right = high;
    while (left <= right) {
      while ((values[left] as number) > pivot) left += 1;
      while ((values[right] as number) < pivot) right -= 1;
      if (left <= right) {
        const swap = values[left] as number;
        values[left] = values[right] as number;
        values[right] = swap;
        left += 1;
        right -= 1;
      }
    }
    if (target <= right) high = right;
    else if (target >= left) low = left;
    else break;
  }
  return values[target] as number;
}

/** First position at or after `from` whose slot is ≥ `slot` (galloping, then binary search). */
function seekSlot(slots: Int32Array, from: number, slot: number): number {
  let step = 1;
  let high = from;
  while (high < slots.length && (slots[high] as number) < slot) {
    from = high + 1;
    high += step;
    step *= 2;
  }
  high = Math.min(high, slots.length);
  while (from < high) {
    const middle = (from + high) >> 1;
    if ((slots[middle] as number) < slot) from = middle + 1;
    else high = middle;
  }
  return from;
}

/** Recompute the k-th best score only after the remaining bound fell by this factor: each computation costs a pass. */
const THRESHOLD_RECHECK_FACTOR = 0.7;

/**
 * In-memory BM25 index over chunks with an inverted index (term → postings of
 * chunkId → term frequency). Corpus statistics stay exact under add, remove and
 * replace, so an index built incrementally scores exactly like one built fresh.
 *
 * score(q, d) = Σ_t w(t) · idf(t) · tf·(k1 + 1) / (tf + k1·(1 − b + b·|d|/avgdl))
 * idf(t) = ln(1 + (N − df + 0.5) / (df + 0.5))
 *
 * w(t) is 1 for each distinct question term. On indexes of at least `minimumIndexSize` chunks the question is
 * expanded by pseudo-relevance feedback (RM3, `QueryExpansionOptions`), which adds terms with smaller weights.
 * Top-k selection is exact but skips work: once the k-th best score exceeds what the remaining terms could
 * add, chunks not yet seen cannot reach the top, and only the candidates that still can are scored further.
 */
export class Bm25Index {
  private readonly k1: number;
  private readonly b: number;
  private readonly expansion: Readonly<QueryExpansionOptions> | false;
  private readonly postings = new Map<string, Postings>();
  private readonly chunks = new Map<number, StoredChunk>();
  private totalLength = 0;
  /** Per-slot arrays: the chunk, its length, and the search accumulators (valid when epochs[slot] is the current epoch). */
  private slotChunks: (StoredChunk | undefined)[] = [];
  private lengths = new Float64Array(1024);
  private scores = new Float64Array(1024);
  private epochs = new Float64Array(1024);
  private touched = new Int32Array(1024);
  private readonly freeSlots: number[] = [];
  private searchEpoch = 0;
  private feedbackEpoch = 0;
  private readonly selection = { values: new Float64Array(1024) };

  constructor(parameters: Bm25Parameters = defaultBm25Parameters, expansion: Readonly<QueryExpansionOptions> | false = defaultQueryExpansion) {
    if (!Number.isFinite(parameters.k1) || parameters.k1 < 0) throw new RangeError('BM25 k1 must be a non-negative number');
    if (!Number.isFinite(parameters.b) || parameters.b < 0 || parameters.b > 1) throw new RangeError('BM25 b must be between 0 and 1');
    if (expansion && !(expansion.originalQueryWeight > 0 && expansion.originalQueryWeight <= 1)) {
      throw new RangeError('originalQueryWeight must be in (0, 1]');
    }
    this.k1 = parameters.k1;
    this.b = parameters.b;
    this.expansion = expansion;
  }

  /** Number of chunks in the index. */
  get size(): number {
    return this.chunks.size;
  }

  /** Mean chunk length in tokens (0 for an empty index). */
  get averageLength(): number {
    return this.chunks.size === 0 ? 0 : this.totalLength / this.chunks.size;
  }

  has(chunkId: number): boolean {
    return this.chunks.has(chunkId);
  }

  /** Adds a chunk; a chunk with the same chunkId is replaced. */
  add(chunk: IndexedChunk): void {
    if (!Number.isFinite(chunk.length) || chunk.length < 0) throw new RangeError(`Chunk ${chunk.chunkId} has an invalid length`);
    if (this.chunks.has(chunk.chunkId)) this.remove(chunk.chunkId);
    const chunkPostings: Postings[] = [];
    const chunkFrequencies: number[] = [];
    const frequencies = chunk.terms;
    for (const term in frequencies) {
      if (!Object.hasOwn(frequencies, term)) continue;
      const frequency = frequencies[term] as number;
      if (!(frequency > 0) || !Number.isFinite(frequency)) continue;
      let postings = this.postings.get(term);
      if (postings === undefined) {
        postings = { term, byChunk: new Map(), arrays: undefined, feedbackWeight: 0, feedbackEpoch: 0 };
        this.postings.set(term, postings);
      }
      postings.byChunk.set(chunk.chunkId, frequency);
      postings.arrays = undefined;
      chunkPostings.push(postings);
      chunkFrequencies.push(frequency);
    }
    const slot = this.freeSlots.pop() ?? this.slotChunks.length;
    this.ensureSlotCapacity(slot + 1);
    const stored: StoredChunk = {
      chunkId: chunk.chunkId,
      articleId: chunk.articleId,
      length: chunk.length,
      slot,
      postings: chunkPostings,
      frequencies: Float32Array.from(chunkFrequencies),
    };
    this.slotChunks[slot] = stored;
    this.lengths[slot] = chunk.length;
    this.chunks.set(chunk.chunkId, stored);
    this.totalLength += chunk.length;
  }

  /** Removes a chunk; unknown ids are ignored. */
  remove(chunkId: number): void {
    const stored = this.chunks.get(chunkId);
    if (stored === undefined) return;
    for (const postings of stored.postings) {
      postings.byChunk.delete(chunkId);
      postings.arrays = undefined;
      if (postings.byChunk.size === 0) this.postings.delete(postings.term);
    }
    // Every posting list that named this slot was just invalidated, so the slot can be reused.
    this.slotChunks[stored.slot] = undefined;
    this.freeSlots.push(stored.slot);
    this.chunks.delete(chunkId);
    this.totalLength -= stored.length;
  }

  /** Number of chunks containing the term. */
  documentFrequency(term: string): number {
    return this.postings.get(term)?.byChunk.size ?? 0;
  }

  /** Non-negative BM25 idf: ln(1 + (N − df + 0.5) / (df + 0.5)). */
  idf(term: string): number {
    return this.idfOf(this.documentFrequency(term));
  }

  /**
   * Returns the `limit` best chunks for the query terms (stems, as produced by
   * `tokenize`), by BM25 score descending then chunkId ascending. Repeated query
   * terms count once. Only postings of the query (and expansion) terms are visited.
   */
  search(queryTerms: string[], limit: number): ScoredChunk[] {
    if (!(limit >= 1) || this.chunks.size === 0) return [];
    const uniqueTerms = [...new Set(queryTerms)];
    const question: WeightedTerm[] = [];
    for (const term of uniqueTerms) {
      const postings = this.postings.get(term);
      if (postings !== undefined) question.push({ postings, weight: 1 });
    }
    if (question.length === 0) return [];
    const expansion = this.expansion;
    const query = expansion && this.chunks.size >= expansion.minimumIndexSize ? this.expandQuery(question, expansion) : question;

    return this.rank(query, Math.floor(limit)).map(({ slot, score }) => {
      const chunk = this.slotChunks[slot] as StoredChunk;
      const matchedTerms = question.filter(({ postings }) => postings.byChunk.has(chunk.chunkId)).map(({ postings }) => postings.term);
      return { chunkId: chunk.chunkId, articleId: chunk.articleId, score, matchedTerms };
    });
  }

  private idfOf(documentFrequency: number): number {
    return Math.log(1 + (this.chunks.size - documentFrequency + 0.5) / (documentFrequency + 0.5));
  }

  private ensureSlotCapacity(count: number): void {
    if (count <= this.lengths.length) return;
    const capacity = Math.max(count, this.lengths.length * 2);
    const grow = (array: Float64Array) => {
      const grown = new Float64Array(capacity);
      grown.set(array);
      return grown;
    };
    this.lengths = grow(this.lengths);
    this.scores = grow(this.scores);
    this.epochs = grow(this.epochs);
    this.touched = new Int32Array(capacity);
  }

  /**
   * RM3: P(t|R) = Σ_d P(t|d)·P(d), over the first pass's best chunks, with P(d) ∝ exp(score − best score).
   * The weights are scaled so that each question term keeps weight 1: scores stay comparable with plain BM25.
   */
  private expandQuery(question: WeightedTerm[], options: Readonly<QueryExpansionOptions>): WeightedTerm[] {
    if (options.expansionTerms < 1 || options.originalQueryWeight >= 1) return question;
    const feedback = this.rank(question, options.feedbackChunks);
    if (feedback.length === 0) return question;
    const bestScore = (feedback[0] as RankedSlot).score;
    const epoch = ++this.feedbackEpoch;
    const seen: Postings[] = [];
    for (const { slot, score } of feedback) {
      const chunk = this.slotChunks[slot] as StoredChunk;
      if (chunk.length <= 0) continue;
      const chunkWeight = Math.exp(score - bestScore) / chunk.length;
      for (let position = 0; position < chunk.postings.length; position += 1) {
        const postings = chunk.postings[position] as Postings;
        if (postings.feedbackEpoch !== epoch) {
          postings.feedbackEpoch = epoch;
          postings.feedbackWeight = 0;
          seen.push(postings);
        }
        postings.feedbackWeight += (chunk.frequencies[position] as number) * chunkWeight;
      }
    }
    // Ties broken by term so that the expansion does not depend on insertion order.
    seen.sort((a, b) => b.feedbackWeight - a.feedbackWeight || (a.term < b.term ? -1 : a.term > b.term ? 1 : 0));
    const chosen = seen.slice(0, options.expansionTerms);
    const total = chosen.reduce((sum, postings) => sum + postings.feedbackWeight, 0);
    if (!(total > 0)) return question;
    const scale = (question.length * (1 - options.originalQueryWeight)) / options.originalQueryWeight / total;
    const weights = new Map<Postings, number>(question.map(({ postings, weight }) => [postings, weight]));
    for (const postings of chosen) weights.set(postings, (weights.get(postings) ?? 0) + postings.feedbackWeight * scale);
    return [...weights].map(([postings, weight]) => ({ postings, weight }));
  }

  private arraysOf(postings: Postings): PostingArrays {
    if (postings.arrays !== undefined) return postings.arrays;
    const size = postings.byChunk.size;
    const order = new Array<[number, number]>(size);
    let maxFrequency = 0;
    let minLength = Infinity;
    let position = 0;
    for (const [chunkId, frequency] of postings.byChunk) {
      const chunk = this.chunks.get(chunkId) as StoredChunk;
      order[position] = [chunk.slot, frequency];
      position += 1;
      if (frequency > maxFrequency) maxFrequency = frequency;
      if (chunk.length < minLength) minLength = chunk.length;
    }
    // Sorted by slot so that a candidate's frequency can be found by galloping search.
    order.sort((a, b) => a[0] - b[0]);
    const slots = new Int32Array(size);
    const frequencies = new Float64Array(size);
    order.forEach(([slot, frequency], index) => {
      slots[index] = slot;
      frequencies[index] = frequency;
    });
    postings.arrays = { slots, frequencies, maxFrequency, minLength };
    return postings.arrays;
  }

  /** The best `limit` chunks for weighted terms, best first. */
  private rank(query: WeightedTerm[], limit: number): RankedSlot[] {
    const k1 = this.k1;
    const averageLength = this.averageLength;
    const base = k1 * (1 - this.b);
    const perLength = averageLength > 0 ? (k1 * this.b) / averageLength : 0;

    const lists: WeightedList[] = [];
    for (const { postings, weight: queryWeight } of query) {
      if (!(queryWeight > 0)) continue;
      const arrays = this.arraysOf(postings);
      const weight = queryWeight * this.idfOf(postings.byChunk.size) * (k1 + 1);
      const upperBound = (weight * arrays.maxFrequency) / (arrays.maxFrequency + base + perLength * arrays.minLength);
      lists.push({ postings, arrays, weight, upperBound });
    }
    // Terms that can add the most come first, so that the k-th best score rises early.
    lists.sort((a, b) => b.upperBound - a.upperBound || (a.postings.term < b.postings.term ? -1 : 1));
    let remainingBound = lists.reduce((sum, list) => sum + list.upperBound, 0);

    const scores = this.scores;
    const epochs = this.epochs;
    const lengths = this.lengths;
    const epoch = ++this.searchEpoch;
    // Slots with a score in this pass, each once.
    let candidates = this.touched;
    let count = 0;
    let next = 0;
    let checkBelow = Infinity;
    while (next < lists.length) {
      const { arrays, weight, upperBound } = lists[next] as WeightedList;
      next += 1;
      remainingBound -= upperBound;
      const slots = arrays.slots;
      const frequencies = arrays.frequencies;
      for (let position = 0; position < slots.length; position += 1) {
        const slot = slots[position] as number;
        const frequency = frequencies[position] as number;
        const contribution = (weight * frequency) / (frequency + base + perLength * (lengths[slot] as number));
        if (epochs[slot] === epoch) {
          scores[slot] += contribution;
        } else {
          epochs[slot] = epoch;
          scores[slot] = contribution;
          candidates[count] = slot;
          count += 1;
        }
      }
      // Strictly greater: a chunk not yet seen scores at most remainingBound, so it can neither pass nor tie.
      if (next < lists.length && count >= limit && remainingBound <= checkBelow) {
        if (kthBestScore(candidates, count, scores, limit, this.selection) > remainingBound) break;
        checkBelow = remainingBound * THRESHOLD_RECHECK_FACTOR;
      }
    }

    if (next < lists.length) {
      // From here on only chunks already seen can reach the top: score them, dropping those that cannot make it.
      candidates = candidates.slice(0, count);
      let filterBelow = Infinity;
      while (next < lists.length) {
        if (remainingBound <= filterBelow) {
          const threshold = kthBestScore(candidates, count, scores, limit, this.selection);
          let kept = 0;
          for (let position = 0; position < count; position += 1) {
            const slot = candidates[position] as number;
            if ((scores[slot] as number) + remainingBound >= threshold) {
              candidates[kept] = slot;
              kept += 1;
            }
          }
          count = kept;
          // Ascending slots, for the galloping lookups below.
          candidates.subarray(0, count).sort();
          filterBelow = remainingBound * THRESHOLD_RECHECK_FACTOR;
        }
        const { arrays, weight, upperBound } = lists[next] as WeightedList;
        next += 1;
        remainingBound -= upperBound;
        const slots = arrays.slots;
        const frequencies = arrays.frequencies;
        let position = 0;
        for (let index = 0; index < count && position < slots.length; index += 1) {
          const slot = candidates[index] as number;
          position = seekSlot(slots, position, slot);
          if (slots[position] === slot) {
            const frequency = frequencies[position] as number;
            scores[slot] += (weight * frequency) / (frequency + base + perLength * (lengths[slot] as number));
          }
        }
      }
    }

    const threshold = kthBestScore(candidates, count, scores, limit, this.selection);
    const best: RankedSlot[] = [];
    for (let position = 0; position < count; position += 1) {
      const slot = candidates[position] as number;
      const score = scores[slot] as number;
      if (score >= threshold) best.push({ slot, chunkId: (this.slotChunks[slot] as StoredChunk).chunkId, score });
    }
    best.sort(compareRanked);
    if (best.length > limit) best.length = limit;
    return best;
  }
}
