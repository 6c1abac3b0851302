import { isEnglishWord } from './spelling';
import { knowledgeLanguage, normalize, plainQuestion, tokenizeWithWords } from './text';

/**
 * What a question asks for, read from its wording: a number ("How many", "What percentage"), a year ("What
 * year", "In which year"), a date or time ("When", "What day"), a person ("Who", "Whose") or a place ("Where").
 * Undefined when the wording does not say (a claim, "What is …", "Why …").
 */
export type AnswerType = 'number' | 'frequency' | 'year' | 'date' | 'person' | 'place';

/** A search query, read from the user's text by `parseQuery`. */
export interface Query {
  /** The distinct search terms (stems), in order, each with its query weight (1 for a word of the question). */
  terms: ReadonlyMap<string, number>;
  /** Adjacent words of the query, in order and each once, as `pairTerm` keys ("super bowl"). */
  pairs: readonly string[];
  /** Whether the text asks a question (a question word or an inverted auxiliary first, or a question mark last). */
  isQuestion: boolean;
  answerType: AnswerType | undefined;
  /**
   * Terms added for what a "how large …" question measures ("size"): where no passage has one, it tells nothing of
   * them and is left out of what they could cover (a word no passage has would otherwise weigh the most).
   */
  measures?: ReadonlySet<string>;
}

export interface QueryParsingOptions {
  /** Query weight of the words that name what a question asks for ("many", "year"); default ANSWER_TYPE_WORD_WEIGHT. */
  answerTypeWordWeight?: number;
  /**
   * Weight of what a "how large / how far …" question measures ("size", "distance"; default `answerTypeWordWeight`): a
   * passage or sentence naming it is about the asked quantity even where the adjective is not.
   */
  quantityDimensionWeight?: number;
  /** Query weight of the verbs that frame a question's request ("how do I get …"); default ANSWER_TYPE_WORD_WEIGHT. */
  requestVerbWeight?: number;
  /**
   * The indexed term an unknown term misspells, if any (`Bm25Index.correction`): a query word is read as its
   * correction, unless the query capitalises it past its first word (a name, not a typo).
   */
  correctTerm?: (stem: string) => string | undefined;
}

/**
 * Query weight of the word that names the kind of answer a question wants ("How *many* …", "What *year* …"). Such
 * a word describes the answer, not the passage: the sentence "The war ended in 1945" says neither "year" nor
 * "what". Chosen on squad-dev-even (bench/tune.ts); claims have no such words, so SciFact is unaffected.
 */
export const ANSWER_TYPE_WORD_WEIGHT = 0.3;

/** The key of an adjacent pair of stems among a chunk's terms: stems never contain a space. */
export function pairTerm(first: string, second: string): string {
  return `${first} ${second}`;
}

/** Whether a term key names an adjacent pair of stems rather than a stem. */
export function isPairTerm(term: string): boolean {
  return term.includes(' ');
}

/** E-mail addresses and web addresses. */
const CONTACT_DETAILS = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+|\bhttps?:\/\/\S+|\bwww\.\S+/g;
/**
 * "How do I invite someone?": an indefinite pronoun stands for whatever a passage names ("a colleague"); at full weight,
 * a word no passage has, it would weigh the most and turn the question away. In an English question it weighs as a
 * request's verb does, so that "To make someone an editor, …" still counts it.
 */
/** Words that only stress a question ("What *exactly* is a correction?"): no search term, as the passage that answers need not use them. */
const QUESTION_FILLERS: ReadonlySet<string> = new Set(['exactly', 'actually', 'really', 'basically', 'precisely', 'please']);
const INDEFINITE_PRONOUNS: ReadonlySet<string> = new Set(['someone', 'somebody', 'anyone', 'anybody', 'everyone', 'everybody', 'something', 'anything', 'everything']);
/** The terms of the indefinite pronouns, which name nothing in particular that an action is done to. */
export function isIndefinitePronounTerm(term: string): boolean {
  return knowledgeLanguage() === 'en' && [...INDEFINITE_PRONOUNS].some((word) => tokenizeWithWords(word).terms[0] === term);
}

/**
 * "upload files", "Invite user", "reset password": a request of two to five words, no question, that starts with the verb
 * of a task one does in a product. It asks how to do it, as a question does: it is searched unexpanded, and the answerer
 * reads it as "How do I …?" where the passages found give steps.
 */
export const TASK_REQUEST =
  /^\s*(?:add|create|delete|remove|edit|change|update|upload|import|download|export|publish|unpublish|crawl|invite|reset|set|configure|enable|disable|rename|save|share|filter|sort|install|run|start|stop|restore|review|approve|rate|switch|move|copy|connect|turn|give|revoke|correct|comment)(?:\s+[^\s?]+){1,4}\s*$/i;

/** A task request ("upload files") asked as the how-to question it is ("How do I upload files?"); any other text as it is. */
export function asHowToQuestion(text: string): string {
  text = plainQuestion(text);
  return knowledgeLanguage() === 'en' && TASK_REQUEST.test(text) ? `How do I ${text.trim()}?` : text;
}

const QUESTION_OPENERS: ReadonlySet<string> = new Set([
  'what', 'which', 'who', 'whom', 'whose', 'when', 'where', 'why', 'how',
  'is', 'are', 'was', 'were', 'do', 'does', 'did', 'can', 'could', 'should', 'would', 'will', 'shall', 'may',
  'has', 'have', 'had',
]);

/** The auxiliaries a yes-or-no question opens with. */
const YES_NO_OPENERS: ReadonlySet<string> = new Set([...QUESTION_OPENERS].filter((word) => !word.startsWith('wh') && word !== 'how'));

/** Verbs that frame a request in a question rather than name what it is about. */
const REQUEST_VERBS: ReadonlySet<string> = new Set([
  'get', 'gets', 'got', 'getting', 'make', 'makes', 'made', 'find', 'finds', 'need', 'needs', 'want', 'wants',
  'go', 'goes', 'take', 'takes', 'give', 'gives', 'put', 'keep', 'let', 'know', 'see', 'tell', 'show', 'happen',
  'happens', 'mean', 'means',
]);

/**
 * Verbs that only say something is there ("Which roles *exist*?", as "What roles are there?"): in a question they are
 * no search term, as "there are" is none. A passage that answers lists the things, and rarely says that they exist.
 */
const EXISTENTIAL_VERBS: ReadonlySet<string> = new Set(['exist', 'exists', 'existed', 'existing']);

/** Words after "how" that ask for a quantity ("how many", "how long"). */
const HOW_QUANTITY = 'many|much|long|often|far|old|big|large|tall|high|wide|deep|fast|heavy|few';
/**
 * What a "how large", "how far" … question measures, as a text that gives the answer may name it ("Size limit: up to
 * 25 MB"): searched at the answer-type word's weight beside that word.
 */
const QUANTITY_DIMENSIONS: Readonly<Record<string, string>> = {
  big: 'size', large: 'size', long: 'length', far: 'distance', old: 'age', tall: 'height', high: 'height', wide: 'width',
  deep: 'depth', fast: 'speed', heavy: 'weight',
};
/** Words after "what"/"which" that name the kind of answer, with the type each asks for. */
const WHAT_KINDS: Readonly<Record<string, AnswerType | undefined>> = {
  year: 'year', years: 'year',
  day: 'date', days: 'date', date: 'date', dates: 'date', month: 'date', months: 'date', century: 'date',
  centuries: 'date', decade: 'date', decades: 'date', era: 'date', period: 'date', time: 'date', season: 'date',
  percent: 'number', percentage: 'number', number: 'number', amount: 'number', size: 'number', age: 'number',
  proportion: 'number', share: 'number',
  name: undefined, type: undefined, types: undefined, kind: undefined, kinds: undefined, sort: undefined,
};
const WHAT_KIND_WORDS = Object.keys(WHAT_KINDS).join('|');
/** "How many", "what year", "which type": the question word, then the answer-type word (group 2). */
const ANSWER_TYPE_PHRASE = new RegExp(`\\b(?:(how)\\s+(${HOW_QUANTITY})|(what|which|whose)\\s+(${WHAT_KIND_WORDS}))\\b`, 'g');
/** "What is the name of", "what was the percentage of": the answer-type word is group 1. */
const ANSWER_TYPE_OF = new RegExp(`\\b(?:what|which)\\s+(?:is|was|are|were)\\s+(?:the|a|an)\\s+(${WHAT_KIND_WORDS})\\s+of\\b`, 'g');

/**
 * Nouns that name a bound ("What is the upload limit?", "What's the maximum file size?"): a what/which question about
 * one asks for a number, though the noun stays a search term (a text that gives the bound may name it).
 */
const BOUND_NOUNS: ReadonlySet<string> = new Set(['limit', 'limits', 'maximum', 'minimum', 'max', 'quota', 'cap']);

/** Superlatives of a quantity: with a modal after them ("What's the biggest file I can upload?") they ask for a bound. */
const QUANTITY_SUPERLATIVES: ReadonlySet<string> = new Set(['biggest', 'largest', 'longest', 'smallest', 'shortest', 'highest', 'lowest', 'most', 'fewest', 'least']);
/** What a superlative bound measures, as a text that gives the bound may name it ("The upload limit is 25 MB"). */
const SUPERLATIVE_DIMENSIONS: Readonly<Record<string, string>> = {
  biggest: 'size limit', largest: 'size limit', smallest: 'size limit', longest: 'length limit', shortest: 'length limit', most: 'limit', fewest: 'limit', least: 'limit',
};
const MODALS: ReadonlySet<string> = new Set(['can', 'could', 'may', 'might']);
/** "What's the biggest file I can upload?", "What is the longest video we may import?": the bound of what one can do. */
const asksBoundOfAbility = (words: readonly string[]) => {
  const superlative = words.findIndex((word) => QUANTITY_SUPERLATIVES.has(word));
  return superlative >= 0 && words.slice(superlative + 1).some((word) => MODALS.has(word));
};

function answerTypeOf(words: string[], phrases: string[]): AnswerType | undefined {
  for (const phrase of phrases) {
    const [opener, kind] = phrase.split(/\s+/) as [string, string];
    if (opener === 'how') return kind === 'often' ? 'frequency' : 'number';
    const type = WHAT_KINDS[kind];
    if (type) return type;
  }
  // A question that opens with an auxiliary asks yes or no: a "when" or "where" in it joins a clause ("Will I get an
  // email when a draft is waiting?"), it asks for no time or place.
  if (YES_NO_OPENERS.has(words[0] ?? '')) return undefined;
  for (const word of words) {
    if (word === 'who' || word === 'whom' || word === 'whose') return 'person';
    if (word === 'where') return 'place';
    if (word === 'when') return 'date';
    if ((word === 'what' || word === 'which') && (words.some((other) => BOUND_NOUNS.has(other)) || asksBoundOfAbility(words))) return 'number';
    if (word === 'how' || word === 'what' || word === 'which' || word === 'why') return undefined;
  }
  return undefined;
}

/**
 * Reads a query: its search terms with their weights, its adjacent word pairs, whether it is a question and what
 * kind of answer it asks for. The words that only name the kind of answer ("How many …", "What year …") weigh
 * `answerTypeWordWeight` and make no pairs.
 */
export function parseQuery(text: string, options: QueryParsingOptions = {}): Query {
  text = plainQuestion(text);
  const answerTypeWeight = options.answerTypeWordWeight ?? ANSWER_TYPE_WORD_WEIGHT;
  const requestVerbWeight = options.requestVerbWeight ?? ANSWER_TYPE_WORD_WEIGHT;
  // Contact details a user adds ("my email is x@y.z, how do I …") are not what they ask about.
  const normalized = normalize(text).replace(CONTACT_DETAILS, ' ');
  const words = normalized.match(/[a-z0-9]+/g) ?? [];
  const isQuestion = /\?\s*$/.test(text) || QUESTION_OPENERS.has(words[0] ?? '') || (knowledgeLanguage() === 'en' && TASK_REQUEST.test(text));

  const phrases: string[] = [];
  const answerTypeWords: string[] = [];
  let searched = normalized;
  if (isQuestion) {
    // The answer-type word is cut out: it neither counts as a search term (unless weighted) nor makes pairs.
    searched = searched.replace(ANSWER_TYPE_OF, (match, word: string) => {
      phrases.push(`what ${word}`);
      answerTypeWords.push(word);
      return match.replace(new RegExp(`\\b${word}\\b`), ' ');
    });
    searched = searched.replace(ANSWER_TYPE_PHRASE, (match, how?: string, quantity?: string, what?: string, kind?: string) => {
      const word = (quantity ?? kind) as string;
      phrases.push(`${how ?? what} ${word}`);
      answerTypeWords.push(word);
      return `${how ?? what} `;
    });
  }

  const tokenized = tokenizeWithWords(searched);
  let { terms: stems, words: wordStems } = tokenized;
  const { correctTerm } = options;
  if (correctTerm) {
    // Names are capitalised: "Zorblax" is someone the knowledge base does not know, not a typo of "zebra". An English
    // word the knowledge base lacks ("hopeless") is not a typo of one it has ("homeless").
    // (The word list is read only when some word has a correction to check.)
    const corrections = new Map<string, string>();
    for (const stem of new Set([...stems, ...wordStems])) {
      const correction = correctTerm(stem);
      if (correction !== undefined && correction !== stem) corrections.set(stem, correction);
    }
    if (corrections.size > 0) {
      const surfaceWords = text.match(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu) ?? [];
      surfaceWords.forEach((word, position) => {
        if ((position > 0 && /^\p{Lu}/u.test(word)) || isEnglishWord(word)) for (const stem of tokenizeWithWords(word).terms) corrections.delete(stem);
      });
      const corrected = (stem: string) => corrections.get(stem) ?? stem;
      stems = stems.map(corrected);
      wordStems = wordStems.map(corrected);
    }
  }
  // In a question, the verbs that frame the request ("how do I *get* a library card") weigh less: the passage that
  // answers need not use them.
  const questionStemsOf = (listed: ReadonlySet<string>) => {
    const found = new Set<string>();
    if (isQuestion) for (const word of words) if (listed.has(word)) for (const stem of tokenizeWithWords(word).terms) found.add(stem);
    return found;
  };
  const requestStems = questionStemsOf(knowledgeLanguage() === 'en' ? new Set([...REQUEST_VERBS, ...INDEFINITE_PRONOUNS]) : REQUEST_VERBS);
  const existentialStems = questionStemsOf(EXISTENTIAL_VERBS);
  if (existentialStems.size > 0 && stems.some((stem) => !existentialStems.has(stem))) {
    stems = stems.filter((stem) => !existentialStems.has(stem));
    wordStems = wordStems.filter((stem) => !existentialStems.has(stem));
  }
  const fillerStems = questionStemsOf(knowledgeLanguage() === 'en' ? QUESTION_FILLERS : new Set());
  if (fillerStems.size > 0 && stems.some((stem) => !fillerStems.has(stem))) {
    stems = stems.filter((stem) => !fillerStems.has(stem));
    wordStems = wordStems.filter((stem) => !fillerStems.has(stem));
  }
  const terms = new Map<string, number>();
  for (const stem of stems) {
    if (!requestStems.has(stem)) terms.set(stem, 1);
    else if (requestVerbWeight > 0) terms.set(stem, requestVerbWeight);
  }
  const dimensionWeight = options.quantityDimensionWeight ?? answerTypeWeight;
  const measures = new Set<string>();
  for (const word of answerTypeWords) {
    if (answerTypeWeight > 0) for (const stem of tokenizeWithWords(word).terms) if (!terms.has(stem)) terms.set(stem, answerTypeWeight);
    const dimension = QUANTITY_DIMENSIONS[word];
    if (dimension && dimensionWeight > 0) {
      for (const stem of tokenizeWithWords(dimension).terms) {
        if (terms.has(stem)) continue;
        terms.set(stem, dimensionWeight);
        measures.add(stem);
      }
    }
  }
  // "What's the biggest file I can upload?" asks for the size limit.
  if (isQuestion && asksBoundOfAbility(words) && dimensionWeight > 0) {
    const bound = SUPERLATIVE_DIMENSIONS[words.find((word) => QUANTITY_SUPERLATIVES.has(word)) as string] ?? 'limit';
    for (const stem of tokenizeWithWords(bound).terms) {
      if (terms.has(stem)) continue;
      terms.set(stem, dimensionWeight);
      measures.add(stem);
    }
  }
  const pairs: string[] = [];
  const seenPairs = new Set<string>();
  for (let position = 1; position < wordStems.length; position += 1) {
    const pair = pairTerm(wordStems[position - 1] as string, wordStems[position] as string);
    if (seenPairs.has(pair)) continue;
    seenPairs.add(pair);
    pairs.push(pair);
  }
  return { terms, pairs, isQuestion, answerType: isQuestion ? answerTypeOf(words, phrases) : undefined, ...(measures.size > 0 ? { measures } : {}) };
}
