import { tokenize } from '../retrieval/text'
import type { CitableChunk, CitationList } from './citations'

/**
 * Checks a model's answer against its sources while it is written, so that what reaches the reader is already
 * checked:
 *
 * - every "[n]" (also "[1, 2]", "[1-3]", "[Source 1]") must name a source of the prompt; numbers with no source are
 *   dropped, and kept numbers are renumbered into the answer's CitationList (the order sources are first cited),
 *   written as "[a][b]";
 * - a claim's citation must also point at a source that shares some of its words (at least `minCitedSupport` of
 *   its weighted stems): a citation of an unrelated source is dropped like a number with no source;
 * - a claim left without a citation gets one when one source contains most of its weighted words, and is otherwise
 *   listed as unsupported (kept in the text, exactly as written, for the reader to see marked);
 * - text that could still become a citation ("[", "[1", "[1,") is held back until it is complete, and so is
 *   whitespace, until what follows it is known; after a citation, the rest of its sentence waits for the sentence's
 *   end, when the citation is confirmed.
 */

export interface GroundingOptions {
  /** The corpus weight of a stem (BM25 idf); every stem weighs 1 without it. */
  weightOf?: (stem: string) => number
  /** Share of a sentence's weight one source must contain to support it (default 0.5). */
  minSupport?: number
  /** Share of a claim's weight the source it cites must contain for the citation to stand (default 0.2). */
  minCitedSupport?: number
  /** Sentences with fewer distinct content stems are not claims and need no citation (default 3). */
  minClaimStems?: number
  /** The text of each source as the model read it (after the firewall), when it differs from the passage's text. */
  textOf?: (chunk: CitableChunk) => string
}

const DEFAULT_MIN_SUPPORT = 0.5
const DEFAULT_MIN_CITED_SUPPORT = 0.2
const DEFAULT_MIN_CLAIM_STEMS = 3
/** Longest bracket that may still turn into a citation; longer ones are text. */
const MAX_CITATION_LENGTH = 40
const NUMBER = String.raw`(?:sources?\s*|src\s*|ref\s*)?#?\d{1,3}`
const CITATION_CONTENT = new RegExp(String.raw`^\s*${NUMBER}(?:\s*(?:[-–]|,|;|&|and)\s*${NUMBER})*\s*$`, 'i')
/** What the inside of a bracket may look like before its "]" arrives. */
const CITATION_PREFIX = /^[\s\d,;&#\-–a-z]*$/i
const SENTENCE_END = /[.!?…]["'”’)\]*_]*$/
const CLOSING_PUNCTUATION = /^[.,;:!?…)]/

type Token = { kind: 'text'; value: string } | { kind: 'space'; value: string } | { kind: 'citation'; value: string; numbers: number[] }

/** The numbers a citation bracket's content names ("1, 2", "1-3", "Source 2"). */
export function citationNumbers(content: string): number[] {
  const numbers: number[] = []
  const pattern = /(\d{1,3})(?:\s*[-–]\s*(?:sources?\s*)?#?(\d{1,3}))?/gi
  for (const match of content.matchAll(pattern)) {
    const first = Number(match[1])
    const last = match[2] === undefined ? first : Number(match[2])
    if (last >= first && last - first <= 20) for (let number = first; number <= last; number++) numbers.push(number)
    else numbers.push(first)
  }
  return numbers
}

/** Whether a sentence states something that needs a source: not a heading, a lead-in ("Steps:") or a few words. */
export function isClaim(sentence: string, minStems = DEFAULT_MIN_CLAIM_STEMS): boolean {
  const trimmed = sentence.trim()
  if (/^#{1,6}\s/.test(trimmed) || /:\s*[*_]*$/.test(trimmed)) return false
  return new Set(tokenize(trimmed)).size >= minStems
}

/** What a model calls the passages it was given: "the sources", "the provided context", "none of the passages". */
const THE_SOURCES = String.raw`(?:the\s+(?:sources?|passages?|excerpts?)|the\s+(?:provided|given|available|above|numbered|listed|supplied|retrieved)\s+(?:sources?|passages?|context|documents?|excerpts?|texts?|information|articles?)|the\s+(?:sources?|passages?|context|documents?|information)\s+(?:provided|given|supplied)|(?:none|neither)\s+of\s+(?:the|these|them)(?:\s+(?:sources?|passages?|documents?))?|(?:these|those)\s+(?:sources?|passages?))`
const SAYS_NOTHING = String.raw`(?:do(?:es)?\s+not|don['’]t|doesn['’]t|did\s+not|didn['’]t|cannot|can['’]t|say\s+nothing|says\s+nothing|(?:contains?|provides?|gives?|offers?|includes?|has|have|mentions?)\s+no)\b`
/**
 * The same in the other languages a model is most often asked to write in (the answer follows the question's language,
 * or KNOWLEDGE_LANGUAGE's): German, French, Spanish, Italian, Portuguese and Dutch. "The sources do not say…", "I
 * could not find…", "There is no information…". Words start with \p{L} classes, not \b, which knows only ASCII.
 */
const OTHER_LANGUAGES_SAY_THE_SOURCES_DO_NOT_ANSWER = [
  // German: "Die Quellen enthalten keine Angaben zu …", "Leider beantworten die Quellen diese Frage nicht.",
  // "Ich konnte dazu nichts finden.", "Es gibt keine Informationen zu …"
  /^(?:leider[,\s]+)?(?:die|diese|keine\s+der)\s+(?:angegebenen\s+|bereitgestellten\s+|vorliegenden\s+)?(?:quellen|passagen|auszüge)\s+(?:\p{L}+\s+){0,6}?(?:nicht|nichts|keine?[nrms]?)(?!\p{L})/iu,
  /^(?:leider[,\s]+)?(?:beantworten|enthalten|nennen|erwähnen|sagen)\s+(?:die|diese)\s+(?:quellen|passagen|auszüge)\s+(?:\p{L}+\s+){0,6}?(?:nicht|nichts|keine?[nrms]?)(?!\p{L})/iu,
  /^(?:leider[,\s]+)?ich\s+(?:konnte|kann|habe|finde)\s+(?:\p{L}+\s+){0,6}?(?:nicht|nichts|keine?[nrms]?)\s+(?:\p{L}+\s+){0,3}?(?:finden|gefunden|beantworten|sagen)(?!\p{L})/iu,
  /^(?:leider[,\s]+)?(?:es\s+gibt|es\s+liegen|dazu\s+gibt\s+es)\s+keine\s+(?:informationen|angaben|hinweise|antwort)(?!\p{L})/iu,
  // French: "Les sources ne mentionnent pas …", "Aucune des sources ne répond …", "Je n'ai pas trouvé …",
  // "Il n'y a aucune information sur …"
  /^(?:(?:malheureusement|désolée?)[,\s]+)?(?:les|ces)\s+(?:sources|passages|extraits)\s+(?:\p{L}+\s+){0,3}?(?:ne|n['’])/iu,
  /^(?:(?:malheureusement|désolée?)[,\s]+)?aucun(?:e)?\s+des\s+(?:sources|passages|extraits)\s+ne(?!\p{L})/iu,
  /^(?:(?:malheureusement|désolée?)[,\s]+)?je\s+(?:n['’]ai\s+pas\s+(?:trouvé|pu)|ne\s+(?:trouve|peux|sais)\s+pas)/iu,
  /^(?:(?:malheureusement|désolée?)[,\s]+)?il\s+n['’]y\s+a\s+(?:pas|aucune?)\s+(?:d['’]|de\s+)?(?:informations?|mention|réponse|indications?|détails?|précisions?)(?!\p{L})/iu,
  // Spanish and Portuguese: "Las fuentes no mencionan …", "Ninguna de las fuentes …", "No encontré …",
  // "No hay información …", "As fontes não respondem …", "Não encontrei …", "Não há informações …"
  /^(?:(?:lamentablemente|lo\s+siento|infelizmente|desculpe)[,\s]+)?(?:las|estas|as|essas)\s+(?:fuentes|fontes|pasajes|passagens)\s+(?:\p{L}+\s+){0,3}?(?:no|não)(?!\p{L})/iu,
  /^(?:(?:lamentablemente|lo\s+siento|infelizmente|desculpe)[,\s]+)?(?:ninguna\s+de\s+las|nenhuma\s+das)\s+(?:fuentes|fontes)(?!\p{L})/iu,
  /^(?:(?:lamentablemente|lo\s+siento|infelizmente|desculpe)[,\s]+)?(?:no|não)\s+(?:se\s+|he\s+|pude\s+|puedo\s+|consegui\s+|posso\s+)?encontr\p{L}*(?!\p{L})/iu,
  /^(?:(?:lamentablemente|lo\s+siento|infelizmente|desculpe)[,\s]+)?(?:no\s+hay|não\s+há|não\s+existem?)\s+(?:ninguna\s+|nenhuma\s+)?(?:información|informaciones|informação|informações|mención|menção|respuesta|resposta|datos|dados|detalles|detalhes)(?!\p{L})/iu,
  // Italian: "Le fonti non menzionano …", "Nessuna delle fonti …", "Non ho trovato …", "Non ci sono informazioni …"
  /^(?:(?:purtroppo|mi\s+dispiace)[,\s]+)?(?:le|queste)\s+(?:fonti|passaggi)\s+(?:\p{L}+\s+){0,3}?non(?!\p{L})/iu,
  /^(?:(?:purtroppo|mi\s+dispiace)[,\s]+)?(?:nessuna\s+delle\s+fonti|non\s+(?:ho\s+trovato|sono\s+riuscit\p{L}\s+a\s+trovare))(?!\p{L})/iu,
  /^(?:(?:purtroppo|mi\s+dispiace)[,\s]+)?non\s+(?:ci\s+sono|c['’]è)\s+(?:alcuna\s+|nessuna\s+)?(?:informazion[ei]|menzione|risposta|dettagli|indicazion[ei])(?!\p{L})/iu,
  // Dutch: "De bronnen noemen geen …", "Geen van de bronnen …", "Ik kon dat niet vinden", "Er is geen informatie …"
  /^(?:helaas[,\s]+)?(?:de|deze)\s+(?:bronnen|passages|fragmenten)\s+(?:\p{L}+\s+){0,6}?(?:niet|niets|geen)(?!\p{L})/iu,
  /^(?:helaas[,\s]+)?geen\s+van\s+de\s+(?:bronnen|passages|fragmenten)(?!\p{L})/iu,
  /^(?:helaas[,\s]+)?ik\s+(?:kon|kan|heb)\s+(?:\p{L}+\s+){0,6}?(?:niet|niets|geen)\s+(?:\p{L}+\s+){0,3}?(?:vinden|gevonden|beantwoorden)(?!\p{L})/iu,
  /^(?:helaas[,\s]+)?er\s+(?:is|zijn|staat)\s+geen\s+(?:informatie|vermelding|antwoord|gegevens|details)(?!\p{L})/iu,
]

/**
 * A sentence saying that the sources do not answer: "The sources do not answer this question.", "None of the passages
 * mention parking.", "I could not find that in the knowledge base.", "There is no information about it." The prompt asks
 * a model to say so when the sources do not answer; such a sentence states nothing a source could support.
 */
const SAYS_THE_SOURCES_DO_NOT_ANSWER = [
  new RegExp(String.raw`^(?:(?:however|unfortunately|sorry|but)\b[,\s]*)?${THE_SOURCES}\s+(?:[\w’']+\s+){0,3}?${SAYS_NOTHING}`, 'i'),
  new RegExp(String.raw`^(?:(?:none|neither)\s+of\s+(?:them|(?:the|these)\s+(?:sources?|passages?|documents?)))\s+(?:answers?|says?|mentions?|covers?|contains?|addresses?|explains?)\b`, 'i'),
  /^(?:(?:however|unfortunately|sorry|but)\b[,\s]*)?I\s+(?:could\s+not|couldn['’]t|cannot|can['’]t|can\s+not|do\s+not|don['’]t|was\s+unable\s+to|am\s+unable\s+to|did\s+not|didn['’]t)\s+(?:find|know|see|locate|answer|have)\b/i,
  /^(?:(?:however|unfortunately|sorry|but)\b[,\s]*)?there\s+(?:is|are|was)\s+no\s+(?:information|mention|answer|details?|data|sources?)\b/i,
  ...OTHER_LANGUAGES_SAY_THE_SOURCES_DO_NOT_ANSWER,
]

export function saysTheSourcesDoNotAnswer(sentence: string): boolean {
  const text = sentence.trim().replace(/^[*_#>\s]+/, '')
  return SAYS_THE_SOURCES_DO_NOT_ANSWER.some((pattern) => pattern.test(text))
}

/** Share of a sentence's weighted stems found in a source's stems (0..1). */
export function supportShare(sentenceStems: Set<string>, sourceStems: Set<string>, weightOf: (stem: string) => number): number {
  let total = 0
  let covered = 0
  for (const stem of sentenceStems) {
    const raw = weightOf(stem)
    const weight = Number.isFinite(raw) && raw > 0 ? raw : 1
    total += weight
    if (sourceStems.has(stem)) covered += weight
  }
  return total === 0 ? 0 : covered / total
}

/** Part of a sentence written after its first citation, waiting for the sentence's end. */
type Segment = { kind: 'text'; value: string } | { kind: 'citation'; sources: number[] }

/** Stands for a citation that was dropped, while a waiting sentence is put together. */
const DROPPED = '\u0000'
const DROPPED_WITH_SPACE = new RegExp(`\\s*${DROPPED}(?=[\\s.,;:!?…)]|$)`, 'g')

/** Takes the dropped citations out; each takes the space before it along when punctuation, space or the end follows. */
const withoutDropped = (text: string) =>
  text.replace(new RegExp(`${DROPPED}+`, 'g'), DROPPED).replace(DROPPED_WITH_SPACE, '').replaceAll(DROPPED, '')

export class CitationGrounder {
  private pending = ''
  private emitted = ''
  /** Whitespace waiting for what follows it. */
  private heldSpace = ''
  /** The sentence's text shown before its first citation (its own spaces included). */
  private shown = ''
  /** The rest of the sentence from its first citation on; null while it has none. */
  private waiting: Segment[] | null = null
  /** The sentence ended (terminator and space, or a line break): citations that follow still belong to it. */
  private isSentenceClosing = false
  private wasCitationDropped = false
  private isEnded = false
  /** Something visible has been emitted or is waiting. */
  private hasOutput = false
  private readonly cited: number[] = []
  private readonly stems: Set<string>[]
  private readonly weightOf: (stem: string) => number
  private readonly minSupport: number
  private readonly minCitedSupport: number
  private readonly minClaimStems: number
  readonly unsupported: string[] = []
  /** How many citation numbers named no source, or a source that does not share the sentence's words, and were dropped. */
  droppedNumbers = 0
  /** How many citations were added to uncited sentences a source supports. */
  addedCitations = 0

  /** `sources` are the prompt's sources: `sources[n - 1]` is "[n]". */
  constructor(
    private readonly sources: CitableChunk[],
    private readonly citations: CitationList,
    options: GroundingOptions = {},
  ) {
    this.weightOf = options.weightOf ?? (() => 1)
    this.minSupport = options.minSupport ?? DEFAULT_MIN_SUPPORT
    this.minCitedSupport = options.minCitedSupport ?? DEFAULT_MIN_CITED_SUPPORT
    this.minClaimStems = options.minClaimStems ?? DEFAULT_MIN_CLAIM_STEMS
    const textOf = options.textOf ?? ((chunk: CitableChunk) => chunk.text)
    this.stems = sources.map((chunk) => new Set(tokenize(`${chunk.title}\n${textOf(chunk)}`)))
  }

  /** Takes the next piece of the model's text; returns the checked text that can be shown now. */
  push(piece: string): string {
    if (this.isEnded) throw new Error('The answer has ended')
    this.pending += piece
    return this.drain(false)
  }

  /** The model has finished: returns the rest of the checked text. */
  end(): string {
    if (this.isEnded) return ''
    const rest = this.drain(true)
    this.isEnded = true
    // Spaces are only released before what follows them, so the answer never ends with one.
    this.heldSpace = ''
    const tail = this.finishSentence()
    this.emitted += tail
    return rest + tail
  }

  /** Everything shown so far (the whole checked answer once `end()` has been called). */
  get text(): string {
    return this.emitted
  }

  /** The cited passages, in the order first cited. */
  get citedChunkIds(): number[] {
    return [...this.cited]
  }

  private drain(isFinal: boolean): string {
    let out = ''
    for (;;) {
      const token = this.nextToken(isFinal)
      if (!token) break
      out += this.take(token)
    }
    this.emitted += out
    return out
  }

  /** The next complete token of `pending`, or undefined when more text is needed to know it. */
  private nextToken(isFinal: boolean): Token | undefined {
    const text = this.pending
    if (text.length === 0) return undefined
    const first = text[0]
    if (/\s/.test(first)) {
      const match = /^\s+/.exec(text)!
      // A space run may go on in the next piece; it is whole once something else follows it.
      if (match[0].length === text.length && !isFinal) return undefined
      this.pending = text.slice(match[0].length)
      return { kind: 'space', value: match[0] }
    }
    if (first === '[') {
      const close = text.indexOf(']')
      const inside = close === -1 ? text.slice(1) : text.slice(1, close)
      if (close !== -1 && close <= MAX_CITATION_LENGTH && CITATION_CONTENT.test(inside)) {
        this.pending = text.slice(close + 1)
        return { kind: 'citation', value: text.slice(0, close + 1), numbers: citationNumbers(inside) }
      }
      if (close === -1 && !isFinal && text.length <= MAX_CITATION_LENGTH && CITATION_PREFIX.test(inside)) return undefined
      // Not a citation: the bracket is text.
      this.pending = text.slice(1)
      return { kind: 'text', value: '[' }
    }
    const match = /^[^\s[]+/.exec(text)!
    this.pending = text.slice(match[0].length)
    return { kind: 'text', value: match[0] }
  }

  /** The sentence's text so far, without its citations. */
  private sentenceText(): string {
    return this.shown + (this.waiting ?? []).map((segment) => (segment.kind === 'text' ? segment.value : '')).join('')
  }

  private take(token: Token): string {
    if (token.kind === 'space') {
      // The answer never starts with whitespace.
      if (!this.hasOutput) return ''
      // After a dropped citation two runs of space meet: keep one, a line break first.
      this.heldSpace = this.heldSpace && this.heldSpace.includes('\n') ? this.heldSpace : token.value
      const sentence = this.sentenceText()
      if (sentence.trim() && (token.value.includes('\n') || SENTENCE_END.test(sentence))) this.isSentenceClosing = true
      return ''
    }
    if (token.kind === 'citation') {
      const numbers = [...new Set(token.numbers)]
      const valid = numbers.filter((number) => number >= 1 && number <= this.sources.length)
      this.droppedNumbers += numbers.length - valid.length
      if (valid.length === 0) {
        this.wasCitationDropped = true
        return ''
      }
      // The citation, and the rest of its sentence, wait for the sentence's end to be confirmed.
      this.waiting ??= []
      if (this.heldSpace) this.waiting.push({ kind: 'text', value: this.heldSpace })
      this.heldSpace = ''
      this.waiting.push({ kind: 'citation', sources: valid.map((number) => number - 1) })
      this.wasCitationDropped = false
      this.hasOutput = true
      return ''
    }
    let out = ''
    if (this.isSentenceClosing) out += this.finishSentence()
    const isPunctuation = CLOSING_PUNCTUATION.test(token.value)
    const space = this.wasCitationDropped && isPunctuation ? '' : this.heldSpace
    this.heldSpace = ''
    this.wasCitationDropped = false
    this.hasOutput = true
    if (this.waiting) {
      this.waiting.push({ kind: 'text', value: space + token.value })
      return out
    }
    // Whitespace before a sentence belongs to no sentence.
    if (this.shown) this.shown += space
    this.shown += token.value
    return out + space + token.value
  }

  /**
   * Ends the current sentence: its citations stand where their source shares its words; a claim left without one
   * gets a citation where a source supports it, or is listed as unsupported. Returns what is left to show of it.
   */
  private finishSentence(): string {
    const waiting = this.waiting ?? []
    // The sentence as it reads without its citations: what is shown when none stands, and what the sources are
    // compared with (spaces between its end and trailing citations are not part of it).
    const sentence = (this.shown + withoutDropped(waiting.map((segment) => (segment.kind === 'text' ? segment.value : DROPPED)).join(''))).trim()
    this.shown = ''
    this.waiting = null
    this.isSentenceClosing = false
    // "The sources do not answer this question." states nothing a source supports, whatever words it shares with one:
    // it is no claim, and a citation on it stands for nothing (so an answer of nothing else cites no source).
    const isRefusal = sentence !== '' && saysTheSourcesDoNotAnswer(sentence)
    const isClaimed = !isRefusal && sentence !== '' && isClaim(sentence, this.minClaimStems)
    const sentenceStems = isClaimed ? new Set(tokenize(sentence)) : new Set<string>()
    const stands = (index: number) => !isRefusal && (!isClaimed || supportShare(sentenceStems, this.stems[index], this.weightOf) >= this.minCitedSupport)
    let out = ''
    let citedAny = false
    for (const segment of waiting) {
      if (segment.kind === 'text') {
        out += segment.value
        continue
      }
      const kept = segment.sources.filter(stands)
      this.droppedNumbers += segment.sources.length - kept.length
      if (kept.length === 0) {
        out += DROPPED
        continue
      }
      citedAny = true
      out += [...new Set(kept.map((index) => this.cite(this.sources[index])))].map((number) => `[${number}]`).join('')
    }
    out = withoutDropped(out)
    if (citedAny || !isClaimed) return out
    let best = -1
    let bestShare = 0
    this.stems.forEach((sourceStems, index) => {
      const share = supportShare(sentenceStems, sourceStems, this.weightOf)
      if (share > bestShare) {
        best = index
        bestShare = share
      }
    })
    if (best >= 0 && bestShare >= this.minSupport) {
      this.addedCitations++
      return `${out.replace(/\s+$/, '')} [${this.cite(this.sources[best])}]`
    }
    this.unsupported.push(sentence)
    return out
  }

  private cite(chunk: CitableChunk): number {
    if (!this.cited.includes(chunk.chunkId)) this.cited.push(chunk.chunkId)
    return this.citations.cite(chunk)
  }
}
