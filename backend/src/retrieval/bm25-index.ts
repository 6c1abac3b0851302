import { isPairTerm, pairTerm, type Query } from './query';
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

interface StoredChunk {
  chunkId: number;
  articleId: number;
  length: number;
  /** Position of the chunk in the index's per-chunk arrays (scores, lengths). */
  slot: number;
  /** The postings of each of the chunk's terms, and the term frequencies in the same order. */
  postings: Postings[];
  frequencies: Float32Array;
  /** Hashes (`hashPair`) of the chunk's adjacent word pairs, ascending and distinct. */
  pairs: Uint32Array;
}

/**
 * The postings of a term as arrays sorted by slot, rebuilt lazily after the term's postings change: scanning
 * typed arrays is several times faster than iterating a Map, and the bound lets a search skip what cannot
 * reach the top.
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

/** Whether the ascending `pairs` holds `hash` (binary search). */
function hasPair(pairs: Uint32Array, hash: number): boolean {
  let low = 0;
  let high = pairs.length;
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

/** The query of a bare term list: each distinct term weighs 1, consecutive terms are pairs, and it is not a question. */
function queryOfTerms(queryTerms: string[]): Pick<Query, 'terms' | 'pairs' | 'isQuestion'> {
  const terms = new Map<string, number>();
  for (const term of queryTerms) terms.set(term, 1);
  const pairs = new Set<string>();
  for (let position = 1; position < queryTerms.length; position += 1) pairs.add(pairTerm(queryTerms[position - 1] as string, queryTerms[position] as string));
  return { terms, pairs: [...pairs], isQuestion: false };
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
  private readonly chunks = new Map<number, StoredChunk>();
  private totalLength = 0;
  /** Changes whenever N or the total length does, which invalidates every posting list's impacts. */
  private statisticsVersion = 0;
  /** Per-slot arrays: the chunk, its length, and the search accumulators (valid when epochs[slot] is the current epoch). */
  private slotChunks: (StoredChunk | undefined)[] = [];
  private lengths = new Float64Array(1024);
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
    const pairHashes: number[] = [];
    const frequencies = chunk.terms;
    for (const term in frequencies) {
      if (!Object.hasOwn(frequencies, term)) continue;
      const frequency = frequencies[term] as number;
      if (!(frequency > 0) || !Number.isFinite(frequency)) continue;
      if (isPairTerm(term)) {
        pairHashes.push(hashPair(term));
        continue;
      }
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
      pairs: distinctSorted(pairHashes),
    };
    this.slotChunks[slot] = stored;
    this.lengths[slot] = chunk.length;
    this.chunks.set(chunk.chunkId, stored);
    this.totalLength += chunk.length;
    this.statisticsVersion += 1;
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
    return this.postings.get(term)?.byChunk.size ?? 0;
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
    if (!(limit >= 1) || this.chunks.size === 0) return [];
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
      expansion && originalWeight < 1 && this.chunks.size >= expansion.minimumIndexSize ? this.expandQuery(question, { ...expansion, originalQueryWeight: originalWeight }) : question;

    return this.rank(expanded, Math.floor(limit), this.pairBonuses(parsed, question)).map(({ slot, score }) => {
      const chunk = this.slotChunks[slot] as StoredChunk;
      const matchedTerms = question.filter(({ postings }) => postings.byChunk.has(chunk.chunkId)).map(({ postings }) => postings.term);
      return { chunkId: chunk.chunkId, articleId: chunk.articleId, score, matchedTerms };
    });
  }

  /** The query's adjacent pairs whose two words are both indexed, with what each adds (none without proximity). */
  private pairBonuses(query: { pairs: readonly string[]; isQuestion: boolean }, question: WeightedTerm[]): PairBonus[] {
    const proximityWeight = query.isQuestion ? this.questionProximityWeight : this.proximityWeight;
    if (proximityWeight <= 0 || query.pairs.length === 0) return [];
    const weights = new Map(question.map(({ postings, weight }) => [postings.term, weight * this.idfOf(postings.byChunk.size)]));
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
    const arrays = postings.arrays ?? (postings.arrays = this.buildArrays(postings));
    if (arrays.impactsVersion !== this.statisticsVersion) this.computeImpacts(arrays);
    return arrays;
  }

  private buildArrays(postings: Postings): PostingArrays {
    const size = postings.byChunk.size;
    const slots = new Int32Array(size);
    let position = 0;
    for (const chunkId of postings.byChunk.keys()) {
      slots[position] = (this.chunks.get(chunkId) as StoredChunk).slot;
      position += 1;
    }
    // Sorted by slot so that a candidate's impact can be found by galloping search.
    slots.sort();
    const frequencies = new Float32Array(size);
    for (let index = 0; index < size; index += 1) {
      const chunk = this.slotChunks[slots[index] as number] as StoredChunk;
      frequencies[index] = postings.byChunk.get(chunk.chunkId) as number;
    }
    return { slots, frequencies, impacts: new Float64Array(size), impactsVersion: -1, maxImpact: 0 };
  }

  private computeImpacts(arrays: PostingArrays): void {
    const averageLength = this.averageLength;
    const base = this.k1 * (1 - this.b);
    const perLength = averageLength > 0 ? (this.k1 * this.b) / averageLength : 0;
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
      const weight = queryWeight * this.idfOf(postings.byChunk.size) * (this.k1 + 1);
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
          const chunkPairs = (this.slotChunks[slot] as StoredChunk).pairs;
          for (let index = 0; index < pairs.length; index += 1) {
            const { first, second } = pairMasks[index] as { first: number; second: number };
            if ((absent & first) !== 0 || (absent & second) !== 0) continue;
            const { hash, weight } = pairs[index] as PairBonus;
            if (hasPair(chunkPairs, hash)) sum += weight;
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
        const chunkId = (this.slotChunks[slot] as StoredChunk).chunkId;
        if (score === worst.score && chunkId > worst.chunkId) continue;
        heap[0] = { slot, chunkId, score };
        siftDown(heap, 0);
      } else {
        heap.push({ slot, chunkId: (this.slotChunks[slot] as StoredChunk).chunkId, score });
        siftUp(heap, heap.length - 1);
      }
    }
    return heap.sort(compareRanked);
  }
}
