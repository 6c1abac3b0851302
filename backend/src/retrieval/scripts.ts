import { createRequire } from 'node:module';
import snowball from 'snowball-stemmers';

// stopwords-iso's main file is JSON, which Node imports from ESM only with an import attribute: required instead.
const stopwordsByLanguage = createRequire(import.meta.url)('stopwords-iso') as Record<string, string[]>;

/**
 * What a word written in a script other than Latin drops and how it is stemmed. The script tells which languages a
 * word can be in without reading the whole text: a Cyrillic word is Russian, Ukrainian or Bulgarian, never English.
 * Latin script is left to the English stopwords and Porter stemmer (`text.ts`): French "est" and German "war" would
 * clash with English words. Only what the script's languages share is done: their stopword lists (stopwords-iso),
 * joined, and a Snowball stemmer where one language dominates the script and Snowball has it.
 */
interface ScriptWords {
  script: RegExp;
  languages: readonly string[];
  stemmer?: string;
}

const SCRIPTS: readonly ScriptWords[] = [
  { script: /^\p{Script=Cyrillic}/u, languages: ['ru', 'uk', 'bg'], stemmer: 'russian' },
  { script: /^\p{Script=Greek}/u, languages: ['el'] },
  { script: /^\p{Script=Arabic}/u, languages: ['ar', 'fa', 'ur'], stemmer: 'arabic' },
  { script: /^\p{Script=Hebrew}/u, languages: ['he'] },
  { script: /^\p{Script=Armenian}/u, languages: ['hy'], stemmer: 'armenian' },
  { script: /^\p{Script=Devanagari}/u, languages: ['hi', 'mr'] },
  { script: /^\p{Script=Bengali}/u, languages: ['bn'] },
  { script: /^\p{Script=Gujarati}/u, languages: ['gu'] },
  { script: /^\p{Script=Tamil}/u, languages: [], stemmer: 'tamil' },
  { script: /^\p{Script=Thai}/u, languages: ['th'] },
  { script: /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u, languages: ['zh', 'ja'] },
  { script: /^\p{Script=Hangul}/u, languages: ['ko'] },
];

interface ScriptRule {
  script: RegExp;
  stopwords: ReadonlySet<string>;
  stem: (word: string) => string;
}

let rules: readonly ScriptRule[] | undefined;

/** The rules, built on first use with the words normalised as the text is (`normalize`, passed in). */
function scriptRules(normalize: (text: string) => string): readonly ScriptRule[] {
  rules ??= SCRIPTS.map(({ script, languages, stemmer }) => {
    const stopwords = new Set(languages.flatMap((language) => stopwordsByLanguage[language] ?? []).map(normalize));
    const snowballStemmer = stemmer === undefined ? undefined : snowball.newStemmer(stemmer);
    return { script, stopwords, stem: snowballStemmer ? (word: string) => snowballStemmer.stem(word) : (word: string) => word };
  });
  return rules;
}

/** The rule for a word in a script other than Latin, if any: its script's stopwords and stemmer. */
export function scriptRuleOf(word: string, normalize: (text: string) => string): ScriptRule | undefined {
  return scriptRules(normalize).find((rule) => rule.script.test(word));
}
