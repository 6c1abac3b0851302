import { normalize, plainQuestion, tokenizeWithWords } from './text';

/** The lead-in of a how-to or can-I question, up to its verb: "How do I ", "Can we ", "Is there a way to ". */
const LEAD_IN =
  '\\s*(?:(?:and|but|so|then|now|also|ok|okay)\\b[\\s,]*)?(?:how\\s+(?:do|does|can|could|should|would|may|might)\\s+(?:i|we|you|one|they|he|she)\\s+|how\\s+to\\s+|(?:can|could|may)\\s+(?:i|we|you|one)\\s+|is\\s+(?:it|there\\s+a\\s+way)\\s+(?:possible\\s+)?to\\s+)';
/**
 * "How do I restore …", "Can I restore …", "Is it possible to restore …": the action the question asks about is the
 * word after these (group 1), once a pronoun subject is set aside.
 */
export const ASKED_ACTION = new RegExp(`^${LEAD_IN}([a-z]+)(?:\\s+([a-z]+))?`, 'i');
/**
 * A how-question in the passive ("How are drafts published?", "How can a user be added?", "How does a draft get
 * published?"): its lead-in (group 1: "how are", "how can", "how does"), the rest (group 2).
 */
const PASSIVE_HOW =
  /^\s*((?:(?:and|but|so|then|now|also|ok|okay)\b[\s,]*)?how\s+(?:is|are|can|could|should|may|do|does)\s+)(.+?)\s*\?*\s*$/i;
/** Past participles that do not end in -ed, with their verb. */
const IRREGULAR_PARTICIPLES: Readonly<Record<string, string>> = {
  written: 'write', made: 'make', done: 'do', given: 'give', taken: 'take', chosen: 'choose', shown: 'show', seen: 'see',
  known: 'know', found: 'find', built: 'build', sent: 'send', kept: 'keep', held: 'hold', split: 'split', begun: 'begin',
  drawn: 'draw', hidden: 'hide', paid: 'pay', sold: 'sell', told: 'tell', brought: 'bring', bought: 'buy', set: 'set',
  run: 'run', put: 'put', read: 'read', cut: 'cut', shut: 'shut', spent: 'spend', left: 'leave', lost: 'lose',
  forgotten: 'forget', frozen: 'freeze', rewritten: 'rewrite', undone: 'undo', withdrawn: 'withdraw', shared: 'share',
};
const PARTICIPLE = /^[a-z]{2,}ed$/;
/** Words ending in -ed that are no participle. */
const NOT_PARTICIPLE = /^(?:need|seed|speed|feed|bleed|breed|greed|weed|deed|indeed|hundred|shed|sled|bred|led|bed|red)$/;
const isParticiple = (word: string) => (PARTICIPLE.test(word) && !NOT_PARTICIPLE.test(word)) || word in IRREGULAR_PARTICIPLES;
/** A subject that is a person or a pronoun asks something else: "How can I be notified?", "How is it called?". */
const PRONOUN = /^(?:i|we|you|one|they|he|she|it|this|that|these|those|me|us)$/;

/**
 * A how-question in the passive asked as the how-to it is: "How are drafts published?" → "How do I published drafts?",
 * "How can a user be added to a group?" → "How do I added a user to a group?" (the participle stays: search and the
 * answer read stems, and publish and published share one). After a modal or "do", the subject must be followed by
 * "be" or "get"; after "is"/"are", the last participle is the action ("How is the time needed … calculated?"). The
 * question itself when it is not such a question ("How is the weather?", "How big are files?").
 */
export function activeHowTo(question: string): string {
  question = plainQuestion(question);
  const match = PASSIVE_HOW.exec(question);
  if (!match?.[1] || !match[2]) return question;
  const lead = normalize(match[1]).trim().split(/\s+/).at(-1) as string;
  const words = match[2].split(/\s+/);
  const lower = words.map((word) => normalize(word).replace(/[^a-z-]/g, ''));
  let at = -1;
  if (/^(?:is|are)$/.test(lead)) {
    // The last participle after a subject: "How are articles split into chunks?" (split), not "How is the time needed …".
    for (let index = lower.length - 1; index >= 1; index -= 1) {
      if (isParticiple(lower[index] as string)) {
        at = index;
        break;
      }
    }
  } else {
    // "How can <subject> be <participle>", "How does <subject> get <participle>".
    const be = lower.findIndex((word, index) => index >= 1 && (/^(?:can|could|should|may)$/.test(lead) ? word === 'be' || word === 'get' : word === 'get'));
    if (be >= 1 && isParticiple(lower[be + 1] ?? '')) at = be + 1;
  }
  if (at < 1) return question;
  const subject = words.slice(0, /^(?:is|are)$/.test(lead) ? at : at - 1);
  if (subject.length === 1 && PRONOUN.test(normalize(subject[0] as string))) return question;
  const participle = lower[at] as string;
  const verb = IRREGULAR_PARTICIPLES[participle] ?? participle;
  return ['How do I', verb, ...subject, ...words.slice(at + 1)].join(' ') + '?';
}

/** Words after a verb that make it another verb ("turn off", "set up", "get rid of"): the action is the pair. */
const PARTICLE = /^(?:off|on|up|out|in|down|back|away|over|rid|through|around|apart)$/;
/**
 * Verbs that say little of what is done ("How do I get a library card?": the card is the point, and "A library card is
 * free for residents." answers it though no article says get).
 */
const LIGHT_VERB = /^(?:get|gets|got|set|sets|make|do|does|have|has|use|find|see|take|go|put|give|keep|let|try|know|tell|look|need|want|come|become|be|start|begin|work|handle|deal|manage)$/;

const stemOf = (word: string): string | undefined => tokenizeWithWords(word).terms[0];
const GOT_RID_OF = new RegExp(`^(${LEAD_IN})(?:get\\s+rid\\s+of|throw\\s+away)\\b`, 'i');
/** A phrasal verb that restores what it is done to, after the lead-in (group 1). */
const GET_BACK = new RegExp(`^(${LEAD_IN})(?:get|bring)\\s+back\\b`, 'i');
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
  question = plainQuestion(question);
  const match = ASKED_ACTION.exec(normalize(question));
  if (!match?.[1] || LIGHT_VERB.test(match[1]) || (match[2] && PARTICLE.test(match[2]))) return undefined;
  const stem = stemOf(match[1]);
  return stem === undefined ? undefined : (correctTerm?.(stem) ?? stem);
}

/** Words that may stand before the subject of "Can a user …?". */
const DETERMINER = /^(?:a|an|the|any|every|all|my|our|your|their|his|her|its)$/;
/**
 * The stem of what a question asks whether someone or something other than the asker can do ("Can a user delete
 * articles?", "May editors publish drafts?", "Who can create organisations?": delet, publish, creat), read as the word
 * after a subject of one word (or of two, "a normal user", when the third is an action's), after "who can", or after
 * "allowed to" ("Who is allowed to create …?"); undefined for a light verb ("Can a user get …?") or when the question
 * does not ask so.
 */
export function askedAbility(question: string, correctTerm?: (term: string) => string | undefined): string | undefined {
  question = plainQuestion(question);
  const words = normalize(question).match(/[a-z]+/g) ?? [];
  // "Who is allowed to create …?", "Are editors permitted to publish …?": the verb follows "to".
  const allowed = words.findIndex((word, index) => /^(?:allowed|permitted|able|right|rights|permission)$/.test(word) && words[index + 1] === 'to');
  if (allowed >= 0) {
    const verb = words[allowed + 2];
    const stem = verb === undefined || LIGHT_VERB.test(verb) ? undefined : stemOf(verb);
    return stem === undefined ? undefined : (correctTerm?.(stem) ?? stem);
  }
  let at = words.findIndex((word) => /^(?:can|could|may)$/.test(word));
  if (at < 0) return undefined;
  // "Who can create …?": the verb follows; "Can a user create …?": it follows the subject.
  const asksWho = words[at - 1] === 'who';
  at += asksWho ? 1 : DETERMINER.test(words[at + 1] ?? '') ? 3 : 2;
  // A subject of two words ("Can a normal user upload …?"): the verb is the next word when it is an action's.
  const next = words[at + 1];
  if (!asksWho && next !== undefined && !isActionStem(stemOf(words[at] ?? '') ?? '') && isActionStem(stemOf(next) ?? '')) at += 1;
  const verb = words[at];
  if (verb === undefined || LIGHT_VERB.test(verb)) return undefined;
  const stem = stemOf(verb);
  return stem === undefined ? undefined : (correctTerm?.(stem) ?? stem);
}

/**
 * The phrasal verb a how-to or can-I question asks about ("How do I log out?"): a pattern for normalised text that
 * says it or a phrasal verb doing the same, in any form ("signing out", "log-out"), and the stem of the question's
 * verb (log); undefined when it asks none.
 */
export function askedPhrasalVerb(question: string): { says: RegExp; verb: string } | undefined {
  question = plainQuestion(question);
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
  question = plainQuestion(question);
  // "get rid of …" and "throw away …" remove it, "get back …" and "bring back …" restore it: a guide says so.
  question = question.replace(GOT_RID_OF, (_whole, lead: string) => `${lead}remove`).replace(GET_BACK, (_whole, lead: string) => `${lead}restore`);
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
  question = plainQuestion(question);
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
  question = plainQuestion(question);
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
