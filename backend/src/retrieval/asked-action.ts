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
/** "make a …", "make an …", "make new …": to create one. */
const MAKES_ONE = /^(?:make|build)$/;
const NEW_ONE = /^(?:a|an|new)$/;
const CREATE = stemOf('create') as string;

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
 * The phrasal verb a how-to or can-I question asks about ("How do I log out?"): a pattern for normalised text that
 * says it or a phrasal verb doing the same, in any form ("signing out", "log-out"), and the stem of the question's
 * verb (log); undefined when it asks none.
 */
export function askedPhrasalVerb(question: string): { says: RegExp; verb: string } | undefined {
  const phrasal = phrasalOf(question);
  const verb = phrasal === undefined ? undefined : stemOf(phrasal.split(' ')[0] as string);
  if (phrasal === undefined || verb === undefined) return undefined;
  const said = (SAME_PHRASAL.find((group) => group.includes(phrasal)) ?? [phrasal]).map((phrase) => phrase.replace(' ', '[a-z]*[\\s-]+'));
  return { says: new RegExp(`\\b(?:${said.join('|')})\\b`), verb };
}

/** The phrasal verb a how-to or can-I question asks about, as words ("log out"). */
function phrasalOf(question: string): string | undefined {
  const match = ASKED_ACTION.exec(normalize(question));
  return match?.[1] && match[2] && PARTICLE.test(match[2]) ? `${match[1]} ${match[2]}` : undefined;
}

/** Phrasal verbs that do the same ("How do I log out?" / "To sign out, …"). */
const SAME_PHRASAL: readonly (readonly string[])[] = [
  ['sign in', 'log in', 'log on'],
  ['sign out', 'log out', 'log off'],
];

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

/** Whether a stem is one of the actions of `SAME_ACTIONS` ("delet"). */
export const isActionStem = (stem: string): boolean => ACTION_WORD.has(stem);

/** The verb a stem of `SAME_ACTIONS` stands for ("creat": create). */
export const actionWord = (stem: string): string | undefined => ACTION_WORD.get(stem);

/**
 * The question with its action said plainly: "make a new …" asks to create one, and the "new" of what is created says
 * nothing more ("How do I add a new user?": "How do I add a user?"; a passage about new users is no more about adding
 * one).
 */
export function plainAction(question: string, correctTerm?: (term: string) => string | undefined): string {
  const match = ASKED_ACTION.exec(normalize(question));
  if (!match?.[1]) return question;
  const made = MAKES_ONE.test(match[1]) && match[2] !== undefined && NEW_ONE.test(match[2]) ? question.replace(new RegExp(`\\b${match[1]}\\b`, 'i'), 'create') : question;
  const verb = ASKED_ACTION.exec(normalize(made))?.[1];
  if (verb === undefined || !actionStems(askedAction(made, correctTerm)).has(CREATE)) return made;
  return made.replace(new RegExp(`\\b(${verb}\\s+(?:(?:a|an|the)\\s+)?)new\\s+`, 'i'), '$1');
}

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
 * The question in each wording of its action: first said plainly (`plainAction`; the question itself when it is),
 * then with each other verb that does the same ("How do I create an article?": "How do I add an article?") or
 * phrasal verb ("log out": "sign out"). A guide names an action one way, and its user may say another.
 */
export function actionWordings(question: string, correctTerm?: (term: string) => string | undefined): string[] {
  const plain = plainAction(question, correctTerm);
  const action = askedAction(plain, correctTerm);
  // The verb as asked, as search reads it.
  const verb = ASKED_ACTION.exec(normalize(plain))?.[1];
  const stem = verb === undefined ? undefined : stemOf(verb);
  const own = stem === undefined ? undefined : (correctTerm?.(stem) ?? stem);
  const phrasal = phrasalOf(plain);
  const phrasings = (SAME_PHRASAL.find((group) => phrasal !== undefined && group.includes(phrasal)) ?? [])
    .filter((phrase) => phrase !== phrasal)
    .map((phrase) => plain.replace(new RegExp(`\\b${phrasal?.replace(' ', '\\s+')}\\b`, 'i'), phrase));
  return [...new Set([plain, ...[...actionStems(action)].filter((other) => other !== own).map((other) => withActionWord(plain, other)), ...phrasings])];
}
