/**
 * Typo tolerance for queries: a query word that no chunk has ("publsh", "artcle") is read as the indexed word one
 * edit away (two for long words) that most chunks have. Words are compared as stems, the form the index keeps.
 *
 * Only a word that could be a typo is corrected: at least MIN_LENGTH letters, no digit, not an English word (an
 * English word the knowledge base lacks, "hopeless", is not a typo of "homeless"), not capitalised in the question
 * (an unknown name is a name: "Zorblax" must not become "zebra"), and only into a word at least MIN_FREQUENCY chunks
 * have. See ADR 165.
 */
import { readFileSync } from 'node:fs'
import wordListPath from 'word-list'

/** Shorter stems are not corrected: at one edit, "tap" is too close to too many words. */
export const MIN_LENGTH = 5;
/** From this length a stem may be two edits away. */
export const TWO_EDITS_FROM = 8;
/** A correction must be a word at least this many chunks have: a typo is not corrected into another typo. */
export const MIN_FREQUENCY = 2;

/**
 * The optimal string alignment distance between `a` and `b` (insertions, deletions, substitutions and swaps of
 * adjacent letters), or `limit + 1` as soon as it must exceed `limit`.
 */
export function editDistanceWithin(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  const width = b.length + 1;
  let beforePrevious = new Array<number>(width).fill(0);
  let previous = Array.from({ length: width }, (_, index) => index);
  let current = new Array<number>(width).fill(0);
  for (let i = 1; i <= a.length; i += 1) {
    current[0] = i;
    let rowBest = current[0];
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, beforePrevious[j - 2]! + 1);
      current[j] = value;
      if (value < rowBest) rowBest = value;
    }
    if (rowBest > limit) return limit + 1;
    [beforePrevious, previous, current] = [previous, current, beforePrevious];
  }
  return previous[b.length]!;
}

/** Whether an unknown stem may be corrected at all (length, no digit). */
export function isCorrectable(stem: string): boolean {
  return stem.length >= MIN_LENGTH && !/\d/.test(stem);
}

/**
 * The indexed stem an unknown `stem` most likely misspells: within one edit (two from TWO_EDITS_FROM letters), the
 * closest, and of those the one most chunks have (at least MIN_FREQUENCY), then the alphabetically first. Undefined
 * when none qualifies.
 */
export function closestIndexedTerm(stem: string, vocabulary: Iterable<[string, number]>): string | undefined {
  if (!isCorrectable(stem)) return undefined;
  const limit = stem.length >= TWO_EDITS_FROM ? 2 : 1;
  let best: { term: string; frequency: number; distance: number } | undefined;
  for (const [term, frequency] of vocabulary) {
    if (frequency < MIN_FREQUENCY || Math.abs(term.length - stem.length) > limit) continue;
    const distance = editDistanceWithin(stem, term, limit);
    if (distance > limit) continue;
    if (
      !best ||
      distance < best.distance ||
      (distance === best.distance && (frequency > best.frequency || (frequency === best.frequency && term < best.term)))
    ) {
      best = { term, frequency, distance };
    }
  }
  return best?.term;
}

let englishWords: ReadonlySet<string> | undefined

/**
 * Whether a word (any case) is in the English word list (the `word-list` package, 274,000 words with their
 * inflections), read on first use.
 */
export function isEnglishWord(word: string): boolean {
  englishWords ??= new Set(readFileSync(wordListPath, 'utf8').split('\n'))
  return englishWords.has(word.toLowerCase())
}
