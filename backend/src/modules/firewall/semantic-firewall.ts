// The semantic firewall of PRODUCT.md: when `semantic_firewall` is on (bot settings for questions, agent settings for
// agent commands), a question is screened before retrieval and answering. Deterministic and explainable, like the rest
// of the embedded default: patterns for prompt injection, personal data and requests outside a knowledge base's scope.
// A blocked question gets a polite refusal and its log the status 'blocked'.

export type BlockReason = 'prompt_injection' | 'personal_data' | 'out_of_scope'

export type Screening = { isBlocked: false } | { isBlocked: true; reason: BlockReason; refusal: string }

const REFUSALS: Readonly<Record<BlockReason, string>> = {
  prompt_injection:
    'Sorry, I can only answer questions about the knowledge base, and this request asks me to change how I work. Please ask your question directly.',
  personal_data:
    'Sorry, your question seems to contain personal data (such as an email address, a phone number or a card or identity number). Please ask again without it.',
  out_of_scope: 'Sorry, I can only answer questions from the knowledge base. I cannot write, translate or generate other content.',
}

/** Attempts to override instructions, reveal hidden prompts or switch persona. */
const INJECTION_PATTERNS: readonly RegExp[] = [
  /\b(ignore|disregard|forget|override|bypass)\b[^.?!\n]{0,40}\b(previous|prior|above|earlier|all|any|your|the|these|those)\b[^.?!\n]{0,30}\b(instructions?|rules?|prompts?|directives?|guidelines?|guardrails?)\b/i,
  /\b(reveal|show|print|repeat|display|leak|output|tell me)\b[^.?!\n]{0,40}\b(system|hidden|initial|original|developer)\s+(prompt|instructions?|message)\b/i,
  /\byou are (now|no longer)\b/i,
  /\b(pretend|act) (to be|as if you|as an? (unrestricted|unfiltered|different))\b/i,
  /\b(jailbreak|DAN mode|developer mode)\b/i,
  /<\s*\/?\s*(system|assistant|instructions?)\s*>/i,
  /^\s*(system|assistant)\s*:/im,
]

/** Generative tasks that are not questions about the knowledge base. */
const OUT_OF_SCOPE_PATTERNS: readonly RegExp[] = [
  /\b(write|compose|generate|create|make up|draft)\b[^.?!\n]{0,30}\b(poem|song|lyrics|story|joke|essay|novel|haiku|limerick|rap|screenplay|cover letter)\b/i,
  /\b(write|generate|create)\b[^.?!\n]{0,30}\b(code|program|script|function|sql query|regex)\b/i,
  /\btranslate\b[^.?!\n]{0,60}\b(into|to)\s+[a-z]+\b/i,
  /\btell me a joke\b/i,
]

const EMAIL = /\b[a-z0-9._%+-]+@[a-z0-9-]+(\.[a-z0-9-]+)*\.[a-z]{2,}\b/i
/** Nine or more digits written as one number, with the separators people type: +44 20 7946 0958, (555) 123-4567. */
const PHONE = /(?<![\w.])\+?\(?\d{1,4}\)?([\s.-]?\(?\d{2,4}\)?){2,5}(?![\w.])/g
const US_SSN = /\b(?!000|666|9\d\d)\d{3}-(?!00)\d{2}-(?!0000)\d{4}\b/
const IBAN = /\b[A-Z]{2}\d{2}\s?(?:[A-Z0-9]{4}\s?){2,7}[A-Z0-9]{1,4}\b/
const CARD_CANDIDATE = /\b(?:\d[ -]?){13,19}\b/g

/** Luhn's check, which every payment card number passes and most other long numbers do not. */
function passesLuhn(digits: string): boolean {
  let sum = 0
  for (let index = 0; index < digits.length; index++) {
    let digit = Number(digits[digits.length - 1 - index])
    if (index % 2 === 1) {
      digit *= 2
      if (digit > 9) digit -= 9
    }
    sum += digit
  }
  return sum % 10 === 0
}

function containsPersonalData(text: string): boolean {
  if (EMAIL.test(text) || US_SSN.test(text) || IBAN.test(text)) return true
  for (const match of text.matchAll(CARD_CANDIDATE)) {
    const digits = match[0].replace(/\D/g, '')
    if (digits.length >= 13 && passesLuhn(digits)) return true
  }
  for (const match of text.matchAll(PHONE)) {
    const digits = match[0].replace(/\D/g, '')
    // Years, quantities and short codes are not phone numbers; a phone number has 9 to 15 digits (E.164).
    if (digits.length >= 9 && digits.length <= 15 && /[\s.()+-]/.test(match[0].trim())) return true
  }
  return false
}

/** Screens one question or command. Ordered: an injection is named as such even when it also carries personal data. */
export function screenQuestion(text: string): Screening {
  const normalised = text.normalize('NFKC')
  const reason: BlockReason | null = INJECTION_PATTERNS.some((pattern) => pattern.test(normalised))
    ? 'prompt_injection'
    : containsPersonalData(normalised)
      ? 'personal_data'
      : OUT_OF_SCOPE_PATTERNS.some((pattern) => pattern.test(normalised))
        ? 'out_of_scope'
        : null
  return reason ? { isBlocked: true, reason, refusal: REFUSALS[reason] } : { isBlocked: false }
}

/** What the screen did to a retrieved passage before a language model reads it. */
export interface PassageScreening {
  /** The passage without its instructions to the model (empty when nothing else was in it). */
  text: string
  /** The sentences taken out, as they were written. */
  removed: string[]
}

/** The sentence (or line) of `text` around position `index`: from the previous sentence end to the next. */
function sentenceAround(text: string, index: number): { start: number; end: number } {
  let start = index
  while (start > 0 && !/[.!?\n]/.test(text[start - 1])) start--
  const after = /[.!?](?=\s|$)|\n/g
  after.lastIndex = index
  const match = after.exec(text)
  return { start, end: match ? match.index + match[0].length : text.length }
}

/**
 * Screens a retrieved passage before it reaches a language model: a knowledge base fed by uploads and crawls may
 * hold text written to steer the model ("ignore the previous instructions…", a `system:` line, a role tag). Each
 * sentence that matches a prompt-injection pattern is taken out; the rest of the passage stays, so its facts can
 * still be used and cited. Always on before a model reads passages, whatever `semantic_firewall` says: that
 * switch is about what askers type, this is about what the knowledge base feeds the model.
 */
export function screenPassage(passage: string): PassageScreening {
  let text = passage.normalize('NFKC')
  const removed: string[] = []
  // Each round takes out one sentence; a passage has a bounded number of them.
  for (let round = 0; round < 200; round++) {
    let found: RegExpExecArray | null = null
    for (const pattern of INJECTION_PATTERNS) {
      found = new RegExp(pattern.source, pattern.flags.replace('g', '')).exec(text)
      if (found) break
    }
    if (!found) break
    const around = sentenceAround(text, found.index + (/^\s*/.exec(found[0])?.[0].length ?? 0))
    const start = around.start
    // The whole match goes, even when a pattern reaches past a sentence end.
    const end = Math.max(around.end, found.index + found[0].length)
    removed.push(text.slice(start, end).trim())
    text = `${text.slice(0, start)}${text.slice(end)}`
  }
  if (removed.length === 0) return { text: passage, removed }
  return { text: text.replace(/[ \t]{2,}/g, ' ').replace(/\n{3,}/g, '\n\n').trim(), removed }
}
