import { analyzeSentences } from './chunker';
import { normalize, tokenize } from './text';

export interface AnswerSource {
  articleId: number;
  title: string;
  text: string;
}

export interface ExtractiveAnswer {
  /** Chosen sentences in source then sentence order, each followed by "[n]" (1-based source index). */
  text: string;
  /** 0-based indexes into `sources` of the sources cited, ascending. */
  citedSourceIndexes: number[];
  sentences: { text: string; sourceIndex: number }[];
}

export interface ExtractiveAnswerOptions {
  /** Maximum number of sentences in the answer (default 3). */
  maxSentences?: number;
  /** Minimum share of the question's weight the best sentence must cover (default 0.3). */
  minCoverage?: number;
}

const DEFAULT_MAX_SENTENCES = 3;
const DEFAULT_MIN_COVERAGE = 0.3;
/** Bonus for the best-ranked source, decaying with rank. */
const SOURCE_RANK_BONUS = 0.04;
/** Bonus for the first sentence of a source, decaying with position. */
const SENTENCE_POSITION_BONUS = 0.02;
/** Share of a sentence's already-covered weight that still counts after the first pick. */
const REDUNDANT_WEIGHT_SHARE = 0.25;

interface Candidate {
  text: string;
  sourceIndex: number;
  sentenceIndex: number;
  /** Question terms the sentence contains. */
  terms: Set<string>;
  /** Share of the question's weight covered by the sentence. */
  coverage: number;
  bonus: number;
}

function termWeight(weightOf: (term: string) => number, term: string): number {
  const weight = weightOf(term);
  return Number.isFinite(weight) && weight > 0 ? weight : 0;
}

/**
 * Builds an extractive answer from ranked sources: the sentences (at most
 * `maxSentences`) that best cover the question's stems, weighted by `weightOf`
 * (typically the index's idf), with a small preference for earlier sources and
 * sentences and a penalty for sentences that only repeat already covered terms.
 * Sentences are copied verbatim (after Markdown stripping) and cited with
 * "[n]". Returns null when the best sentence covers less than `minCoverage` of
 * the question's weight, so the caller can answer "not found".
 */
export function composeExtractiveAnswer(
  question: string,
  sources: AnswerSource[],
  weightOf: (term: string) => number,
  options: ExtractiveAnswerOptions = {},
): ExtractiveAnswer | null {
  const maxSentences = Math.max(1, Math.floor(options.maxSentences ?? DEFAULT_MAX_SENTENCES));
  const minCoverage = options.minCoverage ?? DEFAULT_MIN_COVERAGE;

  const questionTerms = [...new Set(tokenize(question))];
  if (questionTerms.length === 0) return null;
  const weights = new Map<string, number>();
  let totalWeight = 0;
  for (const term of questionTerms) {
    const weight = termWeight(weightOf, term);
    weights.set(term, weight);
    totalWeight += weight;
  }
  if (totalWeight <= 0) {
    // No informative weights: fall back to counting terms.
    for (const term of questionTerms) weights.set(term, 1);
    totalWeight = questionTerms.length;
  }

  const candidates: Candidate[] = [];
  const seen = new Set<string>();
  sources.forEach((source, sourceIndex) => {
    let sentenceIndex = -1;
    for (const sentence of analyzeSentences(source.text)) {
      sentenceIndex += 1;
      // Headings label content; they are not answers.
      if (sentence.kind === 'heading') continue;
      const key = normalize(sentence.text).replace(/\s+/g, ' ');
      if (seen.has(key)) continue;
      const stems = new Set(tokenize(sentence.text));
      const terms = new Set<string>();
      let covered = 0;
      for (const term of questionTerms) {
        if (stems.has(term)) {
          terms.add(term);
          covered += weights.get(term) ?? 0;
        }
      }
      if (terms.size === 0) continue;
      seen.add(key);
      candidates.push({
        text: sentence.text,
        sourceIndex,
        sentenceIndex,
        terms,
        coverage: covered / totalWeight,
        bonus: SOURCE_RANK_BONUS / (1 + sourceIndex) + SENTENCE_POSITION_BONUS / (1 + sentenceIndex),
      });
    }
  });
  if (candidates.length === 0) return null;

  let first = candidates[0] as Candidate;
  for (const candidate of candidates) {
    if (candidate.coverage + candidate.bonus > first.coverage + first.bonus) first = candidate;
  }
  const bestCoverage = Math.max(...candidates.map((candidate) => candidate.coverage));
  if (bestCoverage < minCoverage) return null;

  const chosen: Candidate[] = [first];
  const covered = new Set(first.terms);
  const remaining = new Set(candidates.filter((candidate) => candidate !== first));
  while (chosen.length < maxSentences && remaining.size > 0) {
    let pick: Candidate | null = null;
    let pickScore = -Infinity;
    for (const candidate of remaining) {
      let fresh = 0;
      let repeated = 0;
      for (const term of candidate.terms) {
        const weight = (weights.get(term) ?? 0) / totalWeight;
        if (covered.has(term)) repeated += weight;
        else fresh += weight;
      }
      // A further sentence must add a new question term or be strongly on topic by itself.
      if (fresh <= 0 && candidate.coverage < Math.max(minCoverage, 0.5 * bestCoverage)) continue;
      const score = fresh + REDUNDANT_WEIGHT_SHARE * repeated + candidate.bonus;
      if (score > pickScore) {
        pick = candidate;
        pickScore = score;
      }
    }
    if (pick === null) break;
    chosen.push(pick);
    remaining.delete(pick);
    for (const term of pick.terms) covered.add(term);
  }

  chosen.sort((a, b) => a.sourceIndex - b.sourceIndex || a.sentenceIndex - b.sentenceIndex);
  const sentences = chosen.map(({ text, sourceIndex }) => ({ text, sourceIndex }));
  return {
    text: sentences.map(({ text, sourceIndex }) => `${text} [${sourceIndex + 1}]`).join(' '),
    citedSourceIndexes: [...new Set(sentences.map(({ sourceIndex }) => sourceIndex))].sort((a, b) => a - b),
    sentences,
  };
}
