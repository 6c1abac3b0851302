import { normalize, tokenizeWithWords } from './text';

/**
 * "How do I restore …", "Can I restore …", "Is it possible to restore …": the action the question asks about is the
 * word after these (group 1), once a pronoun subject is set aside.
 */
export const ASKED_ACTION =
  /^\s*(?:(?:and|but|so|then|now|also|ok|okay)\b[\s,]*)?(?:how\s+(?:do|does|can|could|should|would|may|might)\s+(?:i|we|you|one|they|he|she)\s+|how\s+to\s+|(?:can|could|may)\s+(?:i|we|you|one)\s+|is\s+(?:it|there\s+a\s+way)\s+(?:possible\s+)?to\s+)([a-z]+)(?:\s+([a-z]+))?/i;
/** Words after a verb that make it another verb ("turn off", "set up", "get rid of"): the action is the pair. */
const PARTICLE = /^(?:off|on|up|out|in|down|back|away|over|rid|through|around|apart)$/;
/**
 * Verbs that say little of what is done ("How do I get a library card?": the card is the point, and "A library card is
 * free for residents." answers it though no article says get).
 */
const LIGHT_VERB = /^(?:get|gets|got|set|sets|make|do|does|have|has|use|find|see|take|go|put|give|keep|let|try|know|tell|look|need|want|come|become|be|start|begin|work|handle|deal|manage)$/;

const stemOf = (word: string): string | undefined => tokenizeWithWords(word).terms[0];

/**
 * The stem of the action a how-to or can-I question asks about ("How do I restore a deleted article?": restor), as the
 * search reads it (`correctTerm` for a misspelling); undefined when it is a light verb ("get"), a phrasal verb ("turn
 * off"), a stopword, or when none is asked.
 */
export function askedAction(question: string, correctTerm?: (term: string) => string | undefined): string | undefined {
  const match = ASKED_ACTION.exec(normalize(question));
  if (!match?.[1] || LIGHT_VERB.test(match[1]) || (match[2] && PARTICLE.test(match[2]))) return undefined;
  const stem = stemOf(match[1]);
  return stem === undefined ? undefined : (correctTerm?.(stem) ?? stem);
}

/**
 * Actions a guide may name with another verb than the user's ("How do I switch themes?" / "To change the theme, …"):
 * each group's verbs do the same thing to the same object.
 */
const SAME_ACTION_WORDS: readonly (readonly string[])[] = [
  ['change', 'switch', 'modify', 'alter', 'edit', 'update'],
  ['delete', 'remove', 'erase'],
  ['add', 'create'],
  ['download', 'export'],
  ['upload', 'import'],
];
/** The same as stems, and each stem's word. */
const SAME_ACTIONS = SAME_ACTION_WORDS.map((group) => group.map((word) => stemOf(word) as string));
const ACTION_WORD = new Map(SAME_ACTION_WORDS.flatMap((group, position) => group.map((word, index) => [SAME_ACTIONS[position]?.[index] as string, word] as const)));

/** The action's stem and the stems of the verbs that do the same (`SAME_ACTIONS`). */
export function actionStems(action: string | undefined): ReadonlySet<string> {
  if (action === undefined) return new Set();
  return new Set([action, ...(SAME_ACTIONS.find((group) => group.includes(action)) ?? [])]);
}

/** The verb a stem of `SAME_ACTIONS` stands for ("creat": create). */
export const actionWord = (stem: string): string | undefined => ACTION_WORD.get(stem);

/**
 * The question asked with `stem`'s verb in place of the user's ("How do I create an article?" with add: "How do I add
 * an article?"); the question itself when it asks no action.
 */
export function withActionWord(question: string, stem: string): string {
  const match = ASKED_ACTION.exec(normalize(question));
  const word = actionWord(stem);
  if (!match?.[1] || word === undefined) return question;
  return question.replace(new RegExp(`\\b${match[1]}\\b`, 'i'), word);
}

/**
 * The question asked with each other verb that does the same as its action ("How do I create an article?": "How do I
 * add an article?"); none when it asks no such action. A guide names an action one way, and its user may say another.
 */
export function sameActionWordings(question: string, correctTerm?: (term: string) => string | undefined): string[] {
  const action = askedAction(question, correctTerm);
  return [...actionStems(action)].filter((stem) => stem !== action).map((stem) => withActionWord(question, stem));
}
