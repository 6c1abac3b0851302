import { isPairTerm, pairTerm, type Query } from './query';
import { closestIndexedTerm, isCorrectable } from './spelling';
import { termFrequencies, tokenize, tokenizeWithWords } from './text';

/**
 * A chunk as stored in the index: stem → term frequency, and its length in tokens. The terms may also hold
 * adjacent word pairs (`pairTerm` keys, "super bowl" → count), which proximity scoring matches; they do not
 * count in the length.
 */
export interface IndexedChunk {
  chunkId: number;
  articleId: number;
  terms: Record<string, number>;
  length: number;
}

export interface Bm25Parameters {
  k1: number;
  b: number;
  /**
   * Proximity: each adjacent pair of query words found adjacent in a chunk adds this share of the smaller of the
   * two words' weights (query weight × idf). 0 (the default) is plain BM25.
   */
  proximityWeight?: number;
  /** The same for a query that asks a question (`Query.isQuestion`); defaults to `proximityWeight`. */
  questionProximityWeight?: number;
}

/** Anserini's BM25 defaults: what a `Bm25Index` uses unless given others (no proximity). */
export const defaultBm25Parameters: Readonly<Bm25Parameters> = Object.freeze({ k1: 0.9, b: 0.4 });

/**
 * The knowledge base's BM25 parameters (KnowledgeService): k1 and b tuned with title weighting on the SciFact
 * train split only (bench/tune.ts; bench/README.md); proximity for questions tuned on squad-dev-even, none for
 * other queries as on the SciFact train split, where it does not help and costs time (ADR 075).
 */
export const knowledgeBaseBm25Parameters: Readonly<Bm25Parameters> = Object.freeze({ k1: 1.2, b: 0.5, proximityWeight: 0, questionProximityWeight: 0.75 });

/**
 * How many times each occurrence of an article title's terms counts in every chunk of the article: a
 * BM25F-style field weight. A title names what the whole article is about, so its words say more than a
 * passing mention in the text. Tuned on the SciFact train split only (bench/tune.ts).
 */
export const TITLE_WEIGHT = 2;

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
   * The same share for a query that asks a question (`Query.isQuestion`); 1 leaves questions unexpanded. A
   * question names the facts it wants in the words of the passage that has them, while a claim paraphrases.
   * Defaults to `originalQueryWeight`.
   */
  questionOriginalWeight?: number;
  /**
   * Below this many chunks, no expansion: the first pass's top chunks are then a large part of the corpus,
   * so their words say little about the question (and small knowledge bases keep plain BM25).
   */
  minimumIndexSize: number;
}

/** Tuned on the SciFact train split only (bench/tune.ts, ADR 020; retuned with title weighting, bench/README.md). */
export const defaultQueryExpansion: Readonly<QueryExpansionOptions> = Object.freeze({
  feedbackChunks: 20,
  expansionTerms: 20,
  originalQueryWeight: 0.7,
  questionOriginalWeight: 1,
  minimumIndexSize: 1000,
});

/**
 * The terms of a chunk added or replaced one at a time: its postings, the term frequencies in the same order,
 * and the hashes (`hashPair`) of its adjacent word pairs, ascending and distinct. Chunks loaded in bulk keep
 * the same in the index's flat arrays (`BulkChunks`) and get one of these only when they are replaced.
 */
interface ChunkTerms {
  postings: Postings[];
  frequencies: Float32Array;
  pairs: Uint32Array;
}

/** What a compact copy of the index reads, as the index was when the copy began (`Bm25Index.compactSlices`). */
interface FrozenChunks {
  vocabulary: string[];
  /** Live chunks. */
  count: number;
  slotCount: number;
  /** Per slot, NaN when free. */
  chunkIds: Float64Array;
  articleIds: Float64Array;
  lengths: Float64Array;
  changed: Map<number, ChunkTerms>;
  bulk: BulkChunks | undefined;
}

/** The flat arrays of a compact copy, filled from `FrozenChunks` a range of slots at a time. */
class CompactCopy {
  private termCount = 0;
  private pairCount = 0;
  private chunk = 0;
  private readonly chunkIds: Float64Array;
  private readonly articleIds: Float64Array;
  private readonly lengths: Float64Array;
  private readonly termOffsets: Int32Array;
  private readonly pairOffsets: Int32Array;
  private termIds = new Int32Array(0);
  private termFrequencies = new Float32Array(0);
  private pairs = new Uint32Array(0);

  constructor(private readonly frozen: FrozenChunks) {
    this.chunkIds = new Float64Array(frozen.count);
    this.articleIds = new Float64Array(frozen.count);
    this.lengths = new Float64Array(frozen.count);
    this.termOffsets = new Int32Array(frozen.count + 1);
    this.pairOffsets = new Int32Array(frozen.count + 1);
  }

  /** Counts the terms and pairs of live chunks from slot `from` until about `budget` entries; returns the next slot. */
  count(from: number, budget: number): number {
    const { chunkIds, changed, slotCount } = this.frozen;
    const bulk = this.frozen.bulk as BulkChunks;
    let slot = from;
    // Counting a chunk costs about as much as copying a few of its terms.
    for (let entries = 0; slot < slotCount && entries < budget; slot += 1, entries += 8) {
      if (Number.isNaN(chunkIds[slot])) continue;
      const terms = changed.get(slot);
      this.termCount += terms ? terms.postings.length : (bulk.termOffsets[slot + 1] as number) - (bulk.termOffsets[slot] as number);
      this.pairCount += terms ? terms.pairs.length : (bulk.pairOffsets[slot + 1] as number) - (bulk.pairOffsets[slot] as number);
    }
    return slot;
  }

  allocate(): void {
    this.termIds = new Int32Array(this.termCount);
    this.termFrequencies = new Float32Array(this.termCount);
    this.pairs = new Uint32Array(this.pairCount);
    this.termCount = 0;
    this.pairCount = 0;
  }

  /** Copies live chunks from slot `from` until about `budget` terms and pairs; returns the next slot. */
  fill(from: number, budget: number): number {
    const { changed, slotCount } = this.frozen;
    const { termIds, termFrequencies, pairs } = this;
    let termCount = this.termCount;
    let pairCount = this.pairCount;
    let slot = from;
    for (const end = termCount + pairCount + budget; slot < slotCount && termCount + pairCount < end; slot += 1) {
      const chunkId = this.frozen.chunkIds[slot] as number;
      if (Number.isNaN(chunkId)) continue;
      this.chunkIds[this.chunk] = chunkId;
      this.articleIds[this.chunk] = this.frozen.articleIds[slot] as number;
      this.lengths[this.chunk] = this.frozen.lengths[slot] as number;
      const terms = changed.get(slot);
      if (terms) {
        for (let position = 0; position < terms.postings.length; position += 1) {
          termIds[termCount] = (terms.postings[position] as Postings).compactId;
          termFrequencies[termCount] = terms.frequencies[position] as number;
          termCount += 1;
        }
        pairs.set(terms.pairs, pairCount);
        pairCount += terms.pairs.length;
      } else {
        const bulk = this.frozen.bulk as BulkChunks;
        for (let position = bulk.termOffsets[slot] as number; position < (bulk.termOffsets[slot + 1] as number); position += 1) {
          termIds[termCount] = (bulk.terms[bulk.termIds[position] as number] as Postings).compactId;
          termFrequencies[termCount] = bulk.termFrequencies[position] as number;
          termCount += 1;
        }
        const start = bulk.pairOffsets[slot] as number;
        const stop = bulk.pairOffsets[slot + 1] as number;
        pairs.set(bulk.pairs.subarray(start, stop), pairCount);
        pairCount += stop - start;
      }
      this.chunk += 1;
      this.termOffsets[this.chunk] = termCount;
      this.pairOffsets[this.chunk] = pairCount;
    }
    this.termCount = termCount;
    this.pairCount = pairCount;
    return slot;
  }

  result(): CompactIndex {
    const { chunkIds, articleIds, lengths, termOffsets, termIds, termFrequencies, pairOffsets, pairs } = this;
    return { vocabulary: this.frozen.vocabulary, chunkIds, articleIds, lengths, termOffsets, termIds, termFrequencies, pairOffsets, pairs };
  }
}

/** The chunks of a bulk load, by slot: chunk `slot`'s terms are `termIds[termOffsets[slot] … termOffsets[slot + 1])`. */
interface BulkChunks {
  count: number;
  termOffsets: Int32Array;
  termIds: Int32Array;
  termFrequencies: Float32Array;
  pairOffsets: Int32Array;
  pairs: Uint32Array;
  /** Term id → its postings at load time (a chunk still holding the term keeps them alive). */
  terms: (Postings | undefined)[];
}

/**
 * An index's contents as flat arrays: what `Bm25Index.fromCompact` loads in one pass and `toCompact` returns,
 * the form a snapshot stores. Chunk i's terms are `termIds[termOffsets[i] … termOffsets[i + 1])` (ids into
 * `vocabulary`) with their frequencies alongside, and its pair hashes `pairs[pairOffsets[i] … pairOffsets[i + 1])`,
 * ascending and distinct.
 */
export interface CompactIndex {
  vocabulary: string[];
  chunkIds: Float64Array;
  articleIds: Float64Array;
  lengths: Float64Array;
  termOffsets: Int32Array;
  termIds: Int32Array;
  termFrequencies: Float32Array;
  pairOffsets: Int32Array;
  pairs: Uint32Array;
}

/**
 * The postings of a term as arrays sorted by slot: scanning typed arrays is several times faster than iterating
 * a Map, and the bound lets a search skip what cannot reach the top.
 */
interface PostingArrays {
  slots: Int32Array;
  frequencies: Float32Array;
  /**
   * Each posting's tf / (tf + k1·(1 − b + b·|d|/avgdl)), valid while `impactsVersion` equals the index's
   * statistics version: a search then multiplies instead of dividing, and the largest impact bounds the term.
   */
  impacts: Float64Array;
  impactsVersion: number;
  maxImpact: number;
}

interface Postings {
  term: string;
  /** Number of chunks holding the term (its document frequency). */
  count: number;
  /** The postings as of the last merge. */
  arrays: PostingArrays;
  /**
   * Changes since: slot → term frequency, 0 for a removal. Merged into `arrays` before a search reads them, so
   * a change costs a Map entry and the arrays are rebuilt once for any number of changes.
   */
  pending: Map<number, number> | undefined;
  /** Scratch accumulator for query expansion, valid when `feedbackEpoch` equals the index's. */
  feedbackWeight: number;
  feedbackEpoch: number;
  /** The term's position in the vocabulary of the last compact copy begun (`compactSlices`). */
  compactId: number;
}

interface WeightedTerm {
  postings: Postings;
  /** Query weight of the term (1 for a question term). */
  weight: number;
}

interface WeightedList {
  term: string;
  slots: Int32Array;
  impacts: Float64Array;
  /** Query weight × idf × (k1 + 1). */
  weight: number;
  /** The most this term can add to any chunk's score. */
  upperBound: number;
  /** The term's bit in the per-chunk masks of pair words, 0 when no pair of the query has it. */
  bit: number;
}

/** An adjacent pair of query words, scored by a lookup in each candidate's pairs. */
interface PairBonus {
  /** The pair's two stems. */
  first: string;
  second: string;
  hash: number;
  /** What the pair adds to a chunk that has it (also the most it can add). */
  weight: number;
}

interface RankedSlot {
  slot: number;
  chunkId: number;
  score: number;
}

/** FNV-1a hash of a pair key: a chunk keeps 4 bytes per pair instead of a string. */
function hashPair(pair: string): number {
  let hash = 0x811c9dc5;
  for (let position = 0; position < pair.length; position += 1) {
    hash ^= pair.charCodeAt(position);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** Whether the ascending `pairs[low … high)` holds `hash` (binary search). */
function hasPair(pairs: Uint32Array, hash: number, low = 0, high = pairs.length): boolean {
  while (low < high) {
    const middle = (low + high) >> 1;
    const value = pairs[middle] as number;
    if (value === hash) return true;
    if (value < hash) low = middle + 1;
    else high = middle;
  }
  return false;
}

/**
 * The term frequencies and length of a chunk as indexed: the terms of its text, plus those of its article's
 * title counting `titleWeight` times each (the length counts them the same way), and the adjacent word pairs
 * of its text (`pairTerm` keys with their counts, outside the length).
 */
export function countChunkTerms(text: string, title = '', titleWeight = TITLE_WEIGHT): Pick<IndexedChunk, 'terms' | 'length'> {
  const titleTokens = title === '' ? [] : tokenize(title);
  const { terms: textTokens, words } = tokenizeWithWords(text);
  // A Map, not an object, while counting: stems such as "constructor" would otherwise read inherited members.
  const frequencies = new Map<string, number>();
  for (const token of titleTokens) frequencies.set(token, (frequencies.get(token) ?? 0) + titleWeight);
  for (const [term, frequency] of termFrequencies(textTokens)) frequencies.set(term, (frequencies.get(term) ?? 0) + frequency);
  for (let position = 1; position < words.length; position += 1) {
    const pair = pairTerm(words[position - 1] as string, words[position] as string);
    frequencies.set(pair, (frequencies.get(pair) ?? 0) + 1);
  }
  const terms: Record<string, number> = {};
  // Faster than Object.fromEntries for objects with many keys.
  for (const [term, frequency] of frequencies) terms[term] = frequency;
  return { terms, length: textTokens.length + titleWeight * titleTokens.length };
}

/** Builds an `IndexedChunk` from raw chunk text (and its article's title) with the shared tokenizer. */
export function createIndexedChunk(chunkId: number, articleId: number, text: string, title = ''): IndexedChunk {
  return { chunkId, articleId, ...countChunkTerms(text, title) };
}

const NO_PAIRS = new Uint32Array(0);
const NO_SLOTS = new Int32Array(0);
const NO_FREQUENCIES = new Float32Array(0);
const NO_IMPACTS = new Float64Array(0);

function newPostings(term: string, slots: Int32Array = NO_SLOTS, frequencies: Float32Array = NO_FREQUENCIES): Postings {
  return {
    term,
    count: slots.length,
    arrays: { slots, frequencies, impacts: NO_IMPACTS, impactsVersion: -1, maxImpact: 0 },
    pending: undefined,
    feedbackWeight: 0,
    feedbackEpoch: 0,
    compactId: -1,
  };
}

/** A typed array twice as large (at least `needed`), holding the same values first. */
function grown<T extends Int32Array | Float32Array | Float64Array | Uint32Array>(array: T, needed: number): T {
  if (needed <= array.length) return array;
  const larger = new (array.constructor as new (length: number) => T)(Math.max(needed, array.length * 2, 1024));
  larger.set(array);
  return larger;
}

/** Unknown query terms whose correction is kept at most (the cache empties when full or when the index changes). */
const MAX_KEPT_CORRECTIONS = 2000;

/**
 * Collects chunks into a `CompactIndex` without building postings: the first half of a bulk load
 * (`Bm25Index.fromCompact` is the second). Terms are counted and filtered exactly as `Bm25Index.add` does.
 */
export class Bm25IndexBuilder {
  private readonly termIds = new Map<string, number>();
  private readonly vocabulary: string[] = [];
  private count = 0;
  private chunkIds = new Float64Array(1024);
  private articleIds = new Float64Array(1024);
  private lengths = new Float64Array(1024);
  private termOffsets = new Int32Array(1025);
  private pairOffsets = new Int32Array(1025);
  private chunkTermIds = new Int32Array(1024);
  private termFrequencies = new Float32Array(1024);
  private pairs = new Uint32Array(1024);
  private termCount = 0;
  private pairCount = 0;

  get size(): number {
    return this.count;
  }

  add(chunk: IndexedChunk): void {
    if (!Number.isFinite(chunk.length) || chunk.length < 0) throw new RangeError(`Chunk ${chunk.chunkId} has an invalid length`);
    const slot = this.count;
    this.chunkIds = grown(this.chunkIds, slot + 1);
    this.articleIds = grown(this.articleIds, slot + 1);
    this.lengths = grown(this.lengths, slot + 1);
    this.termOffsets = grown(this.termOffsets, slot + 2);
    this.pairOffsets = grown(this.pairOffsets, slot + 2);
    this.chunkIds[slot] = chunk.chunkId;
    this.articleIds[slot] = chunk.articleId;
    this.lengths[slot] = chunk.length;
    const pairHashes: number[] = [];
    forEachChunkTerm(chunk.terms, pairHashes, (term, frequency) => {
      let id = this.termIds.get(term);
      if (id === undefined) {
        id = this.vocabulary.length;
        this.vocabulary.push(term);
        this.termIds.set(term, id);
      }
      if (this.termCount === this.chunkTermIds.length) {
        this.chunkTermIds = grown(this.chunkTermIds, this.termCount + 1);
        this.termFrequencies = grown(this.termFrequencies, this.termCount + 1);
      }
      this.chunkTermIds[this.termCount] = id;
      this.termFrequencies[this.termCount] = frequency;
      this.termCount += 1;
    });
    const pairs = distinctSorted(pairHashes);
    this.pairs = grown(this.pairs, this.pairCount + pairs.length);
    this.pairs.set(pairs, this.pairCount);
    this.pairCount += pairs.length;
    this.count = slot + 1;
    this.termOffsets[this.count] = this.termCount;
    this.pairOffsets[this.count] = this.pairCount;
  }

  /** The chunks added so far; the builder must not be used afterwards. */
  finish(): CompactIndex {
    const count = this.count;
    return {
      vocabulary: this.vocabulary,
      chunkIds: this.chunkIds.slice(0, count),
      articleIds: this.articleIds.slice(0, count),
      lengths: this.lengths.slice(0, count),
      termOffsets: this.termOffsets.slice(0, count + 1),
      termIds: this.chunkTermIds.slice(0, this.termCount),
      termFrequencies: this.termFrequencies.slice(0, this.termCount),
      pairOffsets: this.pairOffsets.slice(0, count + 1),
      pairs: this.pairs.slice(0, this.pairCount),
    };
  }
}

/** The query of a bare term list: each distinct term weighs 1, consecutive terms are pairs, and it is not a question. */
function queryOfTerms(queryTerms: string[]): Pick<Query, 'terms' | 'pairs' | 'isQuestion'> {
  const terms = new Map<string, number>();
  for (const term of queryTerms) terms.set(term, 1);
  const pairs = new Set<string>();
  for (let position = 1; position < queryTerms.length; position += 1) pairs.add(pairTerm(queryTerms[position - 1] as string, queryTerms[position] as string));
  return { terms, pairs: [...pairs], isQuestion: false };
}

/**
 * Walks a chunk's stored term frequencies: each word term with a positive finite frequency goes to `visit`, and
 * each adjacent-pair term's hash onto `pairHashes`.
 */
function forEachChunkTerm(frequencies: Record<string, number>, pairHashes: number[], visit: (term: string, frequency: number) => void): void {
  for (const term in frequencies) {
    if (!Object.hasOwn(frequencies, term)) continue;
    const frequency = frequencies[term] as number;
    if (!(frequency > 0) || !Number.isFinite(frequency)) continue;
    if (isPairTerm(term)) pairHashes.push(hashPair(term));
    else visit(term, frequency);
  }
}

function distinctSorted(hashes: number[]): Uint32Array {
  if (hashes.length === 0) return NO_PAIRS;
  const sorted = Uint32Array.from(hashes).sort();
  let kept = 1;
  for (let position = 1; position < sorted.length; position += 1) {
    if (sorted[position] !== sorted[kept - 1]) sorted[kept++] = sorted[position] as number;
  }
  return kept === sorted.length ? sorted : sorted.slice(0, kept);
}

function compareRanked(a: RankedSlot, b: RankedSlot): number {
  return b.score - a.score || a.chunkId - b.chunkId;
}

/** Whether `a` ranks below `b`: a lower score, or the same score and a larger chunkId. */
function ranksBelow(a: RankedSlot, b: RankedSlot): boolean {
  return a.score < b.score || (a.score === b.score && a.chunkId > b.chunkId);
}

/** Restores a min-heap (worst on top) after the entry at `position` got worse. */
function siftUp(heap: RankedSlot[], position: number): void {
  const entry = heap[position] as RankedSlot;
  while (position > 0) {
    const parent = (position - 1) >> 1;
    if (!ranksBelow(entry, heap[parent] as RankedSlot)) break;
    heap[position] = heap[parent] as RankedSlot;
    position = parent;
  }
  heap[position] = entry;
}

/** Restores a min-heap (worst on top) after the entry at `position` got better. */
function siftDown(heap: RankedSlot[], position: number): void {
  const entry = heap[position] as RankedSlot;
  for (;;) {
    let child = 2 * position + 1;
    if (child >= heap.length) break;
    if (child + 1 < heap.length && ranksBelow(heap[child + 1] as RankedSlot, heap[child] as RankedSlot)) child += 1;
    if (!ranksBelow(heap[child] as RankedSlot, entry)) break;
    heap[position] = heap[child] as RankedSlot;
    position = child;
  }
  heap[position] = entry;
}

/** The `limit`-th best score (plus `added`, when given) among `count` slots (−Infinity when there are fewer), by quickselect. */
function kthBestScore(slots: Int32Array, count: number, scores: Float64Array, limit: number, scratch: { values: Float64Array }, added?: Float64Array): number {
  if (count < limit) return -Infinity;
  if (scratch.values.length < count) scratch.values = new Float64Array(Math.max(count, 2 * scratch.values.length));
  const values = scratch.values;
  if (added) {
    for (let position = 0; position < count; position += 1) {
      const slot = slots[position] as number;
      values[position] = (scores[slot] as number) + (added[slot] as number);
    }
  } else {
    for (let position = 0; position < count; position += 1) values[position] = scores[slots[position] as number] as number;
  }
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

/** Ties broken by term so that the expansion does not depend on insertion order. */
function isBetterExpansion(a: Postings, b: Postings): boolean {
  return a.feedbackWeight > b.feedbackWeight || (a.feedbackWeight === b.feedbackWeight && a.term < b.term);
}

/** The `count` terms with the largest feedback weight, best first: an insertion into a short sorted list, cheaper than sorting every feedback term. */
function selectExpansionTerms(terms: Postings[], count: number): Postings[] {
  const chosen: Postings[] = [];
  for (const postings of terms) {
    if (chosen.length === count && !isBetterExpansion(postings, chosen[count - 1] as Postings)) continue;
    let position = chosen.length === count ? count - 1 : chosen.length;
    while (position > 0 && isBetterExpansion(postings, chosen[position - 1] as Postings)) {
      chosen[position] = chosen[position - 1] as Postings;
      position -= 1;
    }
    chosen[position] = postings;
  }
  return chosen;
}

/** Recompute the k-th best score only after the remaining bound fell by this factor: each computation costs a pass. */
const THRESHOLD_RECHECK_FACTOR = 0.7;
/**
 * Whether new candidates can still reach the top is judged by the k-th best score among the first candidates
 * only (SAMPLE_FACTOR per result wanted, at least MIN_SAMPLE): any subset's k-th best is a lower bound of the
 * true one, and the first candidates come from the terms that can add the most, so the bound is close while
 * its cost stays small however many chunks the common terms touched.
 */
const SAMPLE_FACTOR = 8;
const MIN_SAMPLE = 256;
/** Once pruning has started, a posting list longer than this many times the candidates is searched rather than scanned. */
const GALLOP_RATIO = 8;

/**
 * In-memory BM25 index over chunks with an inverted index (term → postings of
 * chunkId → term frequency). Corpus statistics stay exact under add, remove and
 * replace, so an index built incrementally scores exactly like one built fresh.
 *
 * score(q, d) = Σ_t w(t) · idf(t) · tf·(k1 + 1) / (tf + k1·(1 − b + b·|d|/avgdl))
 * idf(t) = ln(1 + (N − df + 0.5) / (df + 0.5))
 *
 * w(t) is 1 for each distinct question term (a `Query` may weigh some less). On indexes of at least
 * `minimumIndexSize` chunks a query that is not a question is expanded by pseudo-relevance feedback (RM3,
 * `QueryExpansionOptions`), which adds terms with smaller weights. With a proximity weight, each adjacent pair of
 * query words that is adjacent in a chunk adds proximityWeight · min(w·idf) of the two words.
 * Top-k selection is exact but skips work: once the k-th best score exceeds what the remaining terms could
 * add, chunks not yet seen cannot reach the top, and only the candidates that still can are scored further.
 * The per-posting part of the score, tf / (tf + k1·(…)), is cached per term until N or avgdl change.
 */
export class Bm25Index {
  private readonly k1: number;
  private readonly b: number;
  private readonly proximityWeight: number;
  private readonly questionProximityWeight: number;
  private readonly expansion: Readonly<QueryExpansionOptions> | false;
  private readonly postings = new Map<string, Postings>();
  /** chunkId → slot. */
  private readonly slots = new Map<number, number>();
  private totalLength = 0;
  /** Changes whenever N or the total length does, which invalidates every posting list's impacts. */
  private statisticsVersion = 0;
  /** Corrections found (null: none) while the statistics were at `correctionsVersion`. */
  private readonly corrections = new Map<string, string | null>();
  private correctionsVersion = -1;
  /** Slots used so far (live or free). */
  private slotCount = 0;
  /** Per-slot arrays: the chunk's id (NaN when free), article and length, and the search accumulators (valid when epochs[slot] is the current epoch). */
  private chunkIds = new Float64Array(1024);
  private articleIds = new Float64Array(1024);
  private lengths = new Float64Array(1024);
  /** The terms of chunks added one at a time, by slot; other live slots are in `bulk`. */
  private readonly changed = new Map<number, ChunkTerms>();
  private bulk: BulkChunks | undefined;
  private scores = new Float64Array(1024);
  /** Per-slot sums of pair bonuses during a search, valid for its candidates once their pairs are looked up. */
  private pairScores = new Float64Array(1024);
  /** Per-slot bits of the pair words a chunk has, valid for the slots of the current search. */
  private wordMasks = new Int32Array(1024);
  private epochs = new Float64Array(1024);
  private touched = new Int32Array(1024);
  private readonly freeSlots: number[] = [];
  private searchEpoch = 0;
  private feedbackEpoch = 0;
  private readonly selection = { values: new Float64Array(1024) };
  /** Compact copies begun (`compactSlices`): the vocabulary numbers in `Postings.compactId` are the last one's. */
  private compactCopies = 0;

  constructor(parameters: Bm25Parameters = defaultBm25Parameters, expansion: Readonly<QueryExpansionOptions> | false = defaultQueryExpansion) {
    if (!Number.isFinite(parameters.k1) || parameters.k1 < 0) throw new RangeError('BM25 k1 must be a non-negative number');
    if (!Number.isFinite(parameters.b) || parameters.b < 0 || parameters.b > 1) throw new RangeError('BM25 b must be between 0 and 1');
    const proximityWeight = parameters.proximityWeight ?? 0;
    const questionProximityWeight = parameters.questionProximityWeight ?? proximityWeight;
    for (const weight of [proximityWeight, questionProximityWeight]) {
      if (!Number.isFinite(weight) || weight < 0) throw new RangeError('BM25 proximity weights must be non-negative numbers');
    }
    if (expansion && !(expansion.originalQueryWeight > 0 && expansion.originalQueryWeight <= 1)) {
      throw new RangeError('originalQueryWeight must be in (0, 1]');
    }
    const questionWeight = expansion ? expansion.questionOriginalWeight : undefined;
    if (questionWeight !== undefined && !(questionWeight > 0 && questionWeight <= 1)) throw new RangeError('questionOriginalWeight must be in (0, 1]');
    this.k1 = parameters.k1;
    this.b = parameters.b;
    this.proximityWeight = proximityWeight;
    this.questionProximityWeight = questionProximityWeight;
    this.expansion = expansion;
  }

  /**
   * An index holding the chunks of `compact`, built in one pass: each term's posting arrays are filled in slot
   * order, and the chunks' terms stay in the flat arrays given (not copied) until a chunk is replaced or removed.
   * It searches exactly like an index the same chunks were added to one by one. Chunk ids must be distinct.
   */
  static fromCompact(compact: CompactIndex, parameters?: Bm25Parameters, expansion?: Readonly<QueryExpansionOptions> | false): Bm25Index {
    const index = new Bm25Index(parameters, expansion);
    index.loadCompact(compact);
    return index;
  }

  /** Number of chunks in the index. */
  get size(): number {
    return this.slots.size;
  }

  /** Mean chunk length in tokens (0 for an empty index). */
  get averageLength(): number {
    return this.slots.size === 0 ? 0 : this.totalLength / this.slots.size;
  }

  has(chunkId: number): boolean {
    return this.slots.has(chunkId);
  }

  /** The ids of the chunks in the index. */
  chunkIdList(): number[] {
    return [...this.slots.keys()];
  }

  private loadCompact(compact: CompactIndex): void {
    const { vocabulary, chunkIds, articleIds, lengths, termOffsets, termIds, termFrequencies, pairOffsets, pairs } = compact;
    const count = chunkIds.length;
    const corrupt = (what: string) => new RangeError(`Compact index: ${what}`);
    if (articleIds.length !== count || lengths.length !== count || termOffsets.length !== count + 1 || pairOffsets.length !== count + 1) throw corrupt('per-chunk arrays differ in length');
    if (termOffsets[0] !== 0 || termOffsets[count] !== termIds.length || termFrequencies.length !== termIds.length) throw corrupt('term offsets');
    if (pairOffsets[0] !== 0 || pairOffsets[count] !== pairs.length) throw corrupt('pair offsets');
    const vocabularySize = vocabulary.length;
    const documentFrequencies = new Int32Array(vocabularySize);
    for (let position = 0; position < termIds.length; position += 1) {
      const id = termIds[position] as number;
      if (!(id >= 0 && id < vocabularySize)) throw corrupt('term id out of range');
      if (!((termFrequencies[position] as number) > 0)) throw corrupt('term frequency not positive');
      documentFrequencies[id] += 1;
    }
    const terms: (Postings | undefined)[] = new Array(vocabularySize);
    for (let id = 0; id < vocabularySize; id += 1) {
      const documentFrequency = documentFrequencies[id] as number;
      const term = vocabulary[id] as string;
      if (documentFrequency === 0) continue;
      if (this.postings.has(term)) throw corrupt(`term ${JSON.stringify(term)} appears twice`);
      const postings = newPostings(term, new Int32Array(documentFrequency), new Float32Array(documentFrequency));
      terms[id] = postings;
      this.postings.set(term, postings);
    }
    // Filled in slot order, so every posting list comes out sorted.
    const filled = new Int32Array(vocabularySize);
    let totalLength = 0;
    this.ensureSlotCapacity(count);
    for (let slot = 0; slot < count; slot += 1) {
      const chunkId = chunkIds[slot] as number;
      const length = lengths[slot] as number;
      if (!Number.isFinite(length) || length < 0) throw new RangeError(`Chunk ${chunkId} has an invalid length`);
      if (this.slots.has(chunkId)) throw corrupt(`chunk ${chunkId} appears twice`);
      const start = termOffsets[slot] as number;
      const end = termOffsets[slot + 1] as number;
      if (!(end >= start) || !((pairOffsets[slot + 1] as number) >= (pairOffsets[slot] as number))) throw corrupt('offsets decrease');
      this.slots.set(chunkId, slot);
      totalLength += length;
      for (let position = start; position < end; position += 1) {
        const id = termIds[position] as number;
        const arrays = (terms[id] as Postings).arrays;
        const at = filled[id] as number;
        if (at > 0 && arrays.slots[at - 1] === slot) throw corrupt(`chunk ${chunkId} holds a term twice`);
        arrays.slots[at] = slot;
        arrays.frequencies[at] = termFrequencies[position] as number;
        filled[id] = at + 1;
      }
    }
    this.chunkIds.set(chunkIds);
    this.articleIds.set(articleIds);
    this.lengths.set(lengths);
    this.slotCount = count;
    this.totalLength = totalLength;
    this.bulk = { count, termOffsets, termIds, termFrequencies, pairOffsets, pairs, terms };
    this.statisticsVersion += 1;
  }

  /** The index's chunks as flat arrays (in slot order), for `fromCompact` in this or another process. */
  toCompact(): CompactIndex {
    const slices = this.compactSlices(Number.POSITIVE_INFINITY);
    for (;;) {
      const step = slices.next();
      if (step.done) return step.value;
    }
  }

  /**
   * What `toCompact` returns, as the index is at this call, built a slice of about `entriesPerSlice` terms and
   * pairs per `next()`: the caller may let other work run between slices, and the index may change meanwhile.
   * This call copies what a change overwrites (the per-slot arrays and the map of changed chunks, not their
   * terms, which a change replaces rather than edits) and numbers the vocabulary; a later copy renumbers it, so
   * the earlier one then throws rather than mislabel terms.
   */
  compactSlices(entriesPerSlice: number): Generator<void, CompactIndex, void> {
    const vocabulary: string[] = [];
    for (const postings of this.postings.values()) {
      postings.compactId = vocabulary.length;
      vocabulary.push(postings.term);
    }
    this.compactCopies += 1;
    return this.fillCompact(entriesPerSlice, this.compactCopies, {
      vocabulary,
      count: this.slots.size,
      slotCount: this.slotCount,
      chunkIds: this.chunkIds.slice(0, this.slotCount),
      articleIds: this.articleIds.slice(0, this.slotCount),
      lengths: this.lengths.slice(0, this.slotCount),
      changed: new Map(this.changed),
      bulk: this.bulk,
    });
  }

  private *fillCompact(entriesPerSlice: number, copy: number, frozen: FrozenChunks): Generator<void, CompactIndex, void> {
    const target = new CompactCopy(frozen);
    // Between slices: the vocabulary's numbers must still be this copy's.
    const resume = () => {
      if (this.compactCopies !== copy) throw new Error('Another compact copy of the index renumbered its vocabulary');
    };
    for (let slot = 0; slot < frozen.slotCount; ) {
      slot = target.count(slot, entriesPerSlice);
      yield;
      resume();
    }
    target.allocate();
    for (let slot = 0; slot < frozen.slotCount; ) {
      yield;
      resume();
      slot = target.fill(slot, entriesPerSlice);
    }
    return target.result();
  }

  /** Adds a chunk; a chunk with the same chunkId is replaced. */
  add(chunk: IndexedChunk): void {
    if (!Number.isFinite(chunk.length) || chunk.length < 0) throw new RangeError(`Chunk ${chunk.chunkId} has an invalid length`);
    if (this.slots.has(chunk.chunkId)) this.remove(chunk.chunkId);
    const slot = this.freeSlots.pop() ?? this.slotCount;
    const chunkPostings: Postings[] = [];
    const chunkFrequencies: number[] = [];
    const pairHashes: number[] = [];
    forEachChunkTerm(chunk.terms, pairHashes, (term, frequency) => {
      let postings = this.postings.get(term);
      if (postings === undefined) {
        postings = newPostings(term);
        this.postings.set(term, postings);
      }
      (postings.pending ??= new Map()).set(slot, frequency);
      postings.count += 1;
      chunkPostings.push(postings);
      chunkFrequencies.push(frequency);
    });
    if (slot === this.slotCount) this.slotCount += 1;
    this.ensureSlotCapacity(slot + 1);
    this.changed.set(slot, { postings: chunkPostings, frequencies: Float32Array.from(chunkFrequencies), pairs: distinctSorted(pairHashes) });
    this.chunkIds[slot] = chunk.chunkId;
    this.articleIds[slot] = chunk.articleId;
    this.lengths[slot] = chunk.length;
    this.slots.set(chunk.chunkId, slot);
    this.totalLength += chunk.length;
    this.statisticsVersion += 1;
  }

  /** Removes a chunk; unknown ids are ignored. */
  remove(chunkId: number): void {
    const slot = this.slots.get(chunkId);
    if (slot === undefined) return;
    const removeFrom = (postings: Postings) => {
      (postings.pending ??= new Map()).set(slot, 0);
      postings.count -= 1;
      if (postings.count === 0) this.postings.delete(postings.term);
    };
    const changed = this.changed.get(slot);
    if (changed) {
      for (const postings of changed.postings) removeFrom(postings);
      this.changed.delete(slot);
    } else {
      const bulk = this.bulk as BulkChunks;
      for (let position = bulk.termOffsets[slot] as number; position < (bulk.termOffsets[slot + 1] as number); position += 1) removeFrom(bulk.terms[bulk.termIds[position] as number] as Postings);
    }
    // Every posting list that named this slot now has a pending removal for it, so the slot can be reused.
    this.chunkIds[slot] = Number.NaN;
    this.freeSlots.push(slot);
    this.slots.delete(chunkId);
    this.totalLength -= this.lengths[slot] as number;
    this.statisticsVersion += 1;
  }

  /**
   * Builds every term's posting arrays now rather than on the first search that needs them: after loading a
   * large index, the first questions would otherwise each pay for dozens of terms.
   */
  prepare(): void {
    for (const postings of this.postings.values()) this.arraysOf(postings);
  }

  /** Number of chunks containing the term. */
  documentFrequency(term: string): number {
    return this.postings.get(term)?.count ?? 0;
  }

  /**
   * The indexed term an unknown `term` most likely misspells (spelling.ts), or undefined: for a term some chunk has,
   * for one that cannot be a typo, and when no indexed term is close. Answers are kept until the index changes.
   */
  correction(term: string): string | undefined {
    if (this.documentFrequency(term) > 0 || !isCorrectable(term) || isPairTerm(term)) return undefined;
    if (this.correctionsVersion !== this.statisticsVersion || this.corrections.size >= MAX_KEPT_CORRECTIONS) {
      this.corrections.clear();
      this.correctionsVersion = this.statisticsVersion;
    }
    const kept = this.corrections.get(term);
    if (kept !== undefined) return kept ?? undefined;
    const postings = this.postings;
    const found = closestIndexedTerm(
      term,
      (function* () {
        for (const [candidate, entry] of postings) if (entry.count > 0 && !isPairTerm(candidate)) yield [candidate, entry.count] as [string, number];
      })(),
    );
    this.corrections.set(term, found ?? null);
    return found;
  }

  /** Non-negative BM25 idf: ln(1 + (N − df + 0.5) / (df + 0.5)). */
  idf(term: string): number {
    return this.idfOf(this.documentFrequency(term));
  }

  /**
   * Returns the `limit` best chunks for a query, by score descending then chunkId ascending: a `Query` from
   * `parseQuery`, or the terms (stems, as produced by `tokenize`, in text order) of a text that is not read as a
   * question. Repeated query terms count once. Only postings of the query (and expansion) terms are visited.
   */
  search(query: string[] | Query, limit: number): ScoredChunk[] {
    if (!(limit >= 1) || this.slots.size === 0) return [];
    const parsed = Array.isArray(query) ? queryOfTerms(query) : query;
    const question: WeightedTerm[] = [];
    for (const [term, weight] of parsed.terms) {
      const postings = this.postings.get(term);
      if (postings !== undefined && weight > 0) question.push({ postings, weight });
    }
    if (question.length === 0) return [];
    const expansion = this.expansion;
    const originalWeight = expansion ? (parsed.isQuestion ? (expansion.questionOriginalWeight ?? expansion.originalQueryWeight) : expansion.originalQueryWeight) : 1;
    const expanded =
      expansion && originalWeight < 1 && this.slots.size >= expansion.minimumIndexSize ? this.expandQuery(question, { ...expansion, originalQueryWeight: originalWeight }) : question;

    return this.rank(expanded, Math.floor(limit), this.pairBonuses(parsed, question)).map(({ slot, chunkId, score }) => {
      const matchedTerms = question.filter(({ postings }) => this.holds(postings, slot)).map(({ postings }) => postings.term);
      return { chunkId, articleId: this.articleIds[slot] as number, score, matchedTerms };
    });
  }

  /** Whether the chunk in `slot` has the term. */
  private holds(postings: Postings, slot: number): boolean {
    const pending = postings.pending?.get(slot);
    if (pending !== undefined) return pending > 0;
    const { slots } = postings.arrays;
    const position = seekSlot(slots, 0, slot);
    return slots[position] === slot;
  }

  /** The query's adjacent pairs whose two words are both indexed, with what each adds (none without proximity). */
  private pairBonuses(query: { pairs: readonly string[]; isQuestion: boolean }, question: WeightedTerm[]): PairBonus[] {
    const proximityWeight = query.isQuestion ? this.questionProximityWeight : this.proximityWeight;
    if (proximityWeight <= 0 || query.pairs.length === 0) return [];
    const weights = new Map(question.map(({ postings, weight }) => [postings.term, weight * this.idfOf(postings.count)]));
    const bonuses: PairBonus[] = [];
    for (const pair of query.pairs) {
      const space = pair.indexOf(' ');
      const first = weights.get(pair.slice(0, space));
      const second = weights.get(pair.slice(space + 1));
      if (first === undefined || second === undefined) continue;
      const weight = proximityWeight * Math.min(first, second);
      if (weight > 0) bonuses.push({ first: pair.slice(0, space), second: pair.slice(space + 1), hash: hashPair(pair), weight });
    }
    return bonuses;
  }

  /** The weight a term that `documentFrequency` chunks have gets (its idf): for a phrase the index does not hold. */
  idfForCount(documentFrequency: number): number {
    return this.idfOf(documentFrequency);
  }

  private idfOf(documentFrequency: number): number {
    return Math.log(1 + (this.slots.size - documentFrequency + 0.5) / (documentFrequency + 0.5));
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
    this.chunkIds = grow(this.chunkIds);
    this.articleIds = grow(this.articleIds);
    this.scores = grow(this.scores);
    this.pairScores = grow(this.pairScores);
    this.wordMasks = new Int32Array(capacity);
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
    const accumulate = (postings: Postings, frequency: number, chunkWeight: number) => {
      if (postings.feedbackEpoch !== epoch) {
        postings.feedbackEpoch = epoch;
        postings.feedbackWeight = 0;
        seen.push(postings);
      }
      postings.feedbackWeight += frequency * chunkWeight;
    };
    for (const { slot, score } of feedback) {
      const length = this.lengths[slot] as number;
      if (length <= 0) continue;
      const chunkWeight = Math.exp(score - bestScore) / length;
      const changed = this.changed.get(slot);
      if (changed) {
        for (let position = 0; position < changed.postings.length; position += 1) accumulate(changed.postings[position] as Postings, changed.frequencies[position] as number, chunkWeight);
      } else {
        const { termOffsets, termIds, termFrequencies, terms } = this.bulk as BulkChunks;
        for (let position = termOffsets[slot] as number; position < (termOffsets[slot + 1] as number); position += 1) {
          accumulate(terms[termIds[position] as number] as Postings, termFrequencies[position] as number, chunkWeight);
        }
      }
    }
    const chosen = selectExpansionTerms(seen, options.expansionTerms);
    let total = 0;
    for (const postings of chosen) total += postings.feedbackWeight;
    if (!(total > 0)) return question;
    const scale = (question.length * (1 - options.originalQueryWeight)) / options.originalQueryWeight / total;
    const weights = new Map<Postings, number>(question.map(({ postings, weight }) => [postings, weight]));
    for (const postings of chosen) weights.set(postings, (weights.get(postings) ?? 0) + postings.feedbackWeight * scale);
    return [...weights].map(([postings, weight]) => ({ postings, weight }));
  }

  /** The term's posting arrays, with impacts for the current corpus statistics. */
  private arraysOf(postings: Postings): PostingArrays {
    if (postings.pending !== undefined) this.mergePending(postings);
    const arrays = postings.arrays;
    if (arrays.impactsVersion !== this.statisticsVersion) this.computeImpacts(arrays);
    return arrays;
  }

  /** Rebuilds the term's arrays with its pending changes: one merge of two lists sorted by slot. */
  private mergePending(postings: Postings): void {
    const pending = postings.pending as Map<number, number>;
    postings.pending = undefined;
    const changes = Int32Array.from(pending.keys()).sort();
    const { slots: oldSlots, frequencies: oldFrequencies } = postings.arrays;
    const slots = new Int32Array(postings.count);
    const frequencies = new Float32Array(postings.count);
    let kept = 0;
    let old = 0;
    let change = 0;
    while (old < oldSlots.length || change < changes.length) {
      const oldSlot = old < oldSlots.length ? (oldSlots[old] as number) : Infinity;
      const changedSlot = change < changes.length ? (changes[change] as number) : Infinity;
      if (oldSlot < changedSlot) {
        slots[kept] = oldSlot;
        frequencies[kept] = oldFrequencies[old] as number;
        kept += 1;
        old += 1;
        continue;
      }
      if (oldSlot === changedSlot) old += 1;
      const frequency = pending.get(changedSlot) as number;
      if (frequency > 0) {
        slots[kept] = changedSlot;
        frequencies[kept] = frequency;
        kept += 1;
      }
      change += 1;
    }
    if (kept !== postings.count) throw new Error(`Postings of ${JSON.stringify(postings.term)} lost count: ${kept} ≠ ${postings.count}`);
    postings.arrays = { slots, frequencies, impacts: NO_IMPACTS, impactsVersion: -1, maxImpact: 0 };
  }

  private computeImpacts(arrays: PostingArrays): void {
    const averageLength = this.averageLength;
    const base = this.k1 * (1 - this.b);
    const perLength = averageLength > 0 ? (this.k1 * this.b) / averageLength : 0;
    if (arrays.impacts.length !== arrays.slots.length) arrays.impacts = new Float64Array(arrays.slots.length);
    const { slots, frequencies, impacts } = arrays;
    const lengths = this.lengths;
    let maxImpact = 0;
    for (let index = 0; index < slots.length; index += 1) {
      const frequency = frequencies[index] as number;
      const impact = frequency / (frequency + base + perLength * (lengths[slots[index] as number] as number));
      impacts[index] = impact;
      if (impact > maxImpact) maxImpact = impact;
    }
    arrays.maxImpact = maxImpact;
    arrays.impactsVersion = this.statisticsVersion;
  }

  /**
   * The best `limit` chunks for weighted terms and pair bonuses, best first. Pairs have no postings: they are
   * looked up in the candidates once the first phase is over, and their sum is added to the terms' sum last, so
   * that every path adds in the same order. That is exact: a chunk has a pair only if it has both of its words,
   * so once the list of either word has been scanned, a chunk not seen yet cannot have the pair.
   */
  private rank(query: WeightedTerm[], limit: number, pairs: PairBonus[] = []): RankedSlot[] {
    const lists: WeightedList[] = [];
    let remainingBound = 0;
    for (const { postings, weight: queryWeight } of query) {
      if (!(queryWeight > 0)) continue;
      const arrays = this.arraysOf(postings);
      const weight = queryWeight * this.idfOf(postings.count) * (this.k1 + 1);
      const upperBound = weight * arrays.maxImpact;
      lists.push({ term: postings.term, slots: arrays.slots, impacts: arrays.impacts, weight, upperBound, bit: 0 });
      remainingBound += upperBound;
    }
    // Terms that can add the most come first, so that the k-th best score rises early.
    lists.sort((a, b) => b.upperBound - a.upperBound || (a.term < b.term ? -1 : 1));
    // A chunk not seen yet may get a pair only while neither of its words' lists is scanned. Pair words get a bit
    // each (31 at most; the others are always looked up), set in a chunk's mask when their list reaches it.
    const pairsLeavingAfter = new Float64Array(lists.length);
    const pairMasks: { first: number; second: number }[] = [];
    let unseenBound = remainingBound;
    if (pairs.length > 0) {
      const byTerm = new Map(lists.map((list, index) => [list.term, index]));
      let nextBit = 1;
      const bitOf = (term: string) => {
        const list = lists[byTerm.get(term) ?? -1];
        if (list === undefined) return 0;
        if (list.bit === 0 && nextBit !== 0) {
          list.bit = nextBit;
          nextBit = nextBit === 0x40000000 ? 0 : nextBit << 1;
        }
        return list.bit;
      };
      for (const pair of pairs) {
        const leaves = Math.min(byTerm.get(pair.first) ?? 0, byTerm.get(pair.second) ?? 0);
        pairsLeavingAfter[leaves] = (pairsLeavingAfter[leaves] as number) + pair.weight;
        unseenBound += pair.weight;
        pairMasks.push({ first: bitOf(pair.first), second: bitOf(pair.second) });
      }
    }

    const scores = this.scores;
    const epochs = this.epochs;
    const epoch = ++this.searchEpoch;
    // Slots with a score in this pass, each once.
    let candidates = this.touched;
    let count = 0;
    let next = 0;
    let checkBelow = Infinity;
    const sampleSize = Math.max(limit * SAMPLE_FACTOR, MIN_SAMPLE);
    let sampledThreshold = -Infinity;
    const masks = this.wordMasks;
    let scannedBits = 0;
    while (next < lists.length) {
      const { slots, impacts, weight, upperBound, bit } = lists[next] as WeightedList;
      remainingBound -= upperBound;
      unseenBound -= upperBound + (pairsLeavingAfter[next] as number);
      next += 1;
      if (pairs.length === 0) {
        for (let position = 0; position < slots.length; position += 1) {
          const slot = slots[position] as number;
          const contribution = weight * (impacts[position] as number);
          if (epochs[slot] === epoch) {
            scores[slot] += contribution;
          } else {
            epochs[slot] = epoch;
            scores[slot] = contribution;
            candidates[count] = slot;
            count += 1;
          }
        }
      } else {
        // The same, also recording which pair words each chunk has.
        scannedBits |= bit;
        for (let position = 0; position < slots.length; position += 1) {
          const slot = slots[position] as number;
          const contribution = weight * (impacts[position] as number);
          if (epochs[slot] === epoch) {
            scores[slot] += contribution;
            masks[slot] |= bit;
          } else {
            epochs[slot] = epoch;
            scores[slot] = contribution;
            masks[slot] = bit;
            candidates[count] = slot;
            count += 1;
          }
        }
      }
      // Strictly greater: a chunk not yet seen scores at most unseenBound, so it can neither pass nor tie.
      if (next < lists.length && count >= limit && unseenBound <= checkBelow) {
        sampledThreshold = kthBestScore(candidates, Math.min(count, sampleSize), scores, limit, this.selection);
        if (sampledThreshold > unseenBound) break;
        checkBelow = unseenBound * THRESHOLD_RECHECK_FACTOR;
      }
    }
    if (next === lists.length && pairs.length === 0) return this.selectBest(candidates, count, limit);

    // From here on only chunks already seen can reach the top: score them, dropping those that cannot make it.
    candidates = candidates.slice(0, count);
    const filter = (threshold: number, bound: number, pairScores?: Float64Array) => {
      let kept = 0;
      for (let position = 0; position < count; position += 1) {
        const slot = candidates[position] as number;
        if ((scores[slot] as number) + (pairScores ? (pairScores[slot] as number) : 0) + bound >= threshold) {
          candidates[kept] = slot;
          kept += 1;
        }
      }
      count = kept;
    };
    let pairScores: Float64Array | undefined;
    if (pairs.length > 0) {
      // Each candidate's pairs, looked up only where the mask does not rule the pair out, and only for candidates
      // that could still reach the top with every pair they may have.
      const threshold = sampledThreshold === -Infinity && count > limit ? kthBestScore(candidates, count, scores, limit, this.selection) : sampledThreshold;
      pairScores = this.pairScores;
      let kept = 0;
      for (let position = 0; position < count; position += 1) {
        const slot = candidates[position] as number;
        const absent = scannedBits & ~(masks[slot] as number);
        let possible = 0;
        for (let index = 0; index < pairs.length; index += 1) {
          const { first, second } = pairMasks[index] as { first: number; second: number };
          if ((absent & first) === 0 && (absent & second) === 0) possible += (pairs[index] as PairBonus).weight;
        }
        if ((scores[slot] as number) + possible + remainingBound < threshold) continue;
        let sum = 0;
        if (possible > 0) {
          const changed = this.changed.get(slot);
          const bulk = this.bulk as BulkChunks;
          const chunkPairs = changed ? changed.pairs : bulk.pairs;
          const low = changed ? 0 : (bulk.pairOffsets[slot] as number);
          const high = changed ? chunkPairs.length : (bulk.pairOffsets[slot + 1] as number);
          for (let index = 0; index < pairs.length; index += 1) {
            const { first, second } = pairMasks[index] as { first: number; second: number };
            if ((absent & first) !== 0 || (absent & second) !== 0) continue;
            const { hash, weight } = pairs[index] as PairBonus;
            if (hasPair(chunkPairs, hash, low, high)) sum += weight;
          }
        }
        pairScores[slot] = sum;
        candidates[kept] = slot;
        kept += 1;
      }
      count = kept;
      sampledThreshold = kthBestScore(candidates, count, scores, limit, this.selection, pairScores);
    }

    let filterBelow = Infinity;
    let isSorted = false;
    while (next < lists.length) {
      if (remainingBound <= filterBelow) {
        // The first filter reuses the lower bound that stopped the first phase; later ones compute the exact one.
        filter(filterBelow === Infinity ? sampledThreshold : kthBestScore(candidates, count, scores, limit, this.selection, pairScores), remainingBound, pairScores);
        filterBelow = remainingBound * THRESHOLD_RECHECK_FACTOR;
      }
      const { slots, impacts, weight, upperBound } = lists[next] as WeightedList;
      next += 1;
      remainingBound -= upperBound;
      if (slots.length <= count * GALLOP_RATIO) {
        // A short list is cheaper to scan than to search. Chunks dropped by a filter still carry this epoch and
        // gain score too, which is harmless: they are no longer candidates.
        for (let position = 0; position < slots.length; position += 1) {
          const slot = slots[position] as number;
          if (epochs[slot] === epoch) scores[slot] += weight * (impacts[position] as number);
        }
        continue;
      }
      if (!isSorted) {
        // Ascending slots, for the galloping lookups; filtering keeps the order.
        candidates.subarray(0, count).sort();
        isSorted = true;
      }
      let position = 0;
      for (let index = 0; index < count && position < slots.length; index += 1) {
        const slot = candidates[index] as number;
        position = seekSlot(slots, position, slot);
        if (slots[position] === slot) scores[slot] += weight * (impacts[position] as number);
      }
    }
    if (pairScores) for (let position = 0; position < count; position += 1) scores[candidates[position] as number] += pairScores[candidates[position] as number] as number;
    return this.selectBest(candidates, count, limit);
  }

  /** The best `limit` of the first `count` candidate slots, best first: one pass keeping the best so far in a min-heap. */
  private selectBest(candidates: Int32Array, count: number, limit: number): RankedSlot[] {
    const scores = this.scores;
    // heap[0] is the worst of the best so far.
    const heap: RankedSlot[] = [];
    for (let position = 0; position < count; position += 1) {
      const slot = candidates[position] as number;
      const score = scores[slot] as number;
      if (heap.length === limit) {
        const worst = heap[0] as RankedSlot;
        if (score < worst.score) continue;
        const chunkId = this.chunkIds[slot] as number;
        if (score === worst.score && chunkId > worst.chunkId) continue;
        heap[0] = { slot, chunkId, score };
        siftDown(heap, 0);
      } else {
        heap.push({ slot, chunkId: this.chunkIds[slot] as number, score });
        siftUp(heap, heap.length - 1);
      }
    }
    return heap.sort(compareRanked);
  }
}
