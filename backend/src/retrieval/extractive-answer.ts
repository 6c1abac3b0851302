import { knowledgeBaseBm25Parameters, TITLE_WEIGHT } from './bm25-index';
import { analyzeSentences, type SentenceInfo } from './chunker';
import { actionStems, activeHowTo, askedAbility, askedAction, askedPhrasalVerb, isActionStem, plainAction, withActionWord } from './asked-action';
import { ANSWER_TYPE_WORD_WEIGHT, asHowToQuestion, isIndefinitePronounTerm, pairTerm, parseQuery, type AnswerType } from './query';
import { countWords, knowledgeLanguage, normalize, plainQuestion, tokenizeWithWords } from './text';

export interface AnswerSource {
  articleId: number;
  title: string;
  text: string;
  /** The passage's retrieval score, when known: a better-ranked passage's sentences are preferred by that much more. */
  score?: number;
}

export interface ExtractiveAnswer {
  /**
   * Chosen sentences in source then sentence order, each followed by "[n]" (1-based source index); a procedure's
   * steps as a numbered Markdown list, one step a line.
   */
  text: string;
  /** 0-based indexes into `sources` of the sources cited, ascending. */
  citedSourceIndexes: number[];
  /** For a list, `step` is the 1-based number of the item each sentence belongs to (an item may have several). */
  sentences: { text: string; sourceIndex: number; step?: number }[];
  /** Whether the list is numbered (a procedure's steps) rather than bulleted. */
  numbered?: boolean;
}

/** A Markdown list item's line: "1. …", "- …". */
const LIST_LINE = /^(?:\d{1,3}\.|-) /m;
/** Numbered steps: a line "1. …" and, after it, a line "2. …". */
const NUMBERED_STEPS = /^\s*1\.\s.*\n+\s*2\.\s/m;

/**
 * Joins pieces of an answer (statements, a composed part, a bold lead): with a space, except around a piece laid out
 * as a list, which must start on a line of its own to stay a list.
 */
export function joinAnswerPieces(pieces: readonly (string | null | undefined)[]): string {
  let joined = '';
  let previousIsList = false;
  for (const piece of pieces) {
    if (!piece) continue;
    const isList = LIST_LINE.test(piece);
    joined += joined === '' ? piece : `${isList || previousIsList ? '\n\n' : ' '}${piece}`;
    previousIsList = isList;
  }
  return joined;
}

/**
 * One line per item, "1. First sentence. Second sentence. [n]" (or "- …" for a bulleted list), when the sentences are
 * a list's, each item cited after its last sentence unless the whole list comes from one source, cited once after its
 * last item; sentences before the first item (the list's lead-in, "You can upload:") run on above it, cited only when
 * they come from another source than the list. Else running text, each sentence cited.
 */
export function layOutAnswer(sentences: readonly { text: string; step?: number }[], citationOf: (index: number) => string, numbered = true): string {
  const firstItem = sentences.findIndex((sentence) => sentence.step !== undefined);
  if (firstItem < 0) return sentences.map(({ text }, index) => `${text} ${citationOf(index)}`).join(' ');
  const listCitation = citationOf(firstItem);
  const lead = sentences
    .slice(0, firstItem)
    .map(({ text }, index) => {
      const citation = citationOf(index);
      return citation === listCitation ? text : `${text} ${citation}`;
    })
    .join(' ');
  // A list quoted from one source is cited once, after its last item: "[1]" after every step says nothing more, and on a
  // phone a citation alone on a line reads as a step of its own.
  const oneSource = sentences.every((_, index) => index < firstItem || citationOf(index) === listCitation);
  const lines: string[] = [];
  sentences.forEach(({ text, step }, index) => {
    if (index < firstItem) return;
    const last = oneSource ? index === sentences.length - 1 : index === sentences.length - 1 || sentences[index + 1]?.step !== step;
    const line = `${text}${last ? ` ${citationOf(index)}` : ''}`;
    if (index > firstItem && sentences[index - 1]?.step === step) lines[lines.length - 1] += ` ${line}`;
    else lines.push(`${numbered ? `${step ?? lines.length + 1}.` : '-'} ${line}`);
  });
  return joinAnswerPieces([lead, lines.join('\n')]);
}

export interface ExtractiveAnswerOptions {
  /** Maximum number of sentences in the answer (default 2). */
  maxSentences?: number;
  /**
   * Minimum evidence of the best passage (default 0.25): the share of the question's attainable BM25 score that the
   * best of the passages reaches (`RankedSentences.evidence`). Below it, the passages do not answer: null.
   */
  minEvidence?: number;
  /** Minimum share of the question's weight the chosen sentence must cover (default 0.2). */
  minCoverage?: number;
  /**
   * Minimum share of the question's weight the chosen sentence's passage (its text and its article's title) must
   * cover (default 0: the evidence check above does this better, ADR 110).
   */
  minSourceCoverage?: number;
  /** A further sentence must cover at least this share of the question's weight that the chosen ones miss (default 0). */
  minFreshCoverage?: number;
  /** …and score within this margin of the best sentence (default 0.15)… */
  maxScoreGap?: number;
  /** …and the two together have at most this many words (default 60). */
  maxWords?: number;
  /**
   * …and at most this share of its words already said by the chosen ones (default 0.75): a sentence that says again what
   * the answer says ("Deleting an article never deletes logs." after "Deleting an article does not delete any query
   * logs.") adds words, not an answer.
   */
  maxRedundancy?: number;
}

/**
 * The answerer's defaults, chosen on squad-dev-even with four held-out folds (bench/answer-loop.ts, ADR 110): the
 * most answers containing a gold answer among the settings with at most 35 words per answer and at least 90%
 * not-found for questions about articles missing from the knowledge base.
 */
export const defaultExtractiveAnswerOptions: Readonly<Required<ExtractiveAnswerOptions>> = Object.freeze({
  maxSentences: 2,
  minEvidence: 0.255,
  minCoverage: 0.2,
  minSourceCoverage: 0,
  minFreshCoverage: 0,
  maxScoreGap: 0.15,
  maxWords: 70,
  maxRedundancy: 0.75,
});
/**
 * A question word that is also in the passage's title weighs this much in choosing among the passage's sentences:
 * the title already says what the whole article is about, so a sentence repeating it is not more on the point.
 */
const TITLE_TERM_DISCOUNT = 0.3;
/**
 * A question word in the heading over a sentence, not in the sentence, counts this much of its weight: the heading
 * says what its sentences are about ("Sort the table / Select a column heading to sort by that column.").
 */
const HEADING_TERM_CREDIT = 0.5;
/**
 * A heading that covers at least this share of the question's weight says the question (a troubleshooting guide's "A
 * new article is not used in answers"): the sentences under it count its words in full, and answer it without
 * repeating them.
 */
const HEADED_BY_QUESTION = 0.9;
/**
 * …when the question has at least this many words: "What roles are there?" is said by every heading with "role"; or
 * when the heading also asks with the question's own question word ("Why you get no answer" for "Why did I get no
 * answer?").
 */
const MIN_HEADED_QUESTION_TERMS = 3;
/**
 * A section headed by the question in its own words opens with its answer ("What a template is / A template describes
 * the document you want."): its first sentence scores this much more than the rest of the section.
 */
const SECTION_OPENING_BONUS = 0.2;
/**
 * A question word in the sentence before (in the same section), not in the sentence nor its heading, counts this much
 * of its weight: a sentence goes on about what the one before named ("Tesla moved to New York. There he worked for
 * Edison."). Chosen on squad-dev-even with held-out folds (bench/answer-loop.ts): 0.3 to 0.6 gain about a point, 0.5
 * the most at 35 words.
 */
const CONTEXT_TERM_CREDIT = 0.5;
/** The question words a heading may share with a question: "Why …", "When …". */
const QUESTION_WORD = /^(why|when|where|who|which|what|whose)\b/;
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
/**
 * A sentence shorter than this many words scores as if it had this many: a list's one-word item ("logo,") is no better
 * an answer for being short. Measured on squad-dev-even (3 or 5 words: 74.6% at 34.8 words as before, folds 74.5% →
 * 74.6%; 8 words: longer answers) and on questions about the product's guide (one more answered).
 */
const SHORTEST_SCORED_LENGTH = 5;

/** The kinds of answer that are a quantity or a time: a sentence without one does not give them. */
const QUANTITY_TYPES: ReadonlySet<AnswerType | undefined> = new Set(['number', 'frequency', 'year', 'date']);
/**
 * Asked for a quantity or a time, an answer none of whose sentences gives one answers it only when it says at least this
 * share of the question's weight ("How long can a question be at most?" is not answered by "Wait for it rather than
 * sending the question again.", which says only "question").
 */
const MIN_COVERAGE_WITHOUT_QUANTITY = 0.5;

const YEAR = /\b(?:1\d{3}|20\d{2})s?\b/;
const MONTH = /\b(?:january|february|march|april|may|june|july|august|september|october|november|december)\b/;
const NUMBER_WORDS =
  /\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|million|billion|dozen|half|once|twice)\b|\b(?:a\s+few|several|many)\s+(?:seconds|minutes|hours|days|weeks|months|years)\b/;
/** Words that say how often ("every year", "weekly"): an answer to "how often", not to "how long" or "how many". */
const FREQUENCY_WORDS = /\b(?:every|daily|weekly|fortnight|fortnightly|monthly|yearly|annually|hourly|nightly)\b/;
const CENTURY = /\bcentur/;
/** A capitalised word inside a sentence followed by a number: a label, "Shortcut 1 query", "Step 2". */
const LABEL_NUMBER = /(?<=[\p{L},]\s+)\p{Lu}\p{Ll}+\s+\d+\b/gu;

/** Whether a sentence holds the kind of answer the question asks for; undefined when that cannot be told from the words. */
function hasAnswerType(type: AnswerType | undefined, normalizedSentence: string, text = normalizedSentence): boolean | undefined {
  switch (type) {
    case 'number':
      // A number that names something ("Shortcut 1", "Step 2") counts nothing.
      return NUMBER_WORDS.test(normalize(text.replace(LABEL_NUMBER, ' ')));
    case 'frequency':
      // Or a count of times: "twice a year".
      return FREQUENCY_WORDS.test(normalizedSentence) || hasAnswerType('number', normalizedSentence, text) === true;
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
  block: number;
  window?: RunOnWindow;
  words: number;
  /** Question terms the sentence contains. */
  terms: Set<string>;
  /** Question terms the sentence before it has and it does not. */
  contextTerms: Set<string>;
  /** For a question about what follows an action: whether it is no step and comes right after one. */
  followsStep: boolean;
  /** Adjacent question word pairs the sentence contains. */
  pairs: number;
  typeMatch: boolean | undefined;
  /** Share of the question's weight the sentence covers (corpus weights only). */
  coverage: number;
  score: number;
  list?: ListSentence[];
  introduces?: ListSentence[];
  continuedBy?: { leadIn: string; steps: ListSentence[] };
  /** Whether it says what the question asks about is. */
  definesIt: boolean;
  definition: DefinitionKind | undefined;
  /** Whether it is under a heading that says the whole question. */
  headedByQuestion?: boolean;
  /** Whether it says the name on the screen the question gives (`namedLabel`). */
  namesLabel?: boolean;
}

/** A sentence of a list, and whether it starts an item (the others continue the item before them). */
interface ListSentence {
  text: string;
  sentenceIndex: number;
  startsItem: boolean;
  /** Whether it starts a numbered item. */
  ordered: boolean;
}

function termWeight(weightOf: (term: string) => number, term: string): number {
  const weight = weightOf(term);
  return Number.isFinite(weight) && weight > 0 ? weight : 0;
}

/** A passage's sentence with what ranking needs of it, whatever the question. */
interface AnalyzedSentence extends SentenceInfo {
  /** For a window of run-on text, where it lies in it. */
  window?: RunOnWindow;
  stems: string[];
  words: string[];
  /** The sentence normalised, for answer-type checks. */
  normalized: string;
  /** The same with its spaces collapsed: two passages saying the same sentence give the same key. */
  key: string;
  wordCount: number;
}

/**
 * How many passages' analyses are kept. The same passages answer many questions, and splitting and tokenising
 * them is most of an answer's work; an analysis depends on the text alone.
 */
const ANALYSES_KEPT = 4000;

/** Keeps `compute(text)` for the most recently used texts (forgotten when the knowledge base's language changes). */
function keptByText<T>(compute: (text: string) => T): (text: string) => T {
  const kept = new Map<string, T>();
  let language = knowledgeLanguage();
  return (text) => {
    if (knowledgeLanguage() !== language) {
      kept.clear();
      language = knowledgeLanguage();
    }
    const found = kept.get(text);
    if (found !== undefined) {
      kept.delete(text);
      kept.set(text, found);
      return found;
    }
    const computed = compute(text);
    if (kept.size >= ANALYSES_KEPT) kept.delete(kept.keys().next().value as string);
    kept.set(text, computed);
    return computed;
  };
}

/** A sentence this long is run-on text (a transcript without punctuation): it is read in overlapping windows. */
const RUN_ON_WORDS = 80;
/** Run-on text is cut into stretches of about this many words; a window is RUN_ON_WINDOW_STRETCHES stretches in a row. */
const RUN_ON_STRETCH_WORDS = 10;
const RUN_ON_WINDOW_STRETCHES = 3;
/** Words that begin a new thought in unpunctuated speech: a stretch ends before one rather than anywhere. */
const STARTS_A_THOUGHT = /^(?:so|and|but|then|now|first|second|third|next|finally|also|okay|ok|well|today|once)$/i;
/** Words that lead into what follows them: a stretch does not end on one. */
const LEADS_INTO = /^(?:the|a|an|so|and|but|or|to|of|in|on|at|for|with|then|that|this|is|are|you|we|i|it|because|when|if)$/i;

/** Where a window of run-on text lies in it: which run-on sentence of the passage, and its words [from, to). */
export interface RunOnWindow {
  of: number;
  from: number;
  to: number;
}

/**
 * Run-on text (speech transcribed without punctuation: one "sentence" of a minute's words) read as windows that can be
 * quoted alone, as sentences are: it is cut into stretches of about RUN_ON_STRETCH_WORDS words, each ending before a
 * word that starts a new thought where one comes late enough and not on a word that leads into the next ("the",
 * "because"), and each window is RUN_ON_WINDOW_STRETCHES stretches in a row, starting at every stretch: whatever a
 * stretch says is read with what comes before it and after it. A window is the text's own words in order; an answer
 * quotes windows that do not overlap. Other sentences stay whole. `of` names the run-on sentence.
 */
export function cutRunOnSentence(sentence: SentenceInfo, of = 0): (SentenceInfo & { window?: RunOnWindow })[] {
  if (sentence.kind !== 'text' || sentence.quoted !== undefined) return [sentence];
  const words = sentence.text.split(' ');
  if (words.length < RUN_ON_WORDS) return [sentence];
  const cuts = [0];
  const half = Math.floor(RUN_ON_STRETCH_WORDS / 2);
  for (let start = 0; start < words.length; ) {
    let end = Math.min(words.length, start + RUN_ON_STRETCH_WORDS);
    if (words.length - end < half) end = words.length;
    else {
      // The word that starts a new thought nearest the stretch's length, a little before or after it.
      let nearest: number | undefined;
      for (let cut = start + half + 1; cut < Math.min(words.length, end + half); cut++) {
        if (STARTS_A_THOUGHT.test(words[cut] ?? '') && (nearest === undefined || Math.abs(cut - end) < Math.abs(nearest - end))) nearest = cut;
      }
      if (nearest !== undefined) end = nearest;
      // "… and the | third thing is …": the words that lead into the new thought go with it.
      while (end - 1 > start + half && LEADS_INTO.test(words[end - 1] ?? '')) end -= 1;
    }
    cuts.push(end);
    start = end;
  }
  const windows: (SentenceInfo & { window: RunOnWindow })[] = [];
  for (let index = 0; index + RUN_ON_WINDOW_STRETCHES < cuts.length || index === 0; index++) {
    const from = cuts[index] as number;
    const to = cuts[Math.min(cuts.length - 1, index + RUN_ON_WINDOW_STRETCHES)] as number;
    windows.push({ ...sentence, text: words.slice(from, to).join(' '), window: { of, from, to } });
  }
  return windows;
}

/** Whether two windows of one passage's run-on text share words. */
const overlaps = (one: RunOnWindow | undefined, other: RunOnWindow | undefined) =>
  one !== undefined && other !== undefined && one.of === other.of && one.from < other.to && other.from < one.to;

/**
 * A quotation given as an example of what somebody might write ('add a comment, for example "Article on refunds is
 * out of date"'): its words are the example's, not what the sentence is about.
 */
const QUOTED_EXAMPLE = /\b(?:for example|for instance|e\.g\.|such as)[,:]?\s+["“][^"“”]+["”]/gi;

const analyzedPassage = keptByText((text): readonly AnalyzedSentence[] =>
  analyzeSentences(text).flatMap((sentence, index) => cutRunOnSentence(sentence, index)).map((sentence) => {
    const { words } = tokenizeWithWords(sentence.text);
    const { terms: stems } = tokenizeWithWords(sentence.text.replace(QUOTED_EXAMPLE, ' '));
    const normalized = normalize(sentence.text);
    return { ...sentence, stems, words, normalized, key: normalized.replace(/\s+/g, ' '), wordCount: countWords(sentence.text) };
  }),
);

const tokenizedText = keptByText(tokenizeWithWords);

/** Whether some source has the term, in its title or its text. */
function sourcesName(sources: readonly Pick<AnswerSource, 'title' | 'text'>[], term: string): boolean {
  return sources.some((source) => tokenizedText(source.title).terms.includes(term) || analyzedPassage(source.text).some((sentence) => sentence.stems.includes(term)));
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
 * Returns null, so that the caller answers "not found", when no passage reaches `minEvidence` of the question's
 * attainable BM25 score or the chosen sentence covers less than `minCoverage` of the question's weight: the
 * passages are then about something else than what was asked (a question about the swimming pool's refunds meets
 * the shop's refund policy).
 */
export function composeExtractiveAnswer(
  question: string,
  sources: AnswerSource[],
  weightOf: (term: string) => number,
  options: ExtractiveAnswerOptions = {},
  correctTerm?: (term: string) => string | undefined,
): ExtractiveAnswer | null {
  const ranked = rankAnswerSentences(question, sources, weightOf, correctTerm);
  return ranked ? selectAnswerSentences(ranked, options) : null;
}

/** A sentence that could answer, as `rankAnswerSentences` scored it. */
export interface AnswerCandidate {
  text: string;
  sourceIndex: number;
  sentenceIndex: number;
  /** The block of its passage it is in (a paragraph, a list): sentences of one block go on from each other. */
  block?: number;
  /** For a window of run-on text: where it lies in it (an answer quotes no two windows that overlap). */
  window?: RunOnWindow;
  /** Question terms the sentence contains. */
  terms: ReadonlySet<string>;
  /** Share of the question's weight the sentence covers (corpus weights only). */
  coverage: number;
  /** Whether it holds the kind of answer the question asks for (a number, a year, a date); undefined when not told. */
  typeMatch: boolean | undefined;
  score: number;
  /** For a list item: every sentence of its list, in order (the item's own included). */
  list?: readonly ListSentence[];
  /** For a sentence that introduces a list ("The firewall looks for three kinds of problem:"): that list. */
  introduces?: readonly ListSentence[];
  /** For a sentence whose next one announces a list about it ("They can work with:"): that lead-in and list. */
  continuedBy?: { leadIn: string; steps: readonly ListSentence[] };
  /** Whether it says what the question asks about is ("A draft is …", "bot_type – …"). */
  defines?: boolean;
  /** …and how (`definitionKind`): says what it is, a glossary's entry ("bot_type – …") or a judgement ("… is too strict"). */
  definition?: DefinitionKind;
  /** Whether it is under a heading that says the whole question ("A new article is not used in answers"). */
  headedByQuestion?: boolean;
  /** For a how-to question: whether it says how to do the asked action in one sentence ("To find an article, filter …"). */
  saysHow?: boolean;
}

/** The candidate sentences of an answer, best first, with what the selection needs to judge them. */
export interface RankedSentences {
  candidates: AnswerCandidate[];
  /** Share of the question's weight each source covers (its title and all its text). */
  sourceCoverage: number[];
  /** Each question term's share of the question's weight. */
  termShares: ReadonlyMap<string, number>;
  /**
   * Each source's evidence: its BM25 score for the question (its title counted TITLE_WEIGHT times, no length
   * normalisation, adjacent question words rewarded as the index does for questions) over the most any passage
   * could score, where every question word saturates and every pair is adjacent. 0 to 1, and the same whatever
   * search type found the source.
   */
  evidence: number[];
  /** Words of each candidate, by its position in `candidates`. */
  words: number[];
  /** Whether the question asks how to do something ("How do I add an article?"): a list of steps answers it whole. */
  asksHowTo: boolean;
  /**
   * Whether the question asks whether the asker can do something ("Can I edit a published article?"): when a numbered
   * step answers it best, the whole procedure does (how to do it says that one can).
   */
  asksWhetherICan?: boolean;
  /**
   * Whether the question asks what something is or can do ("What is a draft?"): a sentence that says it answers it
   * whole. Not so a bare name or a request for a summary, which want more.
   */
  asksWhatItIs?: boolean;
  /**
   * Whether the question asks what something does ("What does the semantic firewall do?"): the sentence after the one
   * that says what it is, in the same paragraph, says what it does and joins it.
   */
  asksWhatItDoes?: boolean;
  /** Whether the question asks what follows an action ("What happens when I revoke a key?"): a list of steps does not say. */
  asksConsequence?: boolean;
  /**
   * Whether the question asks for a quantity or a time ("How long can a question be?", "When was it built?"): an answer
   * that gives none, and says little of the question, answers another one.
   */
  asksQuantity?: boolean;
  /**
   * Whether steps are no answer to the question: it asks what follows an action, or whether someone or something can do
   * it ("Can a user delete articles?"): a sentence says so, "Select Delete." does not.
   */
  stepsDoNotAnswer?: boolean;
  /**
   * The action a how-to or can-I question asks about, when none of the sources names it ("How do I restore a deleted
   * article?" where no passage says restore): the sources tell of something else, and the answer is not found.
   */
  actionMissing?: string;
  /**
   * For a how-to question, the numbered list of the sources most about it, when there is one: its steps, and the
   * share of the question's weight its heading and steps cover (words only its article's title has count less).
   */
  procedure?: RankedList;
  /**
   * For any question, the list (numbered or bulleted) of the sources whose heading and lead-in cover the most of its
   * weight, counted the same way: "Supported file types / You can upload: - PDF documents, …" answers "What file types
   * can I upload?", whose words none of the items repeats.
   */
  list?: RankedList;
}

/** A list of a source and what of the question its heading, its lead-in and its items cover. */
export interface RankedList {
  sourceIndex: number;
  steps: readonly ListSentence[];
  /** The sentence that introduces the list ("You can upload:"), when the list follows one ending in a colon. */
  leadIn?: string;
  /** Share of the question's weight its heading, lead-in and items cover. */
  coverage: number;
  /**
   * The same with its article's title counted in full: steps under "Start a crawl" in an article "How to crawl a web
   * site" are about crawling a web site, though they never say web site.
   */
  titledCoverage: number;
  /** Whether its heading, lead-in or items name the action a how-to question asks about. */
  namesAction: boolean;
  /**
   * Whether its article's title says how to do all that is asked (`titleSaysHowTo`: "How to give feedback on an
   * answer" for "How do I give feedback?"): its steps are how, though they say "Select Yes, helpful".
   */
  titleSaysHow: boolean;
  /** The same of its heading and lead-in alone: what the list is said to be about. */
  contextCoverage: number;
  /** Whether its heading or lead-in names the asked action (or a verb doing the same). */
  contextNamesAction?: boolean;
}

/** Up to how many words after its capitalised first word a name on the screen runs (`namedLabel`). */
const MAX_LABEL_WORDS = 4;
/**
 * At most how many words of a name on the screen the search reads: one that it reads more of ("the University of Notre
 * Dame") it finds by them, and the sentences that answer of it often call it otherwise ("the university").
 */
const MAX_LABEL_TERMS = 1;
/** At most how many words of the whole question the search reads, besides what a name on the screen is ("button"). */
const MAX_LABEL_QUESTION_TERMS = 2;
/** What a sentence that says the name on the screen the question gives (`namedLabel`) gains. */
const NAMES_THE_LABEL_BONUS = 0.3;

/**
 * The names on the screen that the question may give with their capital and that the search reads only in part, for
 * it drops some of their words ("What does Delete all do?": the button Delete all; "What is the Who am I text?": the
 * field Who am I): a capitalised word that does not open the question, with the words after it (up to MAX_LABEL_WORDS
 * in all, none past a punctuation mark), at least one of them a word the search drops and at most MAX_LABEL_TERMS one
 * it reads, ending where a name can (`endsLabel`); none in a question the search reads more than
 * MAX_LABEL_QUESTION_TERMS words of. As patterns that find one, capital and all, longest first.
 */
export function labelPatterns(question: string): RegExp[] {
  question = plainQuestion(question);
  // A question the search reads more of ("How many actors have played Doctor Who?") is found and answered by its words.
  if (new Set(tokenizedText(question).terms.filter((term) => !LABEL_KINDS().has(term))).size > MAX_LABEL_QUESTION_TERMS) return [];
  const words = question.trim().split(/\s+/);
  const runs: string[][] = [];
  for (let start = 1; start < words.length; start += 1) {
    const first = words[start] as string;
    if (!/^\p{Lu}/u.test(first) || first === 'I') continue;
    const run: string[] = [];
    for (let end = start; end < words.length && run.length < MAX_LABEL_WORDS; end += 1) {
      const word = words[end] as string;
      const bare = word.replace(/[^\p{L}\p{N}'’-]+$/u, '');
      if (bare.length === 0) break;
      run.push(bare);
      if (run.length >= 2 && endsLabel(words, end) && run.some((part) => tokenizedText(part).terms.length === 0) && tokenizedText(run.join(' ')).terms.length <= MAX_LABEL_TERMS) {
        runs.push([...run]);
      }
      if (bare !== word) break;
    }
  }
  return runs
    .sort((a, b) => b.length - a.length)
    .map((run) => new RegExp(`(?<![\\p{L}\\p{N}])${run.map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('\\s+')}(?![\\p{L}\\p{N}])`, 'u'));
}

/** The verb that ends a question about what a name on the screen does ("What does Delete all do?"). */
const ASKS_WHAT_IT_DOES = /^(?:do|does|mean|means)\W*$/i;

/**
 * Whether a name on the screen can end after the question's word at `end`: at the end of the question or of a part of
 * it, before a word that says what it is ("the Delete all button"), or before the verb that ends the question ("do").
 */
function endsLabel(words: readonly string[], end: number): boolean {
  const word = words[end] as string;
  const next = words[end + 1];
  if (next === undefined || /[?!.,;:]$/.test(word)) return true;
  if (ASKS_WHAT_IT_DOES.test(next) && end + 2 === words.length) return true;
  const kind = tokenizedText(next.replace(/\W+$/, '')).terms[0];
  return kind !== undefined && LABEL_KINDS().has(kind);
}

/** Whether a list's lead-in or steps say the name on the screen (`namedLabel`). */
const saysLabel = (label: RegExp, list: Pick<RankedList, 'leadIn' | 'steps'>): boolean =>
  (list.leadIn !== undefined && label.test(list.leadIn)) || list.steps.some((step) => label.test(step.text));

/** The longest of the question's `labelPatterns` that the sources say; undefined when they say none. */
export function namedLabel(question: string, sources: readonly Pick<AnswerSource, 'text'>[]): RegExp | undefined {
  question = plainQuestion(question);
  return labelPatterns(question).find((pattern) => sources.some((source) => pattern.test(source.text)));
}

/** A sentence that only names another article to read: 'See "How to publish drafts".', 'See also "Roles" for details.' */
const POINTER = /^see\s+(?:also\s+)?["“‘'][^"”’']+["”’'](?:\s+for\s+[\w\s]{1,30})?\s*[.!]?$/i;
/**
 * A sentence about the text itself, not its subject: "This article covers both: …", "It covers starting the product, …",
 * "This section explains …". It says where things are told, not what they are. ("It lists the crawled URLs" may well
 * be about a screen, so "it" only with the verbs of a text.)
 */
const SIGNPOST =
  /^(?:(?:this|the following)\s+(?:article|guide|page|section|document|chapter|tutorial)\s+(?:covers?|explains?|describes?|walks|lists|shows|is\s+for|is\s+about|tells|gives)|it\s+(?:covers|explains|describes|walks\s+you))\b/i;

/**
 * The list a sentence introduces: the one right after it, when the sentence ends in a colon ("You can upload:"). A
 * sentence quoted without the list it announces says nothing.
 */
function introducedList(analyzed: readonly AnalyzedSentence[], index: number, lists: ReadonlyMap<number, ListSentence[]>): ListSentence[] | undefined {
  const sentence = analyzed[index];
  const next = analyzed[index + 1];
  if (!sentence || sentence.kind === 'item' || !/:$/.test(sentence.text) || next?.kind !== 'item') return undefined;
  return lists.get(next.block);
}

/** A lead-in that refers back to the sentence before it: "They can work with:", "It has:". */
const REFERRING_LEAD_IN = /^(?:it|they|this|these|he|she)\b/i;

/**
 * The list the next sentence announces when that sentence refers back to this one ("Editors look after the content.
 * They can work with: - articles, …"): the list says what this sentence is about.
 */
function continuingList(analyzed: readonly AnalyzedSentence[], index: number, lists: ReadonlyMap<number, ListSentence[]>): { leadIn: string; steps: ListSentence[] } | undefined {
  const sentence = analyzed[index];
  const next = analyzed[index + 1];
  if (!sentence || !next || sentence.kind !== 'text' || /:$/.test(sentence.text) || next.block !== sentence.block || !REFERRING_LEAD_IN.test(next.text)) return undefined;
  const steps = introducedList(analyzed, index + 1, lists);
  return steps ? { leadIn: next.text, steps } : undefined;
}

/** A quotation in a sentence, long enough to be a question or a command of its own (group 1). */
const QUOTATION = /["“]([^"“”]+)["”]/g;
const MIN_QUOTED_QUESTION_WORDS = 8;

/**
 * Whether a sentence quotes the question itself: a quotation of at least MIN_QUOTED_QUESTION_WORDS words, and no
 * fewer than the question's, that has every word of the question. A quotation the question only borrows from ("Who
 * called the war 'a splendid little war'?") is part of an answer.
 */
function quotesTheQuestion(text: string, weights: ReadonlyMap<string, number>, questionWords: number): boolean {
  for (const [, quoted] of text.matchAll(QUOTATION)) {
    const words = countWords(quoted as string);
    if (words < MIN_QUOTED_QUESTION_WORDS || words < questionWords) continue;
    const stems = new Set(tokenizedText(quoted as string).terms);
    if ([...weights.keys()].every((term) => stems.has(term))) return true;
  }
  return false;
}

/** "What is X?", "What are X?", "Who was X?", "What exactly is X?": a question that asks what something is (X in group 1). */
const ASKS_WHAT_IT_IS =
  /^\s*(?:(?:what|who)\s+(?:(?:exactly|actually|really|basically|precisely)\s+)?(?:is|are|was|were)\s+(?:(?:exactly|actually|really|basically|precisely)\s+)?(?:(?:an?|the)\s+)?([^?]+?)|what\s+(?:does|do)\s+(?:(?:an?|the)\s+)?([^?]+?)\s+(?:do|mean|stand\s+for))\s*\?*\s*$/i;
/**
 * "What is the agent for?", "What are templates used for?", "What do I use the logs for?": a question that asks what
 * something is for (X in group 1 or 2). It is answered by a sentence that says so ("the agent is for requests too big
 * for one answer"), or else by one that says what X is.
 */
/**
 * "What does the semantic firewall do?": what it is says only part of it; what it does is said in the sentence that goes
 * on from there ("When it is switched on, every question is screened …").
 */
const ASKS_WHAT_IT_DOES_DO = /^\s*what\s+(?:does|do)\s+(?:(?:an?|the)\s+)?[^?]+?\s+do\s*\?*\s*$/i;
const ASKS_WHAT_IT_IS_FOR =
  /^\s*(?:what\s+(?:is|are|was|were)\s+(?:(?:an?|the)\s+)?([^?]+?)\s+(?:(?:used|meant|good|there)\s+)?for|what\s+(?:do|does|can|could|would|should)\s+(?:i|we|you|one|people|users?)\s+use\s+(?:(?:an?|the)\s+)?([^?]+?)\s+for)\s*\?*\s*$/i;
/** "What can an editor do?": a question that asks what someone or something can do (X in group 1). */
const ASKS_WHAT_IT_CAN_DO = /^\s*what\s+(?:can|could|may)\s+(?:(?:an?|the)\s+)?([^?]+?)\s+do\s*\?*\s*$/i;
/**
 * "What is the difference between a draft and an article?": what each of the two is (groups 1 and 2), and a sentence
 * that says what one is ("A draft is an article that is not published yet") tells the difference.
 */
const ASKS_DIFFERENCE = /^\s*what(?:\s+is|\s+are|'s)\s+the\s+differences?\s+between\s+([^?]+?)\s+and\s+([^?]+?)\s*\?*\s*$/i;
/** The stem of "difference", "different", "differ". */
const DIFFERENCE_TERM = tokenizedText('difference').terms[0];
/** A sentence that says what X is ("The semantic firewall is an optional safety layer.") scores this much more. */
const DEFINITION_BONUS = 0.3;
/**
 * …and a glossary's entry for it ("agents – each with a name, description, …") or a sentence that judges it ("The score
 * threshold is too strict.") this much: the sentence that says what it is ("An agent is an assistant that …") answers
 * "What is an agent?" first.
 */
const ENTRY_DEFINITION_BONUS = 0.15;
/**
 * Words a text uses for a question's framing verb (the stem it writes, the stem the question asks): "What does
 * uploading need?" is answered by "Uploading requires the editor role.".
 */
const SAYS_THE_SAME: ReadonlyMap<string, string> = new Map([
  ['requir', 'need'],
  ['need', 'requir'],
]);
/** "To change the theme, start …": for a how-to question, a sentence that says how to do what it asks. */
const INSTRUCTION = /^to\s+([^,:;]+),/;
/** "To set up single sign-on:": the lead-in of a list of steps, and what they do (group 1). */
const LEAD_IN_PURPOSE = /^to\s+([^:]+):\s*$/;
/** …scores this much more when its purpose clause has a question word (as a definition does for "What is X?"). */
const INSTRUCTION_BONUS = DEFINITION_BONUS;
/** Longest subject (in words) a definition is looked for. */
const MAX_DEFINED_WORDS = 6;

/**
 * What a sentence that defines the subject of the question starts with: "(the|a|an) X is|are|was|were" (not followed by
 * a participle: "Drafts are edited …" is no definition) or "X – …", where X is
 * what "What is X?" asks about, or the whole query when it is a few words and no question ("semantic firewall"). A
 * user who asks what something is, or only names it, is best answered by the sentence that says what it is.
 */
function definitionPattern(question: string, isQuestion: boolean): RegExp | undefined {
  const canDo = isQuestion ? ASKS_WHAT_IT_CAN_DO.exec(question)?.[1] : undefined;
  const purpose = isQuestion && canDo === undefined ? ASKS_WHAT_IT_IS_FOR.exec(question) : null;
  const asked = isQuestion && !purpose ? ASKS_WHAT_IT_IS.exec(question) : undefined;
  const difference = isQuestion && canDo === undefined ? ASKS_DIFFERENCE.exec(question) : null;
  const subjects = difference ? [difference[1], difference[2]] : [isQuestion ? (canDo ?? purpose?.[1] ?? purpose?.[2] ?? asked?.[1] ?? asked?.[2]) : question];
  const names: string[] = [];
  for (const subject of subjects) {
    const words = normalize(subject ?? '').match(/[a-z0-9]+/g) ?? [];
    if (words.length === 0 || words.length > MAX_DEFINED_WORDS || tokenizedText(words.join(' ')).terms.length === 0) return undefined;
    // "What are drafts?" is answered by "A draft is …": the last word is read with or without its plural s.
    const named = words.filter((word, index) => index > 0 || !/^(?:an?|the)$/.test(word)).map((word, index, all) => (index === all.length - 1 && word.length > 3 ? word.replace(/s$/, '') : word));
    names.push(named.join('[\\s_-]+'));
  }
  const named = names.length === 1 ? (names[0] as string) : `(?:${names.join('|')})`;
  // "What can an editor do?" is answered by what says what editors can do: "Editors can: …"; it may be named in a bracket
  // or before one: "An admin (administrator) can do everything: …" for an admin and an administrator.
  if (canDo !== undefined) return new RegExp(`^(?:(?:an?|the)\\s+)?(?:[a-z]+\\s+\\()?${named}s?\\)?(?:\\s+\\([^)]*\\))?\\s+(?:can|could|may)\\b`);
  // "What is the agent for?" is answered by what says what it is for, at a sentence's start or after its colon: "For
  // these, use the general agent: the agent is for requests too big for one answer." ("for" or "to" in group 1); what
  // says what it is answers it less well (group 1 empty: read as an entry by definitionKind).
  if (purpose) {
    return new RegExp(
      `(?:^|[:;]\\s+)(?:(?:an?|the)\\s+)?${named}s?\\s+(?:is|are)\\s+(?:(?:[a-z]+ly|meant|used|made|there)\\s+)?((?:for|to)\\b|(?!(?:not|never|also|only|[a-z]+ly\\s+)?[a-z]+(?:ed|en)\\b))`,
    );
  }
  // "Drafts are edited in …" says what is done with them, not what they are.
  // A glossary's entry says it with a dash: "multiple_model – when on, …".
  // The glossary's dash is captured (group 1): such an entry says what a setting holds, not what the thing is.
  return new RegExp(
    `^(?:(?:an?|the)\\s+)?${named}s?(?:\\s+(?:is|are|was|were)\\b(?!\\s+(?:(?:not|never|also|only|[a-z]+ly)\\s+)?[a-z]+(?:ed|en)\\b)|(\\s+[–—]\\s))`,
  );
}

/**
 * For a question that asks what something is ("What is an agent?"): whether a passage has a sentence that says what it
 * is ("An agent is an assistant that works through a request …"), a glossary's entry aside; undefined for any other
 * question. Search ranks such a passage higher (KnowledgeService.search).
 */
export function definitionFinder(question: string): ((passage: string) => boolean) | undefined {
  question = plainQuestion(question);
  if (!ASKS_WHAT_IT_IS.test(question)) return undefined;
  const pattern = definitionPattern(question, true);
  if (pattern === undefined) return undefined;
  return (passage) =>
    analyzedPassage(passage).some((sentence) => {
      if (sentence.kind === 'heading') return false;
      const match = pattern.exec(sentence.normalized);
      return match !== null && definitionKind(match, sentence.normalized) === 'says';
    });
}

/** What follows "X is" in a sentence that judges X rather than says what it is: "too strict", "very slow", "not …". */
const JUDGES_IT = /^\s*(?:too|very|so|quite|rather|not|no|never|still|already)\b/;

/**
 * How a sentence that matched `definitionPattern` defines: it says what the thing is ("An agent is an assistant …",
 * "Templates are documents …"), it is a glossary's entry ("agents – each with …", what a setting holds) or it judges
 * it ("The score threshold is too strict.").
 */
type DefinitionKind = 'says' | 'entry' | 'judges';
function definitionKind(match: RegExpExecArray, normalized: string): DefinitionKind {
  if (match[1] !== undefined) return match[1] === 'for' || match[1] === 'to' ? 'says' : 'entry';
  return JUDGES_IT.test(normalized.slice(match.index + match[0].length)) ? 'judges' : 'says';
}

/** "How do I …", "How can we …", "How to …", "And how do I …": a question whose answer is a procedure. */
const HOW_TO = /^\s*(?:(?:and|but|so|then|now|also|ok|okay)\b[\s,]*)?how\s+(?:do|does|can|could|should|would|may|might|to)\b/i;
/** Where a question goes on to ask something else: "…, and does the desk lend laptops?", "…? Where …", "…; …". */
const FURTHER_QUESTION = /[?;]|,?\s+(?:and|but|or|also)\s+(?=(?:what|how|why|when|where|who|which|whose|does|do|did|is|are|was|were|can|could|should|will|would|may)\b)/i;

/**
 * The question with its action read in the sources' verb when they have none of the user's but one that does the same
 * ("How do I modify an article?" where the guide says edit: "How do I edit an article?"); else as asked. The evidence
 * and the weights then count the verb the sources use, not one no passage has (which would weigh the most).
 */
function inTheSourcesVerb(question: string, sources: readonly Pick<AnswerSource, 'title' | 'text'>[], correctTerm?: (term: string) => string | undefined): string {
  const action = askedAction(question, correctTerm);
  if (action === undefined || sourcesName(sources, action)) return question;
  // The verb of the best-ranked source that has one.
  const others = [...actionStems(action)].filter((stem) => stem !== action);
  const theirs = sources.map((source) => others.find((stem) => sourcesName([source], stem))).find((stem) => stem !== undefined);
  return theirs === undefined ? question : withActionWord(question, theirs);
}

/** An article's title that says how to do something: "How to give feedback on an answer" (its verb in group 1). */
const HOW_TO_TITLE = /^\s*how\s+to\s+([a-z]+)/i;
/**
 * Whether a title says how to do the asked action, or, when the question's verb says little, how to do something:
 * "How to add YouTube video transcripts" for "How do I add a YouTube video?", not "How to use the query logs and their
 * filters" for "How do I filter the logs?".
 */
function titleSaysHowTo(title: string, actions: ReadonlySet<string>): boolean {
  const verb = HOW_TO_TITLE.exec(normalize(title))?.[1];
  if (verb === undefined) return false;
  const [stem] = tokenizedText(verb).terms;
  return actions.size === 0 || (stem !== undefined && actions.has(stem));
}
/** "The steps for uploading files", "instructions to reset …": a request whose answer is a procedure too. */
const ASKS_FOR_STEPS = /\b(?:steps|procedure|instructions)\s+(?:for|to)\b/i;
/** A procedure longer than this many sentences is not quoted whole: its best step stands for it. */
const MAX_STEPS = 10;
/**
 * A how-to question is answered by a numbered list whose heading and steps cover at least this share of its weight
 * (title-only words at TITLE_TERM_DISCOUNT), even when a sentence outside it scored better: "Reviewing and publishing
 * drafts requires the editor role" repeats the question's words, the steps under "Publish" answer it.
 */
const MIN_PROCEDURE_COVERAGE = 0.6;
/**
 * Any question is answered by a list whose heading and lead-in alone cover at least this share of its weight (the
 * procedure's share: the list is said to be about the question)…
 */
const MIN_LIST_COVERAGE = MIN_PROCEDURE_COVERAGE;
/** …and this much more than the best sentence does: the list is about what no sentence says. */
const MIN_LIST_GAIN = 0.1;
/**
 * For a how-to question, a step of a list about another task: "Delete the draft if the video is not useful." is the
 * 7th step of reviewing a transcript, no answer to "How do I delete a draft?" where a sentence says where drafts are
 * deleted.
 */
const OTHER_TASK_STEP_PENALTY = 0.1;

/**
 * "What happens when I revoke an API key?", "What will happen if you delete …", "If I delete a saved query, is it gone
 * from the logs?": a question about what follows an action. A step that does the action ("To revoke an API key, select
 * Revoke…", "Select Delete organisation.") repeats its words and says nothing of what follows; the sentences after it
 * do ("Programs using it are refused from their next call.").
 */
const ASKS_CONSEQUENCE =
  /^\s*(?:what\s+(?:happens|will\s+happen|would\s+happen|happened)\s+(?:when|if|after|once|as\s+soon\s+as)\b|(?:if|after|once|when)\s+(?:i|we|you|someone|somebody|an?\s+\w+)\s+[^,?]+,\s*(?:is|are|was|were|do|does|did|will|would|can|could|should|must|has|have)\b)/;
/**
 * "The CSV download isn't working, what should I do?", "…, should I ask again?", "…, what can I try?": a question about
 * what to do about a problem. A sentence that says the problem repeats the question's words; the one after it that
 * tells what to do answers ("Wait a moment and try again.").
 */
const ASKS_REMEDY = /\bwhat\s+(?:should|can|could|do|must|shall)\s+(?:i|we)\s+(?:do|try|change|tweak|check)\b|\bwhat\s+now\b|(?:^|,\s*)should\s+(?:i|we)\b/;
/** A sentence that tells the reader what to do about a problem: a step, or "Wait …", "Check …", "If it still fails, tell …". */
const REMEDY_TO_TAKE = /^(?:if\s+[^,]+,\s*)?(?:wait|check|try|tell|ask|contact|lower|raise|make\s+sure|rephrase|look|give|write)\b/;
/** A sentence that tells the reader to do something: "Select Publish.", "Under Delete, tick Yes.", "To revoke it, select …". */
const STEP_TO_TAKE = /^(?:(?:to\s+[^,:;]+|(?:under|in|on|beside|from|at)\s+[^,:;]{1,60}),\s*)?(?:then\s+)?(?:select|open|tick|untick|clear|choose|click|press|tap|type|enter|fill\s+in|go\s+to|switch|save|edit|set|add|remove|delete|write|upload|copy|paste|turn|enable|disable|run|restart|start|sign|filter|sort|download|export|publish|create|invite)(?![\w-])/;
/**
 * Whether a sentence says how to do something in itself: "To <purpose>, <step>" ("To find an article, filter the
 * Articles table by its title: …"), where its purpose says the asked action (`purposeSays`).
 */
function saysHowToDoIt(text: string, purposeSays: (text: string) => boolean | undefined): boolean {
  const normalized = normalize(text);
  const purpose = INSTRUCTION.exec(normalized);
  return purpose !== null && purposeSays(text) === true && STEP_TO_TAKE.test(normalized.slice(purpose[0].length).trim());
}
/** Whether a sentence or one of its clauses tells the reader to do something ("To change the logo, the title or the font, choose …"). */
function tellsToDo(text: string): boolean {
  return normalize(text).split(/,\s*/).some((clause) => STEP_TO_TAKE.test(clause));
}
/**
 * Whether a list answers a how-to question whole: numbered, with an item that tells to do something ("- Open the Logs
 * tab."), or made of fragments that only read together ("- uploads,"). A bullet list of facts, each a sentence of its
 * own ("- Only published articles are used to answer questions."), is no procedure: the fact that answers is quoted.
 */
function isProcedure(list: readonly ListSentence[]): boolean {
  return list[0]?.ordered === true || list.some((item) => tellsToDo(item.text) || !/^\p{Lu}/u.test(item.text));
}
/** A first sentence of at most this many words, under a heading that says the question, goes on in the next one. */
const SHORT_SECTION_OPENING_WORDS = 8;
/**
 * A sentence with a pronoun joins the answer's first only with at least this many words (stems) the question does not
 * have: one made of the question's words and a pronoun ("The language model is told it.") answers nothing.
 */
const MIN_NEW_WORDS_OF_A_FURTHER_SENTENCE = 2;
/** A pronoun that stands for something named before: "it", "them", "this" … */
const STANDS_FOR_SOMETHING_BEFORE = /\b(?:it|its|they|them|their|this|that|these|those)\b/;
/** For a question about what follows an action, a step that does it: its words say what to do, not what comes of it. */
const STEP_FOR_CONSEQUENCE_PENALTY = 0.5;
/**
 * "Can a user delete articles?", "May an editor change the bot settings?", "Could the firewall block questions?": whether
 * someone or something other than the asker can do something. A sentence saying who may or what it does answers it ("Users
 * cannot add, edit or delete articles…", "Changing settings requires the admin role."); a step doing it ("Select Create
 * key.") does not, nor one that only shares the question's words ("Users found answers citing this article not helpful.").
 * So do "Who can create organisations?", "Who is allowed to create corrections?" and "Are editors allowed to publish?".
 * "Can I …?" asks how to, and is read as a how-to question.
 */
const ASKS_WHETHER_ONE_CAN =
  /^\s*(?:(?:and|but|so|then|now|also|ok|okay)\b[\s,]*)?(?:(?:can|could|may)\s+(?!(?:i|we|you|one|it|they|he|she|there|this|that|these|those)\b)[a-z]|who\s+(?:can|could|may)\s+[a-z]|who\s+(?:is|are)\s+(?:allowed|permitted|able)\s+to\s+[a-z]|who\s+(?:has|have)\s+(?:the\s+)?(?:right|rights|permission)\s+to\s+[a-z]|(?:is|are)\s+(?!(?:i|we|you|it|there|this|that)\b)(?:\w+\s+){1,3}(?:allowed|permitted|able)\s+to\s+[a-z])/;
/** The indefinite pronouns that stand for a person ("someone"), and the nouns a guide names people by ("a user"). */
const stemsOf = (words: string) => {
  let kept: { language: string; stems: ReadonlySet<string> } | undefined;
  return () => {
    if (kept?.language !== knowledgeLanguage()) kept = { language: knowledgeLanguage(), stems: new Set(tokenizedText(words).terms) };
    return kept.stems;
  };
};
const PERSON_PRONOUN_STEMS = stemsOf('someone somebody anyone anybody everyone everybody');
const PERSON_NOUN_STEMS = stemsOf('user users person people colleague colleagues member members account accounts');
/** What a name on the screen is, in a question ("the Delete all button"): a sentence that says the name says it too. */
const LABEL_KINDS = stemsOf('button buttons field fields tab tabs link links option options box checkbox menu setting settings text column filter view page screen form');
/** Whether stems name what a question's action is done to: the term itself, or for "someone" a person ("a user"). */
function namesObject(stems: ReadonlySet<string>, term: string): boolean {
  return stems.has(term) || (isIndefinitePronounTerm(term) && PERSON_PRONOUN_STEMS().has(term) && [...PERSON_NOUN_STEMS()].some((noun) => stems.has(noun)));
}
/** "Can I edit a published article?", "Could we upload PDFs?": whether the asker can do something. */
const ASKS_WHETHER_I_CAN = /^\s*(?:can|could|may)\s+(?:i|we)\b/i;
/**
 * "Where do I find the logs?", "Where can editors see drafts?": a question about where something is in the product,
 * with the verb that only frames it (see, find, …) in group 1: "You find the query logs on the Logs tab" answers
 * "Where do I see query logs?".
 */
const ASKS_WHERE_IN_THE_PRODUCT =
  /^\s*where\s+(?:(?:do|does|can|could|should|would|will|may)\s+(?:i|we|you|one|users?|editors?|administrators?|admins?|people)\b(?:\s+(see|find|view|get\s+to|access|look\s+at|locate|read)\b)?|(?:is|are)\s+(?:the|my|our|your)\s)/i;
/**
 * A sentence that names a place on a screen ("on the Logs tab", "in the Drafts view", "beside the Dashboard's tabs"):
 * the answer's type for a question about where something is in the product.
 */
const NAMES_A_SCREEN_PLACE =
  /\b(?:on|in|under|from|at|beside)\s+(?:the\s+|your\s+)?(?:[\p{L}\d_'’-]+\s+){0,3}(?:tab|tabs|view|screen|page|menu|form|section|list|table|dashboard|settings|panel|button|link)\b/u;
/** …and scores this much more when it has a question word, beside the answer type's penalty when it names none. */
const NAMES_THE_PLACE_BONUS = 0.3;
/** Words that say who may do what, or what something can do. */
const SAYS_WHO_MAY = /\b(?:can|cannot|may|only|requires?|required|needs?|allow|allows|allowed|permitted|permission)\b/;
/** For a question whether one can do something, a sentence saying who may or what can be done, naming it (`SAYS_WHO_MAY`). */
const SAYS_WHO_MAY_BONUS = 0.2;
/**
 * For a question whether someone can do something, a sentence that names neither the doing nor a verb doing the same,
 * where another sentence does, loses this much: "Can a normal user upload files?" is not answered by "It may take longer
 * than a normal question".
 */
const MISSES_ABILITY_PENALTY = 0.3;

/**
 * Whether a list of steps is about the asked action (`actions`): its heading, its lead-in, its article's title, its
 * first or its last step names it ("Disable a user" / "1. Open Users …" / "… 4. Select Publish."). A list that names it
 * only in a middle step is about something else, of which the action is a part.
 */
function aboutAction(
  analyzed: readonly AnalyzedSentence[],
  steps: readonly ListSentence[],
  heading: Iterable<string>,
  title: ReadonlySet<string>,
  actions: ReadonlySet<string>,
): boolean {
  const names = (stems: Iterable<string> | undefined) => [...(stems ?? [])].some((stem) => actions.has(stem));
  const first = steps[0];
  const lastItem = [...steps].reverse().find((step) => step.startsItem);
  const leadIn = first === undefined ? undefined : analyzed[first.sentenceIndex - 1];
  return (
    names(heading) ||
    names(title) ||
    (leadIn !== undefined && leadIn.kind !== 'heading' && /:$/.test(leadIn.text) && names(leadIn.stems)) ||
    names(first && analyzed[first.sentenceIndex]?.stems) ||
    // The last step with what continues it ("Select Publish. Publishing takes a minute.").
    steps.slice(lastItem ? steps.indexOf(lastItem) : steps.length).some((step) => names(analyzed[step.sentenceIndex]?.stems))
  );
}

/**
 * The share of the question's attainable BM25 score each source reaches (see `RankedSentences.evidence`): a passage
 * that has the question's rarest words, often and side by side, is evidence; one that shares a common word or two
 * is not, however it ranked among the others.
 */
export function passageEvidence(
  question: string,
  sources: readonly Pick<AnswerSource, 'title' | 'text'>[],
  weightOf: (term: string) => number,
  correctTerm?: (term: string) => string | undefined,
): number[] {
  const { k1 } = knowledgeBaseBm25Parameters;
  const proximityWeight = knowledgeBaseBm25Parameters.questionProximityWeight ?? 0;
  const query = parseQuery(question, { correctTerm });
  const weights = new Map<string, number>();
  let attainable = 0;
  for (const [term, queryWeight] of query.terms) {
    if (query.measures?.has(term) && !sourcesName(sources, term)) continue;
    const weight = queryWeight * termWeight(weightOf, term);
    weights.set(term, weight);
    attainable += weight * (k1 + 1);
  }
  const pairWeights = new Map<string, number>();
  for (const pair of query.pairs) {
    const [first, second] = pair.split(' ') as [string, string];
    const weight = proximityWeight * Math.min(weights.get(first) ?? 0, weights.get(second) ?? 0);
    if (weight > 0) {
      pairWeights.set(pair, weight);
      attainable += weight;
    }
  }
  if (attainable <= 0) return sources.map(() => 0);
  return sources.map((source) => {
    const title = tokenizedText(source.title);
    const body = tokenizedText(source.text);
    const frequencies = new Map<string, number>();
    for (const term of title.terms) frequencies.set(term, (frequencies.get(term) ?? 0) + TITLE_WEIGHT);
    for (const term of body.terms) frequencies.set(term, (frequencies.get(term) ?? 0) + 1);
    let score = 0;
    for (const [term, weight] of weights) {
      const frequency = frequencies.get(term) ?? 0;
      if (frequency > 0) score += (weight * frequency * (k1 + 1)) / (frequency + k1);
    }
    const seen = new Set<string>();
    for (const words of [title.words, body.words]) {
      for (let position = 1; position < words.length; position += 1) {
        const pair = pairTerm(words[position - 1] as string, words[position] as string);
        const weight = pairWeights.get(pair);
        if (weight !== undefined && !seen.has(pair)) {
          seen.add(pair);
          score += weight;
        }
      }
    }
    return Math.min(1, score / attainable);
  });
}

/**
 * The first half of `composeExtractiveAnswer`: every sentence of the sources that has a question term, scored and
 * sorted best first (ties: earlier source, then earlier sentence). Null when the question has no search term or
 * no sentence any of them.
 */
export function rankAnswerSentences(
  question: string,
  sources: AnswerSource[],
  weightOf: (term: string) => number,
  correctTerm?: (term: string) => string | undefined,
): RankedSentences | null {
  question = plainQuestion(question);
  const label = namedLabel(question, sources);
  // A few words that start with a task's verb ("upload files", "invite user") ask how to do it, where the sources give
  // steps: "How do I upload files?".
  if (sources.some((source) => NUMBERED_STEPS.test(source.text))) question = asHowToQuestion(question);
  // A how-question in the passive asks how to do it ("How are drafts published?": "How do I publish drafts?") where the
  // sources give steps; elsewhere it asks of a fact ("How is oxygen ranked in abundance?": "third").
  const active = activeHowTo(question);
  if (active !== question && sources.some((source) => NUMBERED_STEPS.test(source.text))) question = active;
  question = inTheSourcesVerb(plainAction(question, correctTerm), sources, correctTerm);
  // The words that only name the kind of answer ("What year") are not what a sentence must say; what a "how large"
  // question measures (size) counts a little, as in the search. A misspelt word is read as the search read it
  // (`correctTerm`, the index's correction).
  const query = parseQuery(question, { answerTypeWordWeight: 0, quantityDimensionWeight: ANSWER_TYPE_WORD_WEIGHT, correctTerm });
  // A measure no source names ("length" for "how long") tells nothing of them; nor does "difference" of the difference
  // between two things, which what each of them is tells ("Different words." is no answer to it).
  const asksDifference = ASKS_DIFFERENCE.test(question);
  // Nor does the verb of "Where do I see X?": where X is says it, whatever verb it uses.
  const framingVerb = ASKS_WHERE_IN_THE_PRODUCT.exec(question)?.[1];
  const framingTerms = new Set(framingVerb === undefined ? [] : tokenizedText(framingVerb).terms);
  const questionTerms = [...query.terms].filter(
    ([term, weight]) =>
      weight > 0 && !(query.measures?.has(term) && !sourcesName(sources, term)) && !(asksDifference && term === DIFFERENCE_TERM) && !framingTerms.has(term),
  );
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
  const questionWords = countWords(question);
  const quotesQuestion = (text: string) => quotesTheQuestion(text, weights, questionWords);

  // Every sentence of every source, once; the question terms each has.
  interface Sentence {
    text: string;
    sourceIndex: number;
    sentenceIndex: number;
    block: number;
    terms: Set<string>;
    /** Question terms the heading over the sentence has and the sentence does not. */
    headingTerms: Set<string>;
    /** Question terms the sentence before it (in its passage) has and it does not. */
    contextTerms: Set<string>;
    /** For a question about what follows an action: whether it is no step itself and comes right after one. */
    followsStep: boolean;
    /** For a question whether one can do something, whether it says who may or what can be done, naming that (`SAYS_WHO_MAY`). */
    saysWhoMay: boolean;
    /** For a question whether someone can do something, whether neither it nor its heading names the doing. */
    missesAbility: boolean;
    /** Whether its heading says all the question does ("A new article is not used in answers"), which asks no steps. */
    headedByQuestion: boolean;
    /** Whether it is the first sentence under a heading that asks with the question's own word ("What a template is"). */
    opensSection: boolean;
    /** Whether it, its heading or its article's title names the action a how-to or can-I question asks about. */
    namesAction: boolean;
    /** Whether it says the name on the screen the question gives (`namedLabel`). */
    namesLabel: boolean;
    pairs: number;
    words: number;
    normalized: string;
    list?: ListSentence[];
    /** For a how-to question, whether it is a step of a list about another task (`aboutAction`). */
    stepOfOtherTask: boolean;
    introduces?: ListSentence[];
    continuedBy?: { leadIn: string; steps: ListSentence[] };
  }
  const sentences: Sentence[] = [];
  const titleTerms = sources.map((source) => new Set(tokenizedText(source.title).terms));
  const action = askedAction(question, correctTerm);
  const actions = actionStems(action);
  const phrasal = askedPhrasalVerb(question.split(FURTHER_QUESTION)[0] ?? question);
  // A how-to question is answered by steps, and by sentences that say its action: its heading is no answer.
  const asksHowTo = HOW_TO.test(question) || ASKS_FOR_STEPS.test(question);
  const asksWhereInTheProduct = ASKS_WHERE_IN_THE_PRODUCT.test(question);
  const personPronoun = [...weights.keys()].find((term) => isIndefinitePronounTerm(term) && PERSON_PRONOUN_STEMS().has(term));
  const questionWord = QUESTION_WORD.exec(normalize(question).trim())?.[1];
  const asksConsequence = ASKS_CONSEQUENCE.test(normalize(question));
  const asksRemedy = !asksHowTo && ASKS_REMEDY.test(normalize(question));
  const asksWhetherOneCan = ASKS_WHETHER_ONE_CAN.test(normalize(question));
  const stepsDoNotAnswer = asksConsequence || asksWhetherOneCan;
  const abilities = asksWhetherOneCan ? actionStems(askedAbility(question, correctTerm)) : new Set<string>();
  // A question about a fact may be answered by a sentence that refers back to what it asks about ("It was finished in
  // 1889."); words asked for without a question, or steps, are said where they are.
  const readsOnFromBefore = query.isQuestion && !asksHowTo;
  // Asked what something does, the sentence after the one that says what it is says what it does, naming it or not.
  const asksWhatItDoes = query.isQuestion && ASKS_WHAT_IT_DOES_DO.test(question);
  const hasAction = (stems: Iterable<string>) => {
    for (const stem of stems) if (actions.has(stem)) return true;
    return false;
  };
  // The question terms each source has anywhere, its title and headings included.
  const sourceTerms = titleTerms.map((terms) => new Set([...terms].filter((term) => weights.has(term))));
  const seen = new Set<string>();
  sources.forEach((source, sourceIndex) => {
    let sentenceIndex = -1;
    let heading = new Set<string>();
    let headingAsks = false;
    let opensSection = false;
    // The stems of the sentence before, in the same section: what it names, the next one often says more of ("The
    // tower was finished in 1889. It was the tallest …").
    let previous: readonly string[] = [];
    let previousIsStep = false;
    const analyzed = analyzedPassage(source.text);
    // The sentences of each list, by block: a list item's list is its block, from its first item on.
    const lists = new Map<number, ListSentence[]>();
    analyzed.forEach((sentence, index) => {
      if (sentence.kind === 'heading') return;
      const list = lists.get(sentence.block);
      const entry = { text: sentence.text, sentenceIndex: index, startsItem: sentence.kind === 'item', ordered: sentence.ordered === true };
      if (list) list.push(entry);
      else if (sentence.kind === 'item') lists.set(sentence.block, [entry]);
    });
    for (const sentence of analyzed) {
      sentenceIndex += 1;
      const { stems, words, key } = sentence;
      for (const stem of stems) if (weights.has(stem)) sourceTerms[sourceIndex]?.add(stem);
      // Headings label content, and a pointer to another article ('See "How to publish drafts".') sends the reader
      // elsewhere: neither is an answer.
      if (sentence.kind === 'heading') {
        previous = [];
        previousIsStep = false;
        heading = new Set(stems);
        headingAsks = questionWord !== undefined && QUESTION_WORD.exec(sentence.normalized)?.[1] === questionWord;
        opensSection = true;
        continue;
      }
      const isOpening = opensSection;
      opensSection = false;
      const before = previous;
      previous = stems;
      // For a question about what follows an action: a sentence that is no step and comes right after one.
      // For a question about what to do about a problem: a sentence that tells what to do, right after one that names it.
      const followsStep =
        (asksConsequence && previousIsStep && !STEP_TO_TAKE.test(sentence.normalized)) ||
        (asksRemedy && before.some((term) => weights.has(term)) && (REMEDY_TO_TAKE.test(sentence.normalized) || STEP_TO_TAKE.test(sentence.normalized)));
      previousIsStep = STEP_TO_TAKE.test(sentence.normalized);
      if (POINTER.test(sentence.text) || SIGNPOST.test(sentence.text)) continue;
      if (seen.has(key)) continue;
      seen.add(key);
      const terms = new Set<string>();
      for (const term of stems) {
        if (weights.has(term)) terms.add(term);
        const asked = SAYS_THE_SAME.get(term);
        if (asked !== undefined && weights.has(asked)) terms.add(asked);
        // "Choose to delete it." does what "How do I remove an article?" asks.
        if (action !== undefined && actions.has(term) && weights.has(action)) terms.add(action);
      }
      // "Delete all removes every draft at once." says what "the Delete all button" is.
      if (label?.test(sentence.text)) for (const term of weights.keys()) if (LABEL_KINDS().has(term)) terms.add(term);
      // "To remove a user, …" says whom "How do I remove someone?" asks about.
      if (personPronoun !== undefined && stems.some((stem) => PERSON_NOUN_STEMS().has(stem))) terms.add(personPronoun);
      // "To sign out, …" does what "How do I log out?" asks.
      if (phrasal !== undefined && weights.has(phrasal.verb) && phrasal.says.test(sentence.normalized)) terms.add(phrasal.verb);
      let pairs = 0;
      for (let position = 1; position < words.length && pairs < MAX_PAIRS; position += 1) {
        if (questionPairs.has(pairTerm(words[position - 1] as string, words[position] as string))) pairs += 1;
      }
      // A sentence that quotes the question as an example ('… for example: "Compare the steps for uploading files and
      // crawling a web site."') tells how to ask it, not what answers it.
      if (quotesQuestion(sentence.text)) continue;
      const introduces = introducedList(analyzed, sentenceIndex, lists);
      // A sentence that announces what follows ("Run this from the project folder:") says nothing without it; only a
      // list is quoted with its lead-in.
      if (/:$/.test(sentence.text) && !introduces) continue;
      // Nor, for a question that steps do not answer (what follows an action, whether one can), does one that announces steps.
      if (stepsDoNotAnswer && introduces && introduces.some((step) => STEP_TO_TAKE.test(normalize(step.text)))) continue;
      const headingTerms = new Set<string>();
      for (const term of heading) if (weights.has(term) && !terms.has(term)) headingTerms.add(term);
      const contextTerms = new Set<string>();
      if (readsOnFromBefore) for (const term of before) if (weights.has(term) && !terms.has(term) && (followsStep || !headingTerms.has(term))) contextTerms.add(term);
      let headingCovers = 0;
      for (const term of heading) headingCovers += weights.get(term) ?? 0;
      const list = sentence.kind === 'item' ? lists.get(sentence.block) : undefined;
      const stepOfOtherTask =
        asksHowTo && action !== undefined && list !== undefined && !aboutAction(analyzed, list, heading, titleTerms[sourceIndex] as Set<string>, actions);
      sentences.push({
        text: sentence.text,
        sourceIndex,
        sentenceIndex,
        block: sentence.block,
        ...(sentence.window ? { window: sentence.window } : {}),
        terms,
        headingTerms,
        contextTerms,
        followsStep,
        saysWhoMay: asksWhetherOneCan && SAYS_WHO_MAY.test(sentence.normalized) && (abilities.size === 0 || stems.some((stem) => abilities.has(stem))),
        missesAbility: abilities.size > 0 && !stems.some((stem) => abilities.has(stem)) && ![...heading].some((stem) => abilities.has(stem)),
        headedByQuestion: !asksHowTo && (weights.size >= MIN_HEADED_QUESTION_TERMS || headingAsks) && headingCovers >= HEADED_BY_QUESTION * totalWeight,
        opensSection: isOpening && headingAsks,
        namesAction: hasAction(stems) || hasAction(heading) || hasAction(titleTerms[sourceIndex] as Set<string>),
        namesLabel: label?.test(sentence.text) === true,
        pairs,
        words: sentence.wordCount,
        normalized: sentence.normalized,
        // A step of another task is no how-to for this one: quoted alone, if at all, never as the whole list.
        list: stepOfOtherTask ? undefined : list,
        stepOfOtherTask,
        introduces,
        continuedBy: continuingList(analyzed, sentenceIndex, lists),
      });
    }
  });
  // A how-to or can-I question asks to do something to something. A sentence that names the action but nothing it is
  // done to, neither itself, its heading nor its article's title ("When it is switched on, every question is screened."
  // for "How do I switch themes?"), tells of something else; so does one that names neither the action nor a verb
  // doing the same (`actionStems`) there ("Select Publish." for "Can I undo a publish?").
  // Only what the how-to part asks is held to this: "How do I replace a lost card, and does the desk lend laptops?"
  // is answered on laptops by a sentence about laptops.
  const actionPart = action === undefined ? new Set<string>() : new Set(tokenizedText(question.split(FURTHER_QUESTION)[0] ?? question).terms);
  // "Something" in "How do I delete something?" is whatever a sentence names: no object it must name; "someone" is a
  // person ("To invite a colleague, …").
  const objects = [...actionPart].filter((term) => term !== action && weights.has(term) && (!isIndefinitePronounTerm(term) || PERSON_PRONOUN_STEMS().has(term)));
  const answersActionPart = (sentence: Sentence) =>
    action === undefined ||
    ![...sentence.terms].some((term) => actionPart.has(term)) ||
    (sentence.namesAction && (objects.length === 0 || objects.some((term) => sentence.terms.has(term) || namesObject(sentence.headingTerms, term) || namesObject(titleTerms[sentence.sourceIndex] ?? new Set(), term))));
  let matching = sentences.filter(
    (sentence) =>
      (sentence.terms.size > 0 || sentence.headedByQuestion || ((sentence.followsStep || asksWhatItDoes) && sentence.contextTerms.size > 0)) && answersActionPart(sentence),
  );
  // A phrasal verb ("How do I log out?") is answered by what says it, when something does: "Select the Logs tab."
  // shares its verb, not its meaning.
  const sayingPhrasal = phrasal === undefined ? [] : matching.filter((sentence) => phrasal.says.test(sentence.normalized));
  if (sayingPhrasal.length > 0) matching = sayingPhrasal;
  if (matching.length === 0) return null;

  // How many sentences have each question term: the rarer among them, the more it tells them apart.
  const sentencesWith = new Map<string, number>();
  for (const sentence of matching) for (const term of sentence.terms) sentencesWith.set(term, (sentencesWith.get(term) ?? 0) + 1);
  const localRarity = new Map(
    [...weights.keys()].map((term) => [
      term,
      Math.pow(Math.log(1 + sentences.length / Math.max(1, sentencesWith.get(term) ?? 0)) / Math.log(1 + sentences.length), LOCAL_RARITY_EXPONENT),
    ]),
  );

  const defines = definitionPattern(question, query.isQuestion);
  const instructs = (normalized: string) => {
    const purpose = asksHowTo ? INSTRUCTION.exec(normalized)?.[1] : undefined;
    if (purpose === undefined) return false;
    const terms = tokenizedText(purpose).terms;
    // "To find an article, …" is no instruction for sorting the articles table: the purpose names the asked action.
    return terms.some((term) => weights.has(term)) && (actions.size === 0 || terms.some((term) => actions.has(term)));
  };
  // Asked whether someone can do something, a sentence that does not name the doing says nothing of it, where another does.
  const abilityNamed = matching.some((sentence) => !sentence.missesAbility);
  const bestSourceScore = Math.max(0, ...sources.map((source) => source.score ?? 0));
  const hasScores = bestSourceScore > 0 && sources.every((source) => typeof source.score === 'number');
  const candidates: Candidate[] = matching.map((sentence) => {
    const title = titleTerms[sentence.sourceIndex] as Set<string>;
    let relevant = 0;
    let relevantTotal = 0;
    let covered = 0;
    // Where something is in the product is said by a sentence that names a place on a screen.
    const typeMatch = asksWhereInTheProduct ? NAMES_A_SCREEN_PLACE.test(sentence.normalized) : hasAnswerType(query.answerType, sentence.normalized, sentence.text);
    for (const [term, weight] of weights) {
      const discounted = weight * (title.has(term) ? TITLE_TERM_DISCOUNT : 1) * (localRarity.get(term) as number);
      relevantTotal += discounted;
      // What a "how big" question measures (size) is said by a sentence that gives a quantity; "Check the file type
      // and size first." names the size and tells none.
      if (typeMatch === false && query.measures?.has(term)) continue;
      if (sentence.terms.has(term)) {
        relevant += discounted;
        covered += weight;
      } else if (sentence.followsStep && sentence.contextTerms.has(term)) {
        // What the step before it did, of which it says what comes.
        relevant += discounted;
        covered += weight;
      } else if (sentence.headingTerms.has(term)) {
        // Under a heading that says the whole question, the section answers it: "Check that it was published." under
        // "A new article is not used in answers".
        const credit = sentence.headedByQuestion ? 1 : HEADING_TERM_CREDIT;
        relevant += credit * discounted;
        covered += credit * weight;
      } else if (sentence.contextTerms.has(term)) {
        // Named by the sentence before: this one often goes on about it ("It was finished in 1889.").
        relevant += CONTEXT_TERM_CREDIT * discounted;
        covered += CONTEXT_TERM_CREDIT * weight;
      }
    }
    const { words } = sentence;
    const definition = defines?.exec(sentence.normalized);
    const definesIt = definition !== undefined && definition !== null;
    const source = sources[sentence.sourceIndex] as AnswerSource;
    const prior = hasScores ? (SOURCE_SCORE_WEIGHT * (source.score as number)) / bestSourceScore : SOURCE_RANK_WEIGHT / (1 + sentence.sourceIndex);
    const score =
      (relevantTotal > 0 ? relevant / relevantTotal : 0) +
      prior +
      PAIR_BONUS * sentence.pairs +
      (definesIt ? (definitionKind(definition, sentence.normalized) === 'says' ? DEFINITION_BONUS : ENTRY_DEFINITION_BONUS) : 0) +
      (sentence.headedByQuestion && sentence.opensSection ? SECTION_OPENING_BONUS : 0) +
      (instructs(sentence.normalized) ? INSTRUCTION_BONUS : 0) +
      (sentence.saysWhoMay ? SAYS_WHO_MAY_BONUS : 0) -
      (sentence.missesAbility && abilityNamed ? MISSES_ABILITY_PENALTY : 0) +
      (sentence.namesLabel ? NAMES_THE_LABEL_BONUS : 0) +
      (asksWhereInTheProduct && typeMatch && sentence.terms.size > 0 ? NAMES_THE_PLACE_BONUS : 0) -
      (typeMatch === false ? ANSWER_TYPE_PENALTY : 0) -
      (sentence.stepOfOtherTask ? OTHER_TASK_STEP_PENALTY : 0) -
      (stepsDoNotAnswer && STEP_TO_TAKE.test(sentence.normalized) ? STEP_FOR_CONSEQUENCE_PENALTY : 0) -
      LENGTH_PENALTY * Math.log(Math.max(words, SHORTEST_SCORED_LENGTH) / LENGTH_REFERENCE);
    return { ...sentence, words, typeMatch, coverage: covered / totalWeight, score, definesIt, definition: definesIt ? definitionKind(definition, sentence.normalized) : undefined };
  });

  // Best score first; ties go to the earlier source, then the earlier sentence.
  candidates.sort((a, b) => b.score - a.score || a.sourceIndex - b.sourceIndex || a.sentenceIndex - b.sentenceIndex);
  const sourceCoverage = sourceTerms.map((terms) => {
    let covered = 0;
    for (const term of terms) covered += weights.get(term) ?? 0;
    return covered / totalWeight;
  });
  const termShares = new Map([...weights].map(([term, weight]) => [term, weight / totalWeight]));
  const actionNamed = action === undefined || [...actions].some((stem) => sourcesName(sources, stem));
  // "How do I sign in with single sign-on?": the steps "To set up single sign-on:" are another task's when the best
  // sentence says how to do the asked one ("To sign in (log in), open the app: the Sign in page offers …").
  const purposeSaysAction = (text: string): boolean | undefined => {
    const purpose = INSTRUCTION.exec(normalize(text))?.[1] ?? LEAD_IN_PURPOSE.exec(normalize(text))?.[1];
    if (purpose === undefined) return undefined;
    if (phrasal !== undefined) return phrasal.says.test(purpose);
    return actions.size > 0 ? tokenizedText(purpose).terms.some((term) => actions.has(term)) : undefined;
  };
  // Where the question names no action of its own ("How do I find an article?": find only frames it), the purpose says
  // the question when it has nearly all its weight.
  const purposeSaysQuestion = (text: string): boolean => {
    const purpose = INSTRUCTION.exec(normalize(text))?.[1];
    if (purpose === undefined) return false;
    const stems = new Set(tokenizedText(purpose).terms);
    let covered = 0;
    for (const [term, weight] of weights) if (stems.has(term)) covered += weight;
    return covered >= HEADED_BY_QUESTION * totalWeight;
  };
  const best = candidates[0];
  const procedure = asksHowTo
    ? bestList(sources, weights, totalWeight, true, 'coverage', actions, quotesQuestion, objects, sayingPhrasal.length > 0 ? (text) => phrasal?.says.test(normalize(text)) === true : undefined)
    : undefined;
  return {
    candidates: candidates.map(({ text, sourceIndex, sentenceIndex, block, window, terms, contextTerms, followsStep, coverage, typeMatch, score, list, introduces, continuedBy, definesIt, definition, headedByQuestion }) => ({
      text,
      sourceIndex,
      sentenceIndex,
      block,
      ...(window ? { window } : {}),
      // What comes of a step says what the step did: a further sentence naming it says nothing new.
      terms: followsStep ? new Set([...terms, ...contextTerms]) : terms,
      coverage,
      typeMatch,
      score,
      list,
      introduces,
      continuedBy,
      ...(definesIt ? { defines: true } : {}),
      ...(definition ? { definition } : {}),
      ...(headedByQuestion ? { headedByQuestion } : {}),
      ...(asksHowTo && !list && saysHowToDoIt(text, (sentence) => purposeSaysAction(sentence) ?? purposeSaysQuestion(sentence)) ? { saysHow: true } : {}),
    })),
    sourceCoverage,
    termShares,
    evidence: passageEvidence(question, sources, weightOf, correctTerm),
    words: candidates.map((candidate) => candidate.words),
    asksHowTo,
    ...(ASKS_WHETHER_I_CAN.test(question) ? { asksWhetherICan: true } : {}),
    asksWhatItIs: query.isQuestion && defines !== undefined,
    ...(asksWhatItDoes && defines !== undefined ? { asksWhatItDoes: true } : {}),
    asksConsequence,
    ...(!asksWhereInTheProduct && QUANTITY_TYPES.has(query.answerType) ? { asksQuantity: true } : {}),
    stepsDoNotAnswer,
    actionMissing: actionNamed ? undefined : action,
    // Nor are steps that do not say the name on the screen the question gives, where a sentence does ("How do I use
    // Delete all?").
    procedure: procedure && !(label !== undefined && best?.namesLabel === true && !saysLabel(label, procedure)) && !(procedure.leadIn !== undefined && purposeSaysAction(procedure.leadIn) === false && best !== undefined && purposeSaysAction(best.text) === true) ? procedure : undefined,
    // For a how-to question, a list about another action is none ("To find an article, …:" for "How do I sort …?").
    list: bestList(sources, weights, totalWeight, false, 'contextCoverage', asksHowTo ? actions : new Set(), quotesQuestion),
  };
}

/**
 * The list of the sources (2 to MAX_STEPS sentences; numbered only, for a procedure) whose heading, lead-in and items
 * (`by` coverage), or heading and lead-in alone (`by` contextCoverage), cover most of the question's weight; words
 * found only in its article's title count TITLE_TERM_DISCOUNT. Ties go to the better-ranked source.
 */
function bestList(
  sources: readonly AnswerSource[],
  weights: ReadonlyMap<string, number>,
  totalWeight: number,
  numberedOnly: boolean,
  by: 'coverage' | 'contextCoverage' = 'coverage',
  actions: ReadonlySet<string> = new Set(),
  quotesQuestion: (text: string) => boolean = () => false,
  objects: readonly string[] = [],
  mustSay?: (text: string) => boolean,
): RankedList | undefined {
  let best: RankedList | undefined;
  sources.forEach((source, sourceIndex) => {
    const title = new Set(tokenizedText(source.title).terms);
    let heading: readonly string[] = [];
    let previous: AnalyzedSentence | undefined;
    let list: { block: number; steps: ListSentence[]; context: Set<string>; stems: Set<string>; heading: readonly string[]; leadIn?: string } | undefined;
    const coverageOf = (stems: ReadonlySet<string>, titleDiscount = TITLE_TERM_DISCOUNT) => {
      let covered = 0;
      for (const [term, weight] of weights) {
        if (stems.has(term)) covered += weight;
        else if (title.has(term)) covered += weight * titleDiscount;
      }
      return covered / totalWeight;
    };
    const consider = () => {
      // Steps that quote the question as an example of what to type are about asking it.
      if (!list || list.steps.length < 2 || list.steps.length > MAX_STEPS || list.steps.some((step) => quotesQuestion(step.text))) return;
      // Steps that name neither the asked action nor a verb doing the same, nor under a title that does, do something else.
      const { stems } = list;
      const namesAction = [...actions].some((stem) => stems.has(stem));
      if (actions.size > 0 && !namesAction && ![...actions].some((stem) => title.has(stem))) return;
      // Steps that name it only in the middle are another task's, of which it is a part.
      if (numberedOnly && actions.size > 0 && !aboutAction(analyzed, list.steps, list.heading, title, actions)) return;
      // So do steps that name nothing the action is done to, nor under a title that does ("Choose to edit or delete
      // it." of a comment, for "How do I update a draft?").
      if (objects.length > 0 && !objects.some((term) => namesObject(stems, term) || namesObject(title, term))) return;
      // And steps headed by another action than the one asked are for that one ("Delete an article" for "How do I find
      // an article?", where a step says "Find the article"; "Disable a user or change a role" stays for disabling).
      const { heading: headed } = list;
      if (numberedOnly && headed.some((stem) => isActionStem(stem) && !weights.has(stem)) && !headed.some((stem) => actions.has(stem))) return;
      // Steps that only their article's title ties to the action, and whose lead-in says they are for another task, are
      // that task's ("To find an article, filter the Articles table …:" for "How do I sort the articles table?" in "How to
      // filter and sort the articles table").
      const purpose = list.leadIn === undefined ? undefined : (INSTRUCTION.exec(normalize(list.leadIn)) ?? LEAD_IN_PURPOSE.exec(normalize(list.leadIn)))?.[1];
      if (actions.size > 0 && !namesAction && purpose !== undefined && !tokenizedText(purpose).terms.some((stem) => actions.has(stem))) return;
      // Steps that do not say the phrasal verb asked, where a sentence does ("How do I log out?").
      if (mustSay && !mustSay(list.leadIn ?? '') && !list.steps.some((step) => mustSay(step.text))) return;
      // Steps that "delete" do what "remove" asks: the action counts as covered.
      const asked = [...actions][0];
      if (namesAction && asked !== undefined) stems.add(asked);
      if (asked !== undefined && [...actions].some((stem) => list?.context.has(stem))) list.context.add(asked);
      const titledCoverage = coverageOf(list.stems, 1);
      const found = {
        sourceIndex,
        steps: list.steps,
        leadIn: list.leadIn,
        coverage: coverageOf(list.stems),
        titledCoverage,
        namesAction,
        titleSaysHow: numberedOnly && titleSaysHowTo(source.title, actions) && coverageOf(new Set(), 1) >= 1 - 1e-9,
        contextCoverage: coverageOf(list.context),
        contextNamesAction: asked !== undefined && list.context.has(asked),
      };
      // Steps under a title that says how to do what is asked come first; of two lists that cover the question alike,
      // the one whose heading and lead-in say more of it ("Add an article" over "Create a correction" for "How do I
      // create an article?").
      if (best && found.titleSaysHow !== best.titleSaysHow) {
        if (found.titleSaysHow) best = found;
      } else if (!best || found[by] > best[by] + 1e-9 || (found[by] >= best[by] - 1e-9 && found.contextCoverage > best.contextCoverage)) best = found;
    };
    const analyzed = analyzedPassage(source.text);
    analyzed.forEach((sentence, index) => {
      if (list && sentence.block !== list.block) {
        consider();
        list = undefined;
      }
      if (sentence.kind === 'heading') {
        heading = sentence.stems;
        previous = undefined;
        return;
      }
      if (!list && sentence.kind === 'item' && (sentence.ordered || !numberedOnly)) {
        const leadIn = previous && previous.kind !== 'item' && /:$/.test(previous.text) ? previous : undefined;
        const context = new Set([...heading, ...(leadIn?.stems ?? [])]);
        list = { block: sentence.block, steps: [], context, stems: new Set(context), heading, leadIn: leadIn?.text };
      }
      previous = sentence;
      if (!list) return;
      list.steps.push({ text: sentence.text, sentenceIndex: index, startsItem: sentence.kind === 'item', ordered: sentence.ordered === true });
      for (const stem of sentence.stems) list.stems.add(stem);
    });
    consider();
  });
  return best;
}

/** A list item that names a thing and says what it is after a dash ("mmr_lambda – from 0 … to 1 …"): an entry of a glossary. */
const GLOSSARY_ENTRY = /^[^–—:.]{1,80}\s[–—]\s/u;
/** Whether a sentence is a glossary's entry for something the question names ("mmr_lambda" for "What does mmr_lambda do?"). */
function isEntryAsked(candidate: AnswerCandidate): boolean {
  const entry = GLOSSARY_ENTRY.exec(candidate.text);
  return entry !== null && tokenizedText(entry[0]).terms.some((term) => candidate.terms.has(term));
}

/**
 * A list item that starts in lower case: the end of its lead-in's sentence ("You can: - give it a thumbs up,"), unless
 * it says what is asked about ("multiple_model is …" for "What is multiple_model?") or is a glossary's entry for
 * something the question names (ADR 273); an entry for something else ("bot_prefix – text …") still only completes
 * its list.
 */
const isListFragment = (candidate: AnswerCandidate) => candidate.list !== undefined && /^\p{Ll}/u.test(candidate.text) && candidate.defines !== true && !isEntryAsked(candidate);

/**
 * The second half of `composeExtractiveAnswer`: the best sentence when the best passage is evidence enough and the
 * sentence covers enough of the question, and further sentences (up to `maxSentences`, `maxWords` in all) only for
 * question words the chosen ones miss.
 */
export function selectAnswerSentences(ranked: RankedSentences, options: ExtractiveAnswerOptions = {}): ExtractiveAnswer | null {
  const settings = { ...defaultExtractiveAnswerOptions, ...options };
  const maxSentences = Math.max(1, Math.floor(settings.maxSentences));
  const { minCoverage, minSourceCoverage, minFreshCoverage, maxScoreGap, minEvidence, maxWords, maxRedundancy } = settings;
  const { candidates, sourceCoverage, termShares, evidence, words } = ranked;
  // A lower-case list item only completes its list's lead-in ("give it a thumbs up or thumbs down,"): alone it is no
  // answer, and the next sentence stands in for it (a how-to question gets its whole list below).
  const firstPosition = ranked.asksHowTo ? 0 : Math.max(0, candidates.findIndex((candidate) => !isListFragment(candidate)));
  const first = candidates[firstPosition];
  if (first === undefined || first.coverage < minCoverage) return null;
  if (Math.max(0, ...evidence) < minEvidence) return null;
  if ((sourceCoverage[first.sourceIndex] ?? 0) < minSourceCoverage) return null;
  if (ranked.actionMissing !== undefined) return null;

  // A how-to question answered by a step of a list gets the whole list: one step alone ("Open the Add article
  // form.") does not tell how. A numbered list about the question answers it even when another sentence scored better.
  // Any question: a list whose heading and lead-in say what the question asks, where no sentence does, is the answer
  // ("What file types can I upload?": "Supported file types / You can upload: - PDF documents, - …"); but where the
  // question asks for a quantity or a time and the best sentence gives one, that sentence says it ("How big can an
  // uploaded file be?": "By default, each file can be up to 25 MB.", not the steps of an upload).
  // A question about what follows an action, or whether someone can do it, is not answered by the steps that do it.
  const stepsThatDoNotAnswer = (steps: readonly { text: string }[]) => ranked.stepsDoNotAnswer === true && steps.some((step) => STEP_TO_TAKE.test(normalize(step.text)));
  // A sentence that says how to do the asked action itself answers before a list whose heading and lead-in say less of
  // the question: "To find an article, filter the Articles table by its title: …", not the steps of publishing one of
  // which is "Find your article and check it.".
  // So does one that also names what the list's steps leave out: "To add a user to a group, open Users, …", not the steps
  // that create a group, for "How do I add a user to a group?".
  const saidInOne =
    first.saysHow === true &&
    ranked.procedure !== undefined &&
    ((ranked.procedure.contextNamesAction !== true && ranked.procedure.contextCoverage < first.coverage) || first.coverage - ranked.procedure.coverage >= MIN_LIST_GAIN);
  const procedure =
    !saidInOne &&
    ranked.procedure &&
    (ranked.procedure.coverage >= MIN_PROCEDURE_COVERAGE ||
      ((ranked.procedure.namesAction || ranked.procedure.titleSaysHow) && ranked.procedure.titledCoverage >= MIN_PROCEDURE_COVERAGE))
      ? ranked.procedure
      : (ranked.asksHowTo || (ranked.asksWhetherICan === true && first.list?.[0]?.ordered === true)) && first.list && first.list.length > 1 && first.list.length <= MAX_STEPS && isProcedure(first.list)
        ? { sourceIndex: first.sourceIndex, steps: first.list, leadIn: undefined }
        : ranked.list &&
            first.typeMatch !== true &&
            !stepsThatDoNotAnswer(ranked.list.steps) &&
            ranked.list.contextCoverage >= MIN_LIST_COVERAGE &&
            ranked.list.contextCoverage - first.coverage >= MIN_LIST_GAIN
          ? ranked.list
          : first.introduces && first.introduces.length > 1 && first.introduces.length <= MAX_STEPS && !stepsThatDoNotAnswer(first.introduces)
            ? { sourceIndex: first.sourceIndex, steps: first.introduces, leadIn: first.text }
            : first.continuedBy && first.continuedBy.steps.length > 1 && first.continuedBy.steps.length <= MAX_STEPS && !stepsThatDoNotAnswer(first.continuedBy.steps)
              ? { sourceIndex: first.sourceIndex, steps: first.continuedBy.steps, leadIn: first.continuedBy.leadIn, preface: first.text }
              : undefined;
  if (procedure) {
    let step = 0;
    const steps: ExtractiveAnswer['sentences'] = procedure.steps.map(({ text, startsItem }) => {
      if (startsItem || step === 0) step += 1;
      return { text, sourceIndex: procedure.sourceIndex, step };
    });
    if (procedure.leadIn) steps.unshift({ text: procedure.leadIn, sourceIndex: procedure.sourceIndex });
    if ('preface' in procedure && procedure.preface) steps.unshift({ text: procedure.preface, sourceIndex: procedure.sourceIndex });
    const numbered = procedure.steps[0]?.ordered === true;
    return {
      text: layOutAnswer(steps, () => `[${procedure.sourceIndex + 1}]`, numbered),
      citedSourceIndexes: [procedure.sourceIndex],
      sentences: steps,
      numbered,
    };
  }

  const chosen: AnswerCandidate[] = [first];
  const covered = new Set(first.terms);
  const said = new Set(tokenizedText(first.text).terms);
  let chosenWords = words[firstPosition] ?? 0;
  for (const [position, candidate] of candidates.entries()) {
    if (position === firstPosition) continue;
    if (chosen.length >= maxSentences) break;
    if (chosen.some((one) => one.sourceIndex === candidate.sourceIndex && overlaps(one.window, candidate.window))) continue;
    // Short answers: a further sentence only while the answer stays within maxWords.
    if (chosenWords + (words[position] ?? 0) > maxWords) continue;
    // A sentence that announces a list ("You can:") says nothing without it, nor an item that only completes its list's
    // lead-in ("add, edit or delete comments,").
    if (candidate.introduces || isListFragment(candidate)) continue;
    // Nor, asked what follows an action or whether someone can do it, does a step that does it.
    if (ranked.stepsDoNotAnswer === true && STEP_TO_TAKE.test(normalize(candidate.text))) continue;
    // Asked how to do something and answered by a step, a further sentence is another step, or it tells of something
    // else: "Prompt templates – the instructions given to the language model." after "To set up a language model, set …".
    // Answered by a section whose heading says the question ("A new article is not used in answers"), the answer is
    // that section's: a sentence from elsewhere ("It shows which articles are working well.") answers another question.
    if (first.headedByQuestion === true && candidate.headedByQuestion !== true) continue;
    if (ranked.asksHowTo && STEP_TO_TAKE.test(normalize(first.text)) && !tellsToDo(candidate.text)) continue;
    // A sentence that says what the asked thing is answers "What is …?" whole: "Submit the correction." adds nothing to
    // "A correction is a draft article made of …".
    // Nor does a glossary's entry or a judgement add to a sentence that says what it is: "agents – each with a name, …"
    // tells of a setting, after "An agent is an assistant that …".
    // Asked what it does, the sentence that goes on from the one that says what it is tells what it does.
    const saysWhatItDoes =
      ranked.asksWhatItDoes === true && first.definition === 'says' && candidate.sourceIndex === first.sourceIndex && candidate.sentenceIndex === first.sentenceIndex + 1 && candidate.block === first.block;
    if (saysWhatItDoes) {
      chosen.push(candidate);
      chosenWords += words[position] ?? 0;
      for (const term of candidate.terms) covered.add(term);
      for (const stem of tokenizedText(candidate.text).terms) said.add(stem);
      continue;
    }
    if (ranked.asksWhatItIs === true && first.defines === true && (candidate.defines !== true || (first.definition === 'says' && candidate.definition !== 'says'))) continue;
    // When the best sentence lacks the kind of answer asked for (a number, a frequency, a year) and another one on the
    // point has it, that one joins whatever its score: it is where the answer is.
    const carriesMissingType = first.typeMatch === false && candidate.typeMatch === true && candidate.sourceIndex === first.sourceIndex && candidate.terms.size >= 2;
    // A short first sentence of a section that answers the question goes on in the next one ("Check that it was
    // published. Articles added with the form … are drafts until someone selects Publish …").
    const goesOnWithIt =
      first.headedByQuestion === true && candidate.headedByQuestion === true && candidate.sourceIndex === first.sourceIndex &&
      candidate.sentenceIndex === first.sentenceIndex + 1 && (words[firstPosition] ?? 0) <= SHORT_SECTION_OPENING_WORDS;
    if (!carriesMissingType && !goesOnWithIt && first.score - candidate.score > maxScoreGap) continue;
    let fresh = 0;
    for (const term of candidate.terms) if (!covered.has(term)) fresh += termShares.get(term) ?? 0;
    // A further sentence must bear on the question where the chosen ones do not.
    if (fresh < minFreshCoverage && !carriesMissingType) continue;
    const stems = tokenizedText(candidate.text).terms;
    if (stems.length > 0 && stems.filter((stem) => said.has(stem)).length / stems.length > maxRedundancy) continue;
    // A further sentence made of the question's words and a pronoun ("The language model is told it.") says nothing
    // where it stands: what the pronoun stands for is in the sentence before, which is not in the answer.
    if (new Set(stems.filter((stem) => !termShares.has(stem))).size < MIN_NEW_WORDS_OF_A_FURTHER_SENTENCE && STANDS_FOR_SOMETHING_BEFORE.test(normalize(candidate.text))) continue;
    for (const stem of stems) said.add(stem);
    chosen.push(candidate);
    chosenWords += words[position] ?? 0;
    for (const term of candidate.terms) covered.add(term);
  }

  // Asked for a quantity or a time, sentences that give none and say little of the question answer another question.
  if (ranked.asksQuantity === true && chosen.every((one) => one.typeMatch === false) && first.coverage < MIN_COVERAGE_WITHOUT_QUANTITY) return null;
  chosen.sort((a, b) => a.sourceIndex - b.sourceIndex || a.sentenceIndex - b.sentenceIndex);
  const answer = chosen.map(({ text, sourceIndex }) => ({ text, sourceIndex }));
  return {
    text: answer.map(({ text, sourceIndex }) => `${text} [${sourceIndex + 1}]`).join(' '),
    citedSourceIndexes: [...new Set(answer.map(({ sourceIndex }) => sourceIndex))].sort((a, b) => a - b),
    sentences: answer,
  };
}
