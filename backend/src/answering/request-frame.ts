import { tokenize } from '../retrieval/text'

/**
 * "Summarise …", "Give me an overview of …", "Tell me about …", "Brief me on …", "What does the guide say about …": a
 * summary is asked for.
 */
const SUMMARY_REQUEST =
  /^\s*(?:please\s+)?(?:summari[sz]e|give\s+(?:me\s+)?(?:a\s+(?:short\s+|brief\s+)?(?:summary|briefing)|an\s+overview)\s+(?:of|on|about)|(?:an\s+)?overview\s+of|brief\s+me\s+(?:on|about)|fill\s+me\s+in\s+(?:on|about)|what\s+(?:do\s+(?:you|we)\s+know|can\s+you\s+tell\s+me)\s+about|tell\s+me\s+(?:everything\s+|all\s+)?about|what\s+(?:does|do)\s+(?:the\s+|our\s+)?(?:knowledge\s+base|guide|documentation|docs|articles)\s+say\s+about)\s+/i
/** After "Summarise": "what the knowledge base says about …", "everything about …", "the articles on …". */
const SUMMARY_OBJECT =
  /^(?:(?:what|everything|all)\s+(?:that\s+)?(?:the\s+|our\s+)?(?:knowledge\s+base|guide|documentation|docs|articles?)\s+(?:says?|has|contains?|covers?|knows?)\s+(?:about|on|of|regarding)\s+|(?:everything|all)\s+(?:about|on)\s+|(?:the\s+)?(?:knowledge\s+base|guide|documentation|docs|articles?)\s+(?:about|on)\s+)/i

/** "Explain …", "Compare …", "List …", "Show me …": an instruction whose object is what to search for and quote. */
const INSTRUCTION = /^\s*(?:please\s+)?(?:explain|describe|compare|list|outline|show(?:\s+me)?|tell\s+me)\s+/i

/**
 * "how publishing works", "how the firewall is used": what works is the subject (group 1); "works" is a rare word that
 * would find whichever passage says it ("The app works fully without JavaScript").
 */
const HOW_IT_WORKS = /^how\s+(.+?)\s+(?:works?|is\s+(?:done|used)|are\s+(?:done|used)|happens)\s*[?.!]*$/i

export interface ReadRequest {
  /** What the request is about, without its framing words ("publishing drafts"): what to search for and quote. */
  subject: string
  /** Whether it asks for a summary of a subject rather than the answer to a question: a broader answer fits. */
  isSummary: boolean
}

/**
 * Reads how a request is framed. "Summarise what the knowledge base says about publishing drafts" asks for a summary of
 * "publishing drafts"; its other words (summarise, knowledge base, says) are not what the articles should match.
 * "Compare the steps for uploading files" asks for "the steps for uploading files", no summary. A request without
 * such a frame, or whose frame leaves nothing to search for, is its own subject.
 */
export function readRequest(text: string): ReadRequest {
  const lead = SUMMARY_REQUEST.exec(text)
  if (!lead) {
    const instruction = INSTRUCTION.exec(text)
    const object = instruction ? withoutHowItWorks(text.slice(instruction[0].length).trim()) : ''
    return { subject: tokenize(object).length > 0 ? object : text, isSummary: false }
  }
  const subject = withoutHowItWorks(text.slice(lead[0].length).replace(SUMMARY_OBJECT, '').replace(/[\s?.!]+$/, '').trim())
  return tokenize(subject).length > 0 ? { subject, isSummary: true } : { subject: text, isSummary: false }
}

/** "how publishing works" is about publishing; anything else as it is. */
function withoutHowItWorks(object: string): string {
  const what = HOW_IT_WORKS.exec(object)?.[1]
  return what !== undefined && tokenize(what).length > 0 ? what : object
}
