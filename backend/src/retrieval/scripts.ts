import snowball from 'snowball-stemmers';
import * as stopwordPackage from 'stopword';

/** The `stopword` package's lists by ISO 639-3 code (among its functions). */
const stopwordLists = stopwordPackage as unknown as Readonly<Record<string, readonly string[] | undefined>>;

/**
 * What a word written in a script other than Latin drops and how it is stemmed. The script tells which languages a
 * word can be in without reading the whole text: a Cyrillic word is Russian, Ukrainian or Bulgarian, never English.
 * Latin script is left to the knowledge base's language (`LATIN_LANGUAGES` below; English's stopwords and Porter by
 * default, `text.ts`): French "est" and German "war" would clash with English words. Only what the script's
 * languages share is done: their stopword lists (the `stopword` package's, by ISO 639-3 code: lists of function
 * words, where stopwords-iso's Russian one also drops "книга", "город" and "москва"), joined, and a Snowball stemmer
 * where one language dominates the script and Snowball has it.
 */
interface ScriptWords {
  script: RegExp;
  lists: readonly string[];
  /** Question words the lists lack (`QUESTION_WORDS` below says why they go). */
  questionWords?: readonly string[];
  stemmer?: string;
}

const SCRIPTS: readonly ScriptWords[] = [
  {
    script: /^\p{Script=Cyrillic}/u,
    lists: ['rus', 'ukr', 'bul'],
    questionWords: ['почему', 'зачем', 'сколько', 'какие', 'каким', 'чому', 'скільки', 'хто'],
    stemmer: 'russian',
  },
  // The Greek list spells a final sigma σ: `listed` adds the ς the text has.
  { script: /^\p{Script=Greek}/u, lists: ['ell'], questionWords: ['πότε', 'γιατί', 'πόσο', 'πόσα', 'πόσοι', 'πόσες'] },
  { script: /^\p{Script=Arabic}/u, lists: ['ara', 'fas', 'urd'], stemmer: 'arabic' },
  { script: /^\p{Script=Hebrew}/u, lists: ['heb'] },
  { script: /^\p{Script=Armenian}/u, lists: ['hye'], stemmer: 'armenian' },
  { script: /^\p{Script=Devanagari}/u, lists: ['hin', 'mar'] },
  { script: /^\p{Script=Bengali}/u, lists: ['ben'] },
  { script: /^\p{Script=Gujarati}/u, lists: ['guj'] },
  { script: /^\p{Script=Tamil}/u, lists: [], stemmer: 'tamil' },
  { script: /^\p{Script=Thai}/u, lists: ['tha'] },
  {
    script: /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u,
    lists: ['zho', 'jpn'],
    // As the platform's word breaker gives them: 什么 is one word, which the list has as 什 and 么.
    questionWords: ['什么', '怎么', '怎样', '怎么样', '为什么', '哪里', '哪儿', '多少', '如何', '谁', '几', '吗', '呢', '何', 'なに', 'なん', 'いつ', 'どこ', '誰', 'だれ', 'なぜ', 'どう', 'どの', 'どれ', 'どんな', 'いくつ', 'いくら', 'か'],
  },
  { script: /^\p{Script=Hangul}/u, lists: ['kor'], questionWords: ['뭐'] },
];

/** The words of the `stopword` package's lists (a Greek word ending in σ also with ς, as Greek is written). */
function listed(lists: readonly string[]): string[] {
  return lists.flatMap((list) => {
    const words = stopwordLists[list];
    if (!words) throw new Error(`the stopword package has no list "${list}"`);
    return list === 'ell' ? words.flatMap((word) => (word.endsWith('σ') ? [word, `${word.slice(0, -1)}ς`] : [word])) : [...words];
  });
}

interface ScriptRule {
  script: RegExp;
  stopwords: ReadonlySet<string>;
  stem: (word: string) => string;
}

let rules: readonly ScriptRule[] | undefined;

/** The rules, built on first use with the words normalised as the text is (`normalize`, passed in). */
function scriptRules(normalize: (text: string) => string): readonly ScriptRule[] {
  rules ??= SCRIPTS.map(({ script, lists, questionWords = [], stemmer }) => {
    const stopwords = new Set([...listed(lists), ...questionWords].map(normalize));
    const snowballStemmer = stemmer === undefined ? undefined : snowball.newStemmer(stemmer);
    return { script, stopwords, stem: snowballStemmer ? (word: string) => snowballStemmer.stem(word) : (word: string) => word };
  });
  return rules;
}

/** The rule for a word in a script other than Latin, if any: its script's stopwords and stemmer. */
export function scriptRuleOf(word: string, normalize: (text: string) => string): ScriptRule | undefined {
  return scriptRules(normalize).find((rule) => rule.script.test(word));
}

/**
 * Languages written in the Latin alphabet that a knowledge base can be in (KNOWLEDGE_LANGUAGE, ISO 639-1): the
 * `stopword` package's list of each (by ISO 639-3 code; stopwords-iso's French list also drops "mot" and "passe", so
 * "mot de passe" would be no words) and the Snowball stemmer of those that have one; the others keep their words
 * whole. English (the default) keeps its own list and Porter (`text.ts`).
 */
const LATIN_LANGUAGES: Readonly<Record<string, { list: string; stemmer?: string }>> = {
  af: { list: 'afr' }, br: { list: 'bre' }, ca: { list: 'cat', stemmer: 'catalan' }, cs: { list: 'ces', stemmer: 'czech' },
  da: { list: 'dan', stemmer: 'danish' }, de: { list: 'deu', stemmer: 'german' }, eo: { list: 'epo' },
  es: { list: 'spa', stemmer: 'spanish' }, et: { list: 'est' }, eu: { list: 'eus', stemmer: 'basque' },
  fi: { list: 'fin', stemmer: 'finnish' }, fr: { list: 'fra', stemmer: 'french' }, ga: { list: 'gle', stemmer: 'irish' },
  gl: { list: 'glg' }, ha: { list: 'hau' }, hr: { list: 'hrv' }, hu: { list: 'hun', stemmer: 'hungarian' },
  id: { list: 'ind' }, it: { list: 'ita', stemmer: 'italian' }, ku: { list: 'kur' }, la: { list: 'lat' },
  lt: { list: 'lit' }, lv: { list: 'lav' }, ms: { list: 'msa' }, nl: { list: 'nld', stemmer: 'dutch' },
  no: { list: 'nob', stemmer: 'norwegian' }, pl: { list: 'pol' }, pt: { list: 'por', stemmer: 'portuguese' },
  ro: { list: 'ron', stemmer: 'romanian' }, sk: { list: 'slk' }, sl: { list: 'slv', stemmer: 'slovene' },
  so: { list: 'som' }, st: { list: 'sot' }, sv: { list: 'swe', stemmer: 'swedish' }, sw: { list: 'swa' },
  tl: { list: 'tgl' }, tr: { list: 'tur', stemmer: 'turkish' }, vi: { list: 'vie' }, yo: { list: 'yor' }, zu: { list: 'zul' },
};

/**
 * Question words the lists above lack: like English "how" and "when", they say what kind of answer is wanted, not
 * what about, and a word no article has would otherwise weigh the most in a question ("Comment changer le logo ?").
 */
const QUESTION_WORDS: Readonly<Record<string, readonly string[]>> = {
  de: ['wieviel', 'wieso', 'weshalb', 'weswegen'],
  es: ['cómo', 'cuándo', 'dónde', 'cuánto', 'cuánta', 'cuántos', 'cuántas', 'cuál', 'cuáles', 'quién', 'quiénes', 'qué'],
  fr: ['comment', 'quand', 'pourquoi', 'combien', 'quoi', 'lequel', 'laquelle', 'lesquels', 'lesquelles'],
  it: ['quando', 'quale', 'quali', 'cosa', 'perché', 'quanto', 'quanta', 'quanti', 'quante'],
  nl: ['wanneer', 'waar', 'waarom', 'hoeveel', 'welke', 'welk'],
  pt: ['onde', 'porque', 'porquê', 'quanto', 'quanta', 'quantos', 'quantas', 'qual', 'quais'],
};

/** The codes KNOWLEDGE_LANGUAGE accepts (ISO 639-1), English first. */
export const KNOWLEDGE_LANGUAGES: readonly string[] = ['en', ...Object.keys(LATIN_LANGUAGES).sort()];

/** What a word in the Latin alphabet drops and how it is stemmed, in a knowledge base in another language than English. */
export interface LatinRule {
  language: string;
  /**
   * Its stopwords and question words, as written and with their accents folded: "été" and "ete" are stopwords, while
   * German "ändere" (I change) is not "andere" (other).
   */
  stopwords: ReadonlySet<string>;
  /** The stem of a lowercased word with its accents: Snowball stemmers read them ("publié", "publie"). */
  stem: (word: string) => string;
}

/** The rule for the Latin-alphabet words of a knowledge base in `language`; undefined for English. */
export function latinRuleOf(language: string, normalize: (text: string) => string): LatinRule | undefined {
  if (language === 'en') return undefined;
  const rules = LATIN_LANGUAGES[language];
  if (!rules) throw new Error(`no rules for the language "${language}"; known: ${KNOWLEDGE_LANGUAGES.join(', ')}`);
  const words = [...listed([rules.list]), ...(QUESTION_WORDS[language] ?? [])];
  const written = words.map((word) => word.normalize('NFC').toLowerCase());
  const stopwords = new Set([...written, ...written.map(normalize)]);
  const snowballStemmer = rules.stemmer === undefined ? undefined : snowball.newStemmer(rules.stemmer);
  return { language, stopwords, stem: snowballStemmer ? (word) => snowballStemmer.stem(word) : (word) => word };
}
