/**
 * A follow-up that names what it acts on only by a pronoun ("How do I add a user?" then "And how do I disable one?")
 * asks about what the earlier question named: read alone, "disable one" finds any passage that says disabled and one
 * ("Each shortcut can be enabled or disabled, so you may see none, one, …"). The pronoun is read as the earlier
 * question's object, for search and for the quoted answer (a model reads the conversation itself). So is a pronoun
 * asked about ("What is it for?", "Who can delete them?"), and an action asked with nothing to act on ("Who can
 * publish?"); a follow-up that names only something else ("What about an organisation?", "And for templates?") asks
 * the earlier question again about that. Words that only place a follow-up after the earlier turn ("And how do I edit
 * it afterwards?", "Then, can I …") are not what it is about: read alone, "afterwards" is a rare word that outweighs
 * the subject and finds whichever passage says it.
 */

import { plainQuestion } from '../retrieval/text'

/**
 * "How do I disable", "can I delete", "is it possible to rename", "who can see" (group 1), then the pronoun (group 2)
 * and the rest (group 3).
 */
const ACTS_ON_PRONOUN =
  /^(\s*(?:(?:and|but|so|then|now|also|ok|okay)\b[\s,]*)?(?:how\s+(?:do|does|can|could|should|would|may|might)\s+(?:i|we|you)\s+|how\s+to\s+|(?:can|could|may)\s+(?:i|we|you)\s+|who\s+(?:can|could|may|should|will)\s+|is\s+(?:it|there\s+a\s+way)\s+(?:possible\s+)?to\s+)[a-z]+(?:\s+(?:off|on|up|out|in|down|back|away|over))?\s+)(one|it|them|this|that|these|those)\b(?!\s+(?:of\b|\w+ing\b))(.*)$/i

/** "What is it for?", "what does it do", "where are they" (group 1), the pronoun (group 2) and at most three words (group 3). */
const ASKS_ABOUT_PRONOUN =
  /^(\s*(?:(?:and|but|so|then|now|also|ok|okay)\b[\s,]*)?(?:what|where)\s+(?:is|are|was|were|does|do)\s+)(it|they|this|that|these|those)((?:\s+[a-z]+){0,3}\s*[?.!]*\s*)$/i
/** "What about an organisation?", "how about …", "and for templates?": what the earlier question is asked about instead (group 1). */
const ABOUT_INSTEAD = /^\s*(?:(?:what|how)\s+about|and(?:\s+(?:for|with))?)\s+(.+?)\s*[?.!]*\s*$/i
/**
 * After "and", "what about": the follow-up asks a question of its own ("And how do I delete it?") or says no thing
 * ("And then?", "And thanks!"), so it is not the earlier question again.
 */
const ASKS_ITS_OWN =
  /^(?:how|what|where|when|why|who|whom|whose|which|can|could|do|does|did|is|are|was|were|should|would|will|may|might|i|we|you|then|now|so|also|after|before|again|more|else|otherwise|thanks|thank|ok|okay|yes|no|not|please|if|or|but)\b/i

/**
 * "How do I publish", "who can see" (group 1) with nothing after the verb (group 2) but the end (group 3): the action
 * acts on what the earlier question named.
 */
const ACTS_ON_NOTHING =
  /^(\s*(?:(?:and|but|so|then|now|also|ok|okay)\b[\s,]*)?(?:how\s+(?:do|does|can|could|should|would|may|might)\s+(?:i|we|you)\s+|how\s+to\s+|(?:can|could|may)\s+(?:i|we|you)\s+|who\s+(?:can|could|may|should|will)\s+|is\s+(?:it|there\s+a\s+way)\s+(?:possible\s+)?to\s+)([a-z]+))(\s*[?.!]*\s*)$/i
/** Verbs that are whole without an object ("How do I start?", "Can I register?"). */
const NEEDS_NO_OBJECT =
  /^(?:do|be|have|get|go|come|start|begin|continue|proceed|register|wait|help|ask|login|logout|signin|signup|leave|stop|return)$/i

/**
 * Words that say when, after or beside the earlier turn, not what about: "afterwards", "later", "next", "first",
 * "instead", "as well", "after that"…
 */
const AFTER_EARLIER =
  String.raw`(?:afterwards?|later(?:\s+on)?|next|then|first|beforehand|after\s+(?:that|this)|before\s+(?:that|this)|again|once\s+more|too|as\s+well|also|instead|now|anyway|thereafter|subsequently|meanwhile|in\s+the\s+meantime)`
/** Such words ending the question ("… edit it afterwards?", "…, and then?"), kept out up to the end (group 1). */
const ENDS_AFTER_EARLIER = new RegExp(String.raw`(?:[\s,]+(?:and\s+)?${AFTER_EARLIER})+(\s*[?.!]*\s*)$`, 'i')
/** Such words opening it before its question ("Afterwards, how do I …", "And then can I …"), after "and" (group 1). */
const OPENS_AFTER_EARLIER = new RegExp(
  String.raw`^(\s*(?:(?:and|but|so|ok|okay)\b[\s,]*)?)(?:${AFTER_EARLIER}\b[\s,]*)+(?=(?:how|what|where|when|why|who|which|can|could|do|does|is|are|should|would|will|may|might)\b)`,
  'i',
)
/** Words that ask nothing by themselves ("And …?", "What about …?"). */
const ONLY_LINKS = /^(?:and|but|so|ok|okay|what|how|about|for|with)$/i
/** "And afterwards?", "What about later?": nothing but such words. */
const ONLY_AFTER_EARLIER = new RegExp(String.raw`^${AFTER_EARLIER}$`, 'i')

/**
 * Whether a question says nothing but when it comes, after or beside an earlier turn ("And afterwards?", "What about
 * later?", "and then"): words that ask nothing by themselves and such words, at least one of these.
 */
export function onlyPlacesItself(question: string): boolean {
  const words = plainQuestion(question).toLowerCase().replace(/[?.!,;:]+/g, ' ').trim().split(' ').filter(Boolean)
  let start = 0
  while (start < words.length && ONLY_LINKS.test(words[start] as string)) start += 1
  const rest = words.slice(start).join(' ')
  return rest !== '' && rest.length <= 40 && ONLY_AFTER_EARLIER.test(rest)
}

/** How an earlier question names what it acts on (group 1): after its action ("How do I add a user to a group?": "a user"). */
const OBJECT_OF_ACTION =
  /^\s*(?:(?:and|but|so|then|now|also|ok|okay)\b[\s,]*)?(?:how\s+(?:do|does|can|could|should|would|may|might)\s+(?:i|we|you)\s+|how\s+to\s+|(?:can|could|may)\s+(?:i|we|you)\s+|is\s+(?:it|there\s+a\s+way)\s+(?:possible\s+)?to\s+)[a-z]+(?:\s+(?:off|on|up|out|in|down|back|away|over))?\s+(.+?)\s*[?.!]*\s*$/i
/** …or what it asks about ("What is a draft?", "What are API keys for?"). */
const SUBJECT_ASKED = /^\s*(?:and\s+)?what\s+(?:is|are)\s+(.+?)(?:\s+for)?\s*[?.!]*\s*$/i
/** Where the object ends: a preposition or a clause after it ("a user to a group", "an article so that …"). */
const OBJECT_END = /\s+(?:to|in|into|from|on|onto|for|with|without|by|at|as|via|when|if|so|and|or|but|after|before|while|because|then|using)\b.*$/i
const PRONOUN = /^(?:one|it|them|this|that|these|those|they|he|she|i|we|you|me|us)$/i
/** At most this many words: a longer object is a clause, not a name. */
const MAX_OBJECT_WORDS = 6

/** What a question acts on or asks about, as its words ("a user"); undefined when it names nothing but a pronoun. */
export function namedObject(question: string): string | undefined {
  question = plainQuestion(question)
  const match = OBJECT_OF_ACTION.exec(question) ?? SUBJECT_ASKED.exec(question)
  const object = match?.[1]?.replace(OBJECT_END, '').trim()
  if (!object) return undefined
  const words = object.split(/\s+/)
  if (words.length > MAX_OBJECT_WORDS || PRONOUN.test(words[0] as string) || PRONOUN.test(words.at(-1) as string)) return undefined
  return object
}

/**
 * The follow-up with its pronoun object read as what the latest earlier question named ("And how do I disable one?"
 * after "How do I add a user?": "And how do I disable a user?"); the question itself when it acts on no pronoun or
 * no earlier question names an object. Earlier follow-ups are read the same way first, so a pronoun can stand for
 * what was named two turns before.
 */
export function resolveFollowUp(question: string, earlierQuestions: readonly string[]): string {
  return readConversation(question, earlierQuestions).question
}

/**
 * The follow-up read as above, and each earlier question as it was read in its turn: what search finds the follow-up
 * with ("And how do I edit an article?" rather than "And how do I edit it afterwards?"). A question asked without
 * earlier ones is read as asked.
 */
export function readConversation(question: string, earlierQuestions: readonly string[]): { question: string; earlierQuestions: string[] } {
  question = plainQuestion(question)
  earlierQuestions = earlierQuestions.map(plainQuestion)
  const read: string[] = []
  let previous: string | undefined
  let object: string | undefined
  for (const earlier of earlierQuestions) {
    previous = read.length === 0 ? earlier : withObject(withoutPlaceInConversation(earlier), previous, object)
    read.push(previous)
    object = namedObject(previous) ?? object
  }
  if (read.length === 0) return { question, earlierQuestions: [] }
  return { question: withObject(withoutPlaceInConversation(question), previous, object), earlierQuestions: read }
}

/**
 * A follow-up without the words that place it after the earlier turn ("And how do I edit it afterwards?": "And how
 * do I edit it?"); itself when nothing else would be left ("And then?").
 */
function withoutPlaceInConversation(question: string): string {
  const trimmed = question
    .replace(ENDS_AFTER_EARLIER, '$1')
    .replace(OPENS_AFTER_EARLIER, (_opening, and: string) => and)
    // "Afterwards, can I …" reads "Can I …".
    .replace(/^\s*[a-z]/, (first) => (/^\s*[A-Z]/.test(question) ? first.toUpperCase() : first))
  return trimmed.split(/[^a-z]+/i).some((word) => word !== '' && !ONLY_LINKS.test(word)) ? trimmed : question
}

/**
 * The question with its pronoun, or the object its action lacks, said as `object`, or the `previous` question
 * (resolved) asked about what it names instead of `object`; itself when it has none of these or there is no object.
 */
function withObject(question: string, previous: string | undefined, object: string | undefined): string {
  if (object === undefined) return question
  const pronoun = ACTS_ON_PRONOUN.exec(question) ?? ASKS_ABOUT_PRONOUN.exec(question)
  if (pronoun) return `${pronoun[1]}${object}${pronoun[3]}`
  const bare = ACTS_ON_NOTHING.exec(question)
  if (bare && !NEEDS_NO_OBJECT.test(bare[2] as string)) return `${bare[1]} ${object}${bare[3]}`
  const instead = ABOUT_INSTEAD.exec(question)?.[1]
  if (instead === undefined || previous === undefined || ASKS_ITS_OWN.test(instead) || ONLY_AFTER_EARLIER.test(instead)) return question
  const words = instead.split(/\s+/)
  if (words.length > MAX_OBJECT_WORDS || PRONOUN.test(words[0] as string) || PRONOUN.test(words.at(-1) as string)) return question
  const at = previous.toLowerCase().indexOf(object.toLowerCase())
  return at < 0 ? question : `${previous.slice(0, at)}${instead}${previous.slice(at + object.length)}`
}
