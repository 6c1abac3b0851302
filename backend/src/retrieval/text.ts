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
 * number of tokens, so memoise. The cache is cleared when it grows too large
 * so that memory stays bounded on adversarial input.
 */
const STEM_CACHE_LIMIT = 100_000;
const stemCache = new Map<string, string>();

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

function stem(token: string): string {
  let stemmed = stemCache.get(token);
  if (stemmed === undefined) {
    stemmed = porterStem(token);
    if (stemCache.size >= STEM_CACHE_LIMIT) stemCache.clear();
    stemCache.set(token, stemmed);
  }
  return stemmed;
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
 * than 40 characters.
 * Order is preserved and duplicates are kept.
 */
export function tokenize(text: string): string[] {
  const tokens: string[] = [];
  const matches = spellGreekLetters(normalize(text)).match(TOKEN_PATTERN);
  if (matches === null) return tokens;
  for (const token of matches) {
    if (token.length > MAX_TOKEN_LENGTH || englishStopwords.has(token)) continue;
    tokens.push(stem(token));
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
