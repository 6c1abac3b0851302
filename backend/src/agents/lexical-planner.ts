import { readRequest } from '../answering/request-frame'
import { ASKED_ACTION } from '../retrieval/asked-action'
import { splitSentences } from '../retrieval/chunker'
import { normalize, tokenize } from '../retrieval/text'
import type { SubQuestion, ToolCall } from './agent-state'
import type { Planner } from './planner'
import type { AgentTool } from './tools/agent-tool'
import { namesAspect } from './section-passages'

// Where a sentence may hold a second question: "…, and what …", "… as well as …", "…; …".
const CONJUNCTION = /(\s*;\s*|,?\s+(?:and also|and then|as well as|and)\s+)/i
// A clause that starts like a question or an instruction stands on its own.
const QUESTION_START =
  /^(?:what|how|why|when|where|who|whom|which|whose|can|could|does|do|did|is|are|was|were|should|will|would|may|explain|list|describe|tell|say|summari[sz]e|compare|show|give|find|define|name)\b/i
/** What a clause asks of its object ("Compare the steps for "), which a bare object after "and" shares (group 1). */
const SHARED_HEAD = /^(.*\b(?:steps|procedure|instructions|requirements|rules|settings|options|roles)\s+(?:for|to)\s+)\S/i
/** "How do I ", "How can we ", "How to ": a how-to clause's head, which a bare action after "and" shares. */
const HOW_TO_HEAD = /^\s*how\s+(?:(?:do|does|can|could|should|would|may)\s+(?:i|we|you|one)\s+|to\s+)/i
/** "How do I add ": a how-to clause's head with its action (group 1), which an object after "and then" shares. */
const HOW_TO_ACTION = /^(\s*how\s+(?:(?:do|does|can|could|should|would|may)\s+(?:i|we|you|one)\s+|to\s+)[a-z]+\s+)/i
/** "a group in it", "the template": an object alone, for the action of the clause before ("… and then a group in it"). */
const BARE_OBJECT = /^(?:a|an|the|another|some|my|our|your|its|their)\s+\S/i
/** "use it", "publish them": an action on what the clause before names ("How do I create a template and use it?"). */
const ACTION_ON_IT = /^[a-z]+\s+(?:it|them|this|these|those)\b/i
// A pronoun leans on the clause before it: "what is the firewall and how do I turn it on".
const PRONOUN = /\b(?:it|its|this|that|they|them|their|these|those|each one|each of them|both)\b/i
/**
 * "each one", "each of them", "both" (at the end): a clause that asks the same of every part before it, as one part
 * each ("Explain A and B, and list what each one needs": what A needs, what B needs).
 */
const DISTRIBUTIVE = /\b(?:each one|each of them|each of these|both of them)\b|\bboth(?=\s*[?.!]*\s*$)/i
/** At most this many earlier parts are asked about again, one part each. */
const MAX_DISTRIBUTED = 4
// "Write a briefing on X", "Prepare a note about X": the document asked for is not what to search for.
const DIRECTIVE =
  /^\s*(?:please\s+)?(?:write|draft|prepare|create|produce|compose|generate|make|give me|provide)\b[^.?!]*?\b(?:on|about|regarding|concerning|covering)\s+/i

const keyOfStems = (text: string) => [...new Set(tokenize(text))].sort().join(' ')
const contentWordsOf = (text: string) => (text.match(/[\p{L}\p{N}]+/gu) ?? []).filter((word) => tokenize(word).length > 0)
const trimClause = (text: string) => text.replace(/^[\s,;:]+|[\s,;:]+$/g, '')

/**
 * A command that only asks for a text and names nothing for it to be about, in its words joined by single spaces and
 * ended with one: politeness, a verb that asks for a text, to whom, a document and how it should be ("write me a brief",
 * "summarise please", "draft a report", "could you prepare a short note for us", "tell me more", "go on"). "Summarise the drafts" names the
 * drafts; "Write a report on parking permits" names the permits.
 */
const ONLY_A_REQUEST = new RegExp(
  [
    '^(?:(?:please|kindly) )?(?:(?:can|could|would|will) you (?:please )?)?',
    '(?:(?:write(?: up)?|draft|prepare|create|produce|compose|generate|make|give|provide|put together|do|send|summari[sz]e|sum up|brief|tell|explain|elaborate|expand|continue|go on|keep going) )?',
    '(?:(?:me|us) )?(?:(?:a|an|the|my|our|some|one|that|this) )?(?:(?:short|brief|quick|new|full|simple|detailed|one-page) )*',
    '(?:(?:brief|briefing|report|summary|note|memo|document|overview|outline|write-up|paper|text|one|it|more|details|more details|information|more information|something|anything) )?',
    '(?:(?:for (?:me|us)|please|now|then|thanks|thank you) )*$',
  ].join(''),
)

/** The text with its first letter capitalised: a part's heading, a document's subject line. */
export const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1)

/**
 * What a command is about, without the directive that asks for a document ("write a briefing on …") or a summary
 * ("summarise what the knowledge base says about …", `readRequest`).
 */
export function subjectOf(command: string): string {
  const subject = readRequest(command.replace(DIRECTIVE, '')).subject.trim()
  return tokenize(subject).length > 0 ? subject : command.trim()
}

/**
 * The subject a command names, as `subjectOf` reads it, or null when it names none: "Write me a brief", "Summarise
 * please" and "Draft a report" ask for a text about nothing in particular.
 */
export function namedSubjectOf(command: string): string | null {
  const words = command.toLowerCase().replace(/[^\p{L}\p{N}'’-]+/gu, ' ').trim()
  return ONLY_A_REQUEST.test(`${words} `) ? null : subjectOf(command)
}

/**
 * Splits a command into its questions: at sentence ends and question marks, and at conjunctions when what
 * follows stands on its own (it starts like a question, both sides have at least two searchable words, or a
 * fact tool can answer it). Questions with the same searchable words are kept once.
 */
export function splitCommand(command: string, isFactQuestion: (text: string) => boolean = () => false): string[] {
  const clauses: string[] = []
  // "How do I add an organisation and then a group in it?": the second step is the same action on another object.
  const nextStep = (separator: string, piece: string, before: string) =>
    /\bthen\b/i.test(separator) && BARE_OBJECT.test(piece) ? HOW_TO_ACTION.exec(before)?.[1] : undefined
  const standsAlone = (piece: string, before: string) =>
    QUESTION_START.test(piece) ||
    isFactQuestion(piece) ||
    (new Set(tokenize(piece)).size >= 2 && new Set(tokenize(before)).size >= 2) ||
    (HOW_TO_HEAD.test(before) && ACTION_ON_IT.test(piece) && new Set(tokenize(before)).size >= 2)
  for (const sentence of splitSentences(command)) {
    for (const clause of sentence.split(/\?+(?=\s*\S)/)) {
      const [first, ...rest] = clause.split(CONJUNCTION)
      let current = first
      for (let index = 0; index < rest.length; index += 2) {
        const [separator, piece] = [rest[index], trimClause(rest[index + 1] ?? '')]
        const action = piece ? nextStep(separator, piece, current) : undefined
        if (action) {
          clauses.push(current)
          current = `${action}${piece}`
        } else if (piece && standsAlone(piece, current)) {
          clauses.push(current)
          // "Compare the steps for uploading files and crawling a web site": the second part asks for the steps too.
          const head = SHARED_HEAD.exec(current)?.[1] ?? (ACTION_ON_IT.test(piece) ? HOW_TO_HEAD.exec(current)?.[0] : undefined)
          current = head && !QUESTION_START.test(piece) && !/^(?:the|a|an|my|our|your)\b/i.test(piece) ? `${head}${piece}` : piece
        } else current = `${current}${separator}${piece}`
      }
      clauses.push(current)
    }
  }
  const seen = new Set<string>()
  const questions: string[] = []
  for (const clause of clauses.map(trimClause)) {
    const key = keyOfStems(clause)
    if ((!key && !isFactQuestion(clause)) || seen.has(key)) continue
    seen.add(key)
    questions.push(clause)
  }
  return questions.length > 0 ? questions : [command.trim()]
}

/**
 * The calls that answer a question: the fact tools that apply (a sum, the date) and nothing else, or else the
 * knowledge tools, targeted ones (an article named by title) before the broad search.
 */
export function chooseToolCalls(question: string, query: string, tools: AgentTool[]): ToolCall[] {
  const facts = tools.filter((tool) => tool.kind === 'fact').flatMap((tool) => callOf(tool, question))
  if (facts.length > 0) return facts
  const knowledge = tools.filter((tool) => tool.kind === 'knowledge').flatMap((tool) => callOf(tool, query))
  const isBroad = (call: ToolCall) => call.input === query
  return [...knowledge.filter((call) => !isBroad(call)), ...knowledge.filter(isBroad)]
}

function callOf(tool: AgentTool, text: string): ToolCall[] {
  const input = tool.inputFor(text)
  return input === undefined ? [] : [{ tool: tool.name, input }]
}

/** A sub-question before its first grade. */
export const newSubQuestion = (text: string, query: string, section: number | null, toolCalls: ToolCall[]): SubQuestion => ({
  text,
  query,
  section,
  toolCalls,
  grade: null,
  missingWords: [],
  isSettled: false,
})

/**
 * What a template section's searches look for: the command's subject and the section's own words; the subject alone
 * for a section about the whole subject ("Summary"), whose words only say how to write ("The answer to the command in
 * two or three sentences") and would find passages about answers and commands.
 */
export const sectionQueryOf = (subject: string, section: { title: string; instructions: string }) =>
  namesAspect(subject, section.title) ? `${subject}\n${`${section.title}\n${section.instructions}`.trim()}` : subject

/**
 * The words a part's search borrows from the part it leans on ("How large can they be?" searched with "uploading
 * files"): the part is composed with them, since alone it does not say what it is about. Empty when it leans on none.
 */
export function borrowedWords(question: Pick<SubQuestion, 'text' | 'query'>): string {
  const subject = subjectOf(question.text)
  return question.query.startsWith(`${subject} `) ? question.query.slice(subject.length + 1).trim() : ''
}

/**
 * The words of a part that the part leaning on it borrows: what it is about, and its action unless the leaning part
 * asks an action of its own ("How do I create a template and use it?": "use it" borrows "template", not "create",
 * which would find the creating; "how large can they be?" after "How do I upload files" borrows "upload files").
 */
function borrowableWordsOf(part: string, leaning: string): string[] {
  const verb = ASKED_ACTION.exec(normalize(leaning)) ? ASKED_ACTION.exec(normalize(part))?.[1] : undefined
  return contentWordsOf(subjectOf(part)).filter((word) => normalize(word) !== verb)
}

/** What a part asks about, without what it asks of it: "Compare the steps for uploading files" → "uploading files". */
function objectOf(part: string): string {
  const head = SHARED_HEAD.exec(part)?.[1]
  return trimClause(head ? part.slice(head.length) : subjectOf(part)).replace(/[?.!]+$/, '')
}

/**
 * The parts of a command, each with the part it leans on (the one before it): a part that asks the same of every
 * part before it ("list what each one needs") becomes one part for each of them, which names it ("list what uploading
 * files needs", "list what crawling a web site needs") and leans on nothing.
 */
export function distribute(questions: string[]): { text: string; leansOn?: string }[] {
  const parts: { text: string; leansOn?: string }[] = []
  questions.forEach((text, index) => {
    const pronoun = DISTRIBUTIVE.exec(text)
    const earlier = questions.slice(0, index)
    if (!pronoun || earlier.length < 2) {
      parts.push({ text, leansOn: index > 0 ? questions[index - 1] : undefined })
      return
    }
    const referred = /^both/i.test(pronoun[0]) ? earlier.slice(-2) : earlier.slice(-MAX_DISTRIBUTED)
    for (const part of referred) {
      const object = objectOf(part)
      parts.push({ text: `${text.slice(0, pronoun.index)}${object}${text.slice(pronoun.index + pronoun[0].length)}`.replace(/\s+/g, ' ').trim() })
    }
  })
  return parts
}

/** Plans from the words alone: deterministic, explainable, no model needed. */
export class LexicalPlanner implements Planner {
  readonly name = 'lexical'

  async planCommand(command: string, tools: AgentTool[]): Promise<SubQuestion[]> {
    const isFactQuestion = (text: string) => tools.some((tool) => tool.kind === 'fact' && tool.inputFor(text) !== undefined)
    const questions = distribute(splitCommand(command, isFactQuestion))
    return questions.map(({ text, leansOn }) => {
      // A question that leans on the one before it searches with that one's words too.
      const subject = subjectOf(text)
      const query = leansOn !== undefined && PRONOUN.test(text) ? `${subject} ${borrowableWordsOf(leansOn, text).join(' ')}` : subject
      return newSubQuestion(text, query, null, chooseToolCalls(text, query, tools))
    })
  }

  async planSections(command: string, sections: { title: string; instructions: string }[], tools: AgentTool[]): Promise<SubQuestion[]> {
    const subject = subjectOf(command)
    return sections.map((section, index) => {
      const guidance = `${section.title}\n${section.instructions}`.trim()
      const query = sectionQueryOf(subject, section)
      const facts = tools.filter((tool) => tool.kind === 'fact').flatMap((tool) => callOf(tool, guidance))
      return newSubQuestion(section.title, query, index, facts.length > 0 ? facts : chooseToolCalls(subject, query, tools))
    })
  }

  async widen(subQuestions: SubQuestion[], tools: AgentTool[]): Promise<SubQuestion[]> {
    const knowledgeTools = tools.filter((tool) => tool.kind === 'knowledge')
    return subQuestions.map((question) => {
      if (question.isSettled) return { ...question, toolCalls: [] }
      // Search again with more passages (the retrieve step raises the limit each loop), and for the missing
      // words on their own, so a rare word is not drowned by the common ones around it.
      const inputs = [...new Set([question.query, question.missingWords.join(' ')].filter((input) => tokenize(input).length > 0))]
      const toolCalls = inputs.flatMap((input) => knowledgeTools.flatMap((tool) => callOf(tool, input)))
      const unique = toolCalls.filter((call, index) => toolCalls.findIndex((other) => other.tool === call.tool && other.input === call.input) === index)
      return { ...question, toolCalls: unique }
    })
  }
}
