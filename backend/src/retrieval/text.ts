import { stemmer } from 'stemmer';
import { englishStopwords } from './stopwords';

/** Tokens longer than this are dropped (hashes, base64 blobs, glued URLs). */
const MAX_TOKEN_LENGTH = 40;

/** Combining marks left over after canonical/compatibility decomposition. */
const COMBINING_MARKS = /\p{M}+/gu;

const TOKEN_PATTERN = /[a-z0-9]+/g;

/**
 * Greek letters spelled out, as writers without them do ("TNF-α" and "TNF-alpha", "NF-κB" and "NF-kappaB").
 * Otherwise [a-z0-9] drops them and "IFN-γ" would match every "IFN".
 */
const GREEK_LETTER_NAMES: Readonly<Record<string, string>> = {
  α: 'alpha', β: 'beta', γ: 'gamma', δ: 'delta', ε: 'epsilon', ζ: 'zeta', η: 'eta', θ: 'theta',
  ι: 'iota', κ: 'kappa', λ: 'lambda', μ: 'mu', ν: 'nu', ξ: 'xi', ο: 'omicron', π: 'pi', ρ: 'rho',
  ς: 'sigma', σ: 'sigma', τ: 'tau', υ: 'upsilon', φ: 'phi', χ: 'chi', ψ: 'psi', ω: 'omega',
};
const GREEK_LETTER = /[\u03b1-\u03c9]/g;

function spellGreekLetters(text: string): string {
  return text.replace(GREEK_LETTER, (letter) => GREEK_LETTER_NAMES[letter] ?? letter);
}

/**
 * Porter stemming is regex heavy; vocabularies are small compared with the
 * number of tokens, so the terms of each token are memoised. The cache is
 * cleared when it grows too large so that memory stays bounded on adversarial input.
 */
const TERM_CACHE_LIMIT = 100_000;
const termCache = new Map<string, readonly string[]>();

/** A doubled final consonant other than l, s or z ("add", "stiff"). */
const DOUBLED_FINAL_CONSONANT = /([bcdfghjkmnpqrtvwx])\1$/;

/**
 * Porter stems with one consistency fix. Porter undoubles a final consonant only
 * after removing -ed/-ing ("adding" → "ad", "stiffed" → "stif") but leaves the
 * bare word alone ("add", "stiff"), so a word and its inflections would not
 * meet. Undoubling every such final consonant makes them share one stem.
 */
function porterStem(token: string): string {
  const stemmed = stemmer(token);
  return stemmed.length >= 3 && DOUBLED_FINAL_CONSONANT.test(stemmed) ? stemmed.slice(0, -1) : stemmed;
}

/** A letter next to a digit: "il6", "apoe4", "covid19", "5ht". */
const LETTER_DIGIT_BOUNDARY = /[a-z][0-9]|[0-9][a-z]/;
const LETTER_OR_DIGIT_RUN = /[a-z]+|[0-9]+/g;

/**
 * The terms of one token: its stem, and for a token mixing letters and digits also its letter and digit runs
 * of two or more characters ("il6" → il6, il; "cd40" → cd40, cd, 40). Writers vary between "IL-6" and "IL6",
 * "CD40" and "CD 40"; the runs let each spelling meet the other. Runs are mostly abbreviations, not words, so
 * they are not stemmed. Chosen on the SciFact train split (bench/README.md): runs of one character ("v2") or stemmed
 * runs do no better there.
 */
function termsOfUncached(token: string): readonly string[] {
  const stemmed = porterStem(token);
  if (!LETTER_DIGIT_BOUNDARY.test(token)) return [stemmed];
  const terms = [stemmed];
  for (const run of token.match(LETTER_OR_DIGIT_RUN) ?? []) {
    if (run.length >= 2 && !englishStopwords.has(run)) terms.push(run);
  }
  return terms;
}

function termsOf(token: string): readonly string[] {
  let terms = termCache.get(token);
  if (terms === undefined) {
    terms = termsOfUncached(token);
    if (termCache.size >= TERM_CACHE_LIMIT) termCache.clear();
    termCache.set(token, terms);
  }
  return terms;
}

/**
 * Compatibility-decomposes the text (NFKD), strips combining accents and
 * lowercases it: "Café ﬁle" becomes "cafe file".
 */
export function normalize(text: string): string {
  return text.normalize('NFKD').replace(COMBINING_MARKS, '').toLowerCase();
}

/**
 * Splits text into Porter-stemmed search terms: normalizes, spells out Greek
 * letters, keeps runs of [a-z0-9], drops English stopwords and tokens longer
 * than 40 characters; a token mixing letters and digits is followed by the
 * stems of its letter and digit runs ("IL6" → il6, il).
 * Order is preserved and duplicates are kept.
 */
export function tokenize(text: string): string[] {
  return analyzeWords(text, undefined);
}

/**
 * The search terms of a text (as `tokenize` gives them) and its words: the stem of each word that is not a
 * stopword, one per word and in order, without the letter and digit runs. Adjacent words make the pairs that
 * proximity scoring matches ("Super Bowl" → super bowl).
 */
export function tokenizeWithWords(text: string): { terms: string[]; words: string[] } {
  const words: string[] = [];
  return { terms: analyzeWords(text, words), words };
}

function analyzeWords(text: string, words: string[] | undefined): string[] {
  const tokens: string[] = [];
  const matches = spellGreekLetters(normalize(text)).match(TOKEN_PATTERN);
  if (matches === null) return tokens;
  for (const token of matches) {
    if (token.length > MAX_TOKEN_LENGTH || englishStopwords.has(token)) continue;
    const terms = termsOf(token);
    if (words !== undefined) words.push(terms[0] as string);
    if (terms.length === 1) tokens.push(terms[0] as string);
    else for (const term of terms) tokens.push(term);
  }
  return tokens;
}

/** Counts occurrences of each token, in first-occurrence order. */
export function termFrequencies(tokens: string[]): Map<string, number> {
  const frequencies = new Map<string, number>();
  for (const token of tokens) {
    frequencies.set(token, (frequencies.get(token) ?? 0) + 1);
  }
  return frequencies;
}
