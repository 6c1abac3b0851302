import { analyzeSentences } from './chunker';
import { pairTerm, parseQuery, type AnswerType } from './query';
import { normalize, tokenize, tokenizeWithWords } from './text';

export interface AnswerSource {
  articleId: number;
  title: string;
  text: string;
  /** The passage's retrieval score, when known: a better-ranked passage's sentences are preferred by that much more. */
  score?: number;
}

export interface ExtractiveAnswer {
  /** Chosen sentences in source then sentence order, each followed by "[n]" (1-based source index). */
  text: string;
  /** 0-based indexes into `sources` of the sources cited, ascending. */
  citedSourceIndexes: number[];
  sentences: { text: string; sourceIndex: number }[];
}

export interface ExtractiveAnswerOptions {
  /** Maximum number of sentences in the answer (default 2). */
  maxSentences?: number;
  /** Minimum share of the question's weight the chosen sentence must cover (default 0.35). */
  minCoverage?: number;
  /**
   * Minimum share of the question's weight the chosen sentence's passage (its text and its article's title) must
   * cover (default SOURCE_COVERAGE_FACTOR × minCoverage: 0.5 at the default minCoverage). Below either, the
   * evidence does not answer the question: null.
   */
  minSourceCoverage?: number;
  /** A further sentence must cover at least this share of the question's weight that the chosen ones miss (default 0.1). */
  minFreshCoverage?: number;
  /** …and score within this margin of the best sentence (default 0.15). */
  maxScoreGap?: number;
}

/**
 * The answerer's defaults, chosen on squad-dev-even with four held-out folds (bench/tune.ts, ADR 076): the most
 * answers containing a gold answer among the settings with at most 35 words per answer and at least 90% not-found
 * for questions about articles missing from the knowledge base.
 */
export const defaultExtractiveAnswerOptions: Readonly<Required<Omit<ExtractiveAnswerOptions, 'minSourceCoverage'>>> = Object.freeze({
  maxSentences: 2,
  minCoverage: 0.35,
  minFreshCoverage: 0.1,
  maxScoreGap: 0.15,
});

/**
 * minSourceCoverage unless given, relative to minCoverage: at the default minCoverage the passage must cover half
 * of the question (chosen with it, ADR 076), and a caller who accepts thinner evidence lowers both.
 */
export const SOURCE_COVERAGE_FACTOR = 0.5 / 0.35;
/**
 * A question word that is also in the passage's title weighs this much in choosing among the passage's sentences:
 * the title already says what the whole article is about, so a sentence repeating it is not more on the point.
 */
const TITLE_TERM_DISCOUNT = 0.3;
/** Exponent of the within-passages rarity of a question word: a word every candidate sentence has tells none apart. */
const LOCAL_RARITY_EXPONENT = 0.5;
/** Weight of the passage's retrieval score (relative to the best) in a sentence's score. */
const SOURCE_SCORE_WEIGHT = 0.5;
/** Without scores, the passage's rank: this much for the first, half for the second, … */
const SOURCE_RANK_WEIGHT = 0.2;
/** Per adjacent pair of question words found adjacent in the sentence (at most three count). */
const PAIR_BONUS = 0.05;
const MAX_PAIRS = 3;
/** Penalty for a sentence with no number when the question asks for a number, a year or a date. */
const ANSWER_TYPE_PENALTY = 0.3;
/** Penalty per e-fold of length above LENGTH_REFERENCE words (a bonus below): of two equal sentences, the shorter. */
const LENGTH_PENALTY = 0.1;
const LENGTH_REFERENCE = 20;

const YEAR = /\b(?:1\d{3}|20\d{2})s?\b/;
const MONTH = /\b(?:january|february|march|april|may|june|july|august|september|october|november|december)\b/;
const NUMBER_WORDS =
  /\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|million|billion|dozen|half|once|twice|every|daily|weekly|fortnight|fortnightly|monthly|yearly|annually|hourly|nightly)\b/;
const CENTURY = /\bcentur/;

/** Whether a sentence holds the kind of answer the question asks for; undefined when that cannot be told from the words. */
function hasAnswerType(type: AnswerType | undefined, normalizedSentence: string): boolean | undefined {
  switch (type) {
    case 'number':
      return NUMBER_WORDS.test(normalizedSentence);
    case 'year':
      return YEAR.test(normalizedSentence);
    case 'date':
      return YEAR.test(normalizedSentence) || MONTH.test(normalizedSentence) || CENTURY.test(normalizedSentence) || /\d/.test(normalizedSentence);
    default:
      // Persons and places are not told apart from other words reliably across subjects (roles, products, teams).
      return undefined;
  }
}

interface Candidate {
  text: string;
  sourceIndex: number;
  sentenceIndex: number;
  words: number;
  /** Question terms the sentence contains. */
  terms: Set<string>;
  /** Adjacent question word pairs the sentence contains. */
  pairs: number;
  typeMatch: boolean | undefined;
  /** Share of the question's weight the sentence covers (corpus weights only). */
  coverage: number;
  score: number;
}

function termWeight(weightOf: (term: string) => number, term: string): number {
  const weight = weightOf(term);
  return Number.isFinite(weight) && weight > 0 ? weight : 0;
}

function countWords(text: string): number {
  let count = 0;
  for (const word of text.split(/\s+/)) if (/[\p{L}\p{N}]/u.test(word)) count += 1;
  return count;
}

/**
 * Builds a short extractive answer from ranked sources: the one sentence that best answers the question, and a
 * second (up to `maxSentences`) only when it covers question words the first misses and scores nearly as well.
 *
 * A sentence's score is the share of the question's weight it covers (`weightOf`, typically the index's idf,
 * where a word no passage has weighs the most; words of the passage's title and words every candidate has weigh
 * less), plus a preference for better-ranked passages, for sentences that keep the question's word pairs and,
 * when the question asks for a number, year or date, for sentences that have one, and minus a little per length.
 * Sentences are copied verbatim (after Markdown stripping) and cited with "[n]".
 *
 * Returns null, so that the caller answers "not found", when the chosen sentence covers less than `minCoverage`
 * of the question's weight or its passage less than `minSourceCoverage`: the passages are then about something
 * else than what was asked (a question about the swimming pool's refunds meets the shop's refund policy).
 */
export function composeExtractiveAnswer(
  question: string,
  sources: AnswerSource[],
  weightOf: (term: string) => number,
  options: ExtractiveAnswerOptions = {},
): ExtractiveAnswer | null {
  const ranked = rankAnswerSentences(question, sources, weightOf);
  return ranked ? selectAnswerSentences(ranked, options) : null;
}

/** A sentence that could answer, as `rankAnswerSentences` scored it. */
export interface AnswerCandidate {
  text: string;
  sourceIndex: number;
  sentenceIndex: number;
  /** Question terms the sentence contains. */
  terms: ReadonlySet<string>;
  /** Share of the question's weight the sentence covers (corpus weights only). */
  coverage: number;
  /** Whether it holds the kind of answer the question asks for (a number, a year, a date); undefined when not told. */
  typeMatch: boolean | undefined;
  score: number;
}

/** The candidate sentences of an answer, best first, with what the selection needs to judge them. */
export interface RankedSentences {
  candidates: AnswerCandidate[];
  /** Share of the question's weight each source covers (its title and all its text). */
  sourceCoverage: number[];
  /** Each question term's share of the question's weight. */
  termShares: ReadonlyMap<string, number>;
}

/**
 * The first half of `composeExtractiveAnswer`: every sentence of the sources that has a question term, scored and
 * sorted best first (ties: earlier source, then earlier sentence). Null when the question has no search term or
 * no sentence any of them.
 */
export function rankAnswerSentences(question: string, sources: AnswerSource[], weightOf: (term: string) => number): RankedSentences | null {
  // The words that only name the kind of answer ("What year") are not what a sentence must say.
  const query = parseQuery(question, { answerTypeWordWeight: 0 });
  const questionTerms = [...query.terms].filter(([, weight]) => weight > 0);
  if (questionTerms.length === 0 || sources.length === 0) return null;
  const weights = new Map<string, number>();
  let totalWeight = 0;
  for (const [term, queryWeight] of questionTerms) {
    const weight = queryWeight * termWeight(weightOf, term);
    weights.set(term, weight);
    totalWeight += weight;
  }
  if (totalWeight <= 0) {
    // No informative weights: fall back to counting terms.
    for (const [term] of questionTerms) weights.set(term, 1);
    totalWeight = questionTerms.length;
  }
  const questionPairs = new Set(query.pairs);

  // Every sentence of every source, once; the question terms each has.
  interface Sentence {
    text: string;
    sourceIndex: number;
    sentenceIndex: number;
    terms: Set<string>;
    pairs: number;
  }
  const sentences: Sentence[] = [];
  const titleTerms = sources.map((source) => new Set(tokenize(source.title)));
  // The question terms each source has anywhere, its title and headings included.
  const sourceTerms = titleTerms.map((terms) => new Set([...terms].filter((term) => weights.has(term))));
  const seen = new Set<string>();
  sources.forEach((source, sourceIndex) => {
    let sentenceIndex = -1;
    for (const sentence of analyzeSentences(source.text)) {
      sentenceIndex += 1;
      const { terms: stems, words } = tokenizeWithWords(sentence.text);
      for (const stem of stems) if (weights.has(stem)) sourceTerms[sourceIndex]?.add(stem);
      // Headings label content; they are not answers.
      if (sentence.kind === 'heading') continue;
      const key = normalize(sentence.text).replace(/\s+/g, ' ');
      if (seen.has(key)) continue;
      seen.add(key);
      const terms = new Set<string>();
      for (const term of stems) if (weights.has(term)) terms.add(term);
      let pairs = 0;
      for (let position = 1; position < words.length && pairs < MAX_PAIRS; position += 1) {
        if (questionPairs.has(pairTerm(words[position - 1] as string, words[position] as string))) pairs += 1;
      }
      sentences.push({ text: sentence.text, sourceIndex, sentenceIndex, terms, pairs });
    }
  });
  const matching = sentences.filter((sentence) => sentence.terms.size > 0);
  if (matching.length === 0) return null;

  // How many sentences have each question term: the rarer among them, the more it tells them apart.
  const sentencesWith = new Map<string, number>();
  for (const sentence of matching) for (const term of sentence.terms) sentencesWith.set(term, (sentencesWith.get(term) ?? 0) + 1);
  const localRarity = (term: string) =>
    Math.pow(Math.log(1 + sentences.length / Math.max(1, sentencesWith.get(term) ?? 0)) / Math.log(1 + sentences.length), LOCAL_RARITY_EXPONENT);

  const bestSourceScore = Math.max(0, ...sources.map((source) => source.score ?? 0));
  const hasScores = bestSourceScore > 0 && sources.every((source) => typeof source.score === 'number');
  const candidates: Candidate[] = matching.map((sentence) => {
    const title = titleTerms[sentence.sourceIndex] as Set<string>;
    let relevant = 0;
    let relevantTotal = 0;
    let covered = 0;
    for (const [term, weight] of weights) {
      const discounted = weight * (title.has(term) ? TITLE_TERM_DISCOUNT : 1) * localRarity(term);
      relevantTotal += discounted;
      if (sentence.terms.has(term)) {
        relevant += discounted;
        covered += weight;
      }
    }
    const words = countWords(sentence.text);
    const typeMatch = hasAnswerType(query.answerType, normalize(sentence.text));
    const source = sources[sentence.sourceIndex] as AnswerSource;
    const prior = hasScores ? (SOURCE_SCORE_WEIGHT * (source.score as number)) / bestSourceScore : SOURCE_RANK_WEIGHT / (1 + sentence.sourceIndex);
    const score =
      (relevantTotal > 0 ? relevant / relevantTotal : 0) +
      prior +
      PAIR_BONUS * sentence.pairs -
      (typeMatch === false ? ANSWER_TYPE_PENALTY : 0) -
      LENGTH_PENALTY * Math.log(Math.max(words, 1) / LENGTH_REFERENCE);
    return { ...sentence, words, typeMatch, coverage: covered / totalWeight, score };
  });

  // Best score first; ties go to the earlier source, then the earlier sentence.
  candidates.sort((a, b) => b.score - a.score || a.sourceIndex - b.sourceIndex || a.sentenceIndex - b.sentenceIndex);
  const sourceCoverage = sourceTerms.map((terms) => {
    let covered = 0;
    for (const term of terms) covered += weights.get(term) ?? 0;
    return covered / totalWeight;
  });
  const termShares = new Map([...weights].map(([term, weight]) => [term, weight / totalWeight]));
  return {
    candidates: candidates.map(({ text, sourceIndex, sentenceIndex, terms, coverage, typeMatch, score }) => ({ text, sourceIndex, sentenceIndex, terms, coverage, typeMatch, score })),
    sourceCoverage,
    termShares,
  };
}

/**
 * The second half of `composeExtractiveAnswer`: the best sentence when it and its source cover enough of the
 * question, and further sentences (up to `maxSentences`) only for question words the chosen ones miss.
 */
export function selectAnswerSentences(ranked: RankedSentences, options: ExtractiveAnswerOptions = {}): ExtractiveAnswer | null {
  const maxSentences = Math.max(1, Math.floor(options.maxSentences ?? defaultExtractiveAnswerOptions.maxSentences));
  const minCoverage = options.minCoverage ?? defaultExtractiveAnswerOptions.minCoverage;
  const minSourceCoverage = options.minSourceCoverage ?? SOURCE_COVERAGE_FACTOR * minCoverage;
  const minFreshCoverage = options.minFreshCoverage ?? defaultExtractiveAnswerOptions.minFreshCoverage;
  const maxScoreGap = options.maxScoreGap ?? defaultExtractiveAnswerOptions.maxScoreGap;
  const { candidates, sourceCoverage, termShares } = ranked;
  const first = candidates[0];
  if (first === undefined || first.coverage < minCoverage) return null;
  if ((sourceCoverage[first.sourceIndex] ?? 0) < minSourceCoverage) return null;

  const chosen: AnswerCandidate[] = [first];
  const covered = new Set(first.terms);
  for (const candidate of candidates.slice(1)) {
    if (chosen.length >= maxSentences) break;
    // When the best sentence lacks the kind of answer asked for (a number, a frequency, a year) and another one on the
    // point has it, that one joins whatever its score: it is where the answer is.
    const carriesMissingType = first.typeMatch === false && candidate.typeMatch === true && candidate.sourceIndex === first.sourceIndex && candidate.terms.size >= 2;
    if (!carriesMissingType && first.score - candidate.score > maxScoreGap) continue;
    let fresh = 0;
    for (const term of candidate.terms) if (!covered.has(term)) fresh += termShares.get(term) ?? 0;
    // A further sentence must bear on the question where the chosen ones do not.
    if (fresh < minFreshCoverage && !carriesMissingType) continue;
    chosen.push(candidate);
    for (const term of candidate.terms) covered.add(term);
  }

  chosen.sort((a, b) => a.sourceIndex - b.sourceIndex || a.sentenceIndex - b.sentenceIndex);
  const answer = chosen.map(({ text, sourceIndex }) => ({ text, sourceIndex }));
  return {
    text: answer.map(({ text, sourceIndex }) => `${text} [${sourceIndex + 1}]`).join(' '),
    citedSourceIndexes: [...new Set(answer.map(({ sourceIndex }) => sourceIndex))].sort((a, b) => a - b),
    sentences: answer,
  };
}
