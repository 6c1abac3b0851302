import type { AgentTraceEntry } from '../../../contracts/agents'
import { CitationList } from '../answering/citations'
import { NAME_THE_SUBJECT_ANSWER, NOT_FOUND_ANSWER } from '../answering/not-found'
import { joinAnswerPieces } from '../retrieval/extractive-answer'
import type { AgentState, Evidence, SubQuestion } from './agent-state'
import { evidenceOf, textsOf, keyOf, passagesOf } from './evidence'
import { GRADE_THRESHOLD, gradeCoverage, wordsOfStems } from './grading'
import { borrowedWords, capitalised, namedSubjectOf, subjectOf } from './lexical-planner'
import { fillTemplate } from './template-filling'
import { traceEntry, type StepContext, type StepHandler } from './workflow-runtime'
import type { WorkflowStepId } from './workflow-definition'

const quote = (text: string) => `“${text.length > 120 ? `${text.slice(0, 117)}…` : text}”`
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error))
const plural = (count: number, word: string, plural = `${word}s`) => `${count} ${count === 1 ? word : plural}`
const sentence = (text: string) => (/[.!?…]$/.test(text.trim()) ? text.trim() : `${text.trim()}.`)
const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1)

/** The planner's and composer's own sentences (what the model did, why it fell back) as trace entries of a step. */
function notesOf(context: StepContext, step: WorkflowStepId, iteration: number): AgentTraceEntry[] {
  return (context.reasoning.takeNotes?.() ?? []).map((note) =>
    traceEntry(context, { step, iteration, status: note.status, detail: note.detail, error: note.error ?? null }, performance.now()),
  )
}

const plan: StepHandler = async (state, context) => {
  const startedAt = performance.now()
  const iteration = state.iteration + 1
  const tools = context.tools.pick(context.allowedTools)
  const { planner } = context.reasoning
  let subQuestions: SubQuestion[]
  let detail: string
  // A command that asks for a text about nothing in particular is answered with a question back: what about? (A brief's
  // sections name what each searches for, so the government agent writes one from them.)
  if (iteration === 1 && state.variant !== 'government' && namedSubjectOf(state.command) === null) {
    const entry = traceEntry(context, { step: 'plan', iteration, status: 'done', detail: 'The command names no subject: asked what it should be about.' }, startedAt)
    return { state: { ...state, iteration, sub_questions: [], current_answer: NAME_THE_SUBJECT_ANSWER, source_list: [], steps: [...state.steps, entry] }, next: 'end' }
  }
  if (iteration === 1) {
    subQuestions =
      state.variant === 'government'
        ? await planner.planSections(state.command, state.sections, tools)
        : await planner.planCommand(state.command, tools)
    const how = planner.name === 'model' ? 'with the model' : 'from the words of the command'
    const what = state.variant === 'government' ? `a search for each of ${plural(subQuestions.length, 'section')}` : plural(subQuestions.length, 'question')
    detail = `Planned ${what} ${how}: ${subQuestions.map((question) => quote(question.text)).join(', ')}.`
  } else {
    subQuestions = await planner.widen(state.sub_questions, tools, state.evidence)
    const widened = subQuestions.filter((question) => question.toolCalls.length > 0)
    detail =
      widened.length > 0
        ? `Searching again for ${plural(widened.length, 'weak one')}: ${widened.map((question) => `${quote(question.text)} (missing ${question.missingWords.join(', ') || 'nothing'})`).join(', ')}, with up to ${context.sourcesPerSearch * iteration} passages per search.`
        : 'Nothing more to search for.'
  }
  const notes = notesOf(context, 'plan', iteration)
  const entry = traceEntry(context, { step: 'plan', iteration, status: 'done', detail }, startedAt)
  return { state: { ...state, iteration, sub_questions: subQuestions, steps: [...state.steps, ...notes, entry] }, next: 'retrieve' }
}

const retrieve: StepHandler = async (state, context) => {
  const entries: AgentTraceEntry[] = []
  const evidence: Evidence[] = []
  const allowed = new Set(context.allowedTools)
  const limit = context.sourcesPerSearch * state.iteration
  for (const question of state.sub_questions) {
    for (const call of question.toolCalls) {
      const startedAt = performance.now()
      const tool = allowed.has(call.tool) ? context.tools.get(call.tool) : undefined
      try {
        if (!tool) throw new Error(`The tool ${call.tool} is not available to the ${state.variant} agent`)
        const result = await tool.run(call.input, { signal: context.signal, timezone: context.timezone, limit, scoreThreshold: context.scoreThreshold, now: context.now })
        evidence.push({ question: keyOf(question), tool: call.tool, chunks: result.chunks, statement: result.statement, failure: null })
        const detail = tool.kind === 'knowledge' ? `Searched for ${quote(call.input)} with ${call.tool}: ${result.chunks.length > 0 ? 'found ' : ''}${lowerFirst(result.summary)}` : `Asked ${call.tool}${call.input && call.input !== 'now' ? ` about ${quote(call.input)}` : ''}: ${result.summary}`
        entries.push(traceEntry(context, { step: 'retrieve', iteration: state.iteration, status: 'done', tool: call.tool, input: call.input, detail: sentence(detail) }, startedAt))
      } catch (error) {
        // Cancellation or shutdown is not the tool's failure: the runtime stops the run.
        if (context.signal.aborted) throw error
        const message = messageOf(error)
        evidence.push({ question: keyOf(question), tool: call.tool, chunks: [], statement: null, failure: message })
        entries.push(
          traceEntry(context, { step: 'retrieve', iteration: state.iteration, status: 'failed', tool: call.tool, input: call.input, detail: `${call.tool} failed for ${quote(question.text)}: ${sentence(message)}`, error: message }, startedAt),
        )
      }
    }
  }
  if (entries.length === 0) {
    entries.push(traceEntry(context, { step: 'retrieve', iteration: state.iteration, status: 'done', detail: 'No tool of this agent applies to the questions, so nothing was searched for.' }, performance.now()))
  }
  return { state: { ...state, evidence: [...state.evidence, ...evidence], steps: [...state.steps, ...entries] }, next: 'grade' }
}

/**
 * The statements of a question's evidence that speak to it: a fact tool's answer (today's date, a sum) counts only
 * when the question asks for that fact, by the tool's own reading of its words, or shares a word with it. The date
 * is no answer to a question about publishing drafts, whichever tool the planner chose.
 */
export function statementsFor(question: SubQuestion, evidence: Evidence[], context: Pick<StepContext, 'tools' | 'weightOf'>): string[] {
  return evidence.flatMap((item) => {
    if (!item.statement) return []
    const tool = context.tools.get(item.tool)
    const isAskedFor =
      tool?.kind !== 'fact' || tool.inputFor(question.text) !== undefined || gradeCoverage(subjectOf(question.text), [item.statement], context.weightOf).grade > 0
    return isAskedFor ? [item.statement] : []
  })
}

const grade: StepHandler = async (state, context) => {
  const startedAt = performance.now()
  const subject = state.variant === 'government' ? subjectOf(state.command) : null
  const subQuestions = state.sub_questions.map((question) => {
    const evidence = evidenceOf(state, question)
    // A question for a fact tool (a sum, the date) is answered or not, and a second try would not change that.
    const isFactQuestion = evidence.length > 0 && evidence.every((item) => context.tools.get(item.tool)?.kind === 'fact')
    // A section is graded on the command's subject: its title names a kind of text ("Background"), not a topic. A
    // question is graded on its own subject: "Summarise what the knowledge base says about X" needs evidence on X.
    const graded = subject ?? subjectOf(question.text)
    // A fact the question did not ask for answers nothing: the question is graded 0 and may be searched for again.
    const isFactAnswered = isFactQuestion && statementsFor(question, evidence, context).length > 0
    const isUnaskedFact = isFactQuestion && !isFactAnswered && evidence.some((item) => item.statement !== null)
    const coverage = isFactQuestion
      ? { grade: isFactAnswered ? 1 : 0, missingStems: [] }
      : gradeCoverage(graded, textsOf(evidence), context.weightOf)
    return {
      ...question,
      grade: coverage.grade,
      missingWords: wordsOfStems(graded, coverage.missingStems),
      isSettled: question.isSettled || (isFactQuestion && !isUnaskedFact) || coverage.grade >= GRADE_THRESHOLD,
    }
  })
  const currentGrade =
    state.variant === 'government'
      ? // The weakest section decides: a document is as good as its emptiest part.
        Math.min(...subQuestions.map((question) => question.grade ?? 0))
      : gradeCoverage(subjectOf(state.command), textsOf(state.evidence), context.weightOf).grade
  const canWiden = subQuestions.some((question) => !question.isSettled)
  const isTooLow = currentGrade < GRADE_THRESHOLD
  const loops = isTooLow && canWiden && state.iteration < state.max_iteration
  const finalStep: WorkflowStepId = state.variant === 'government' ? 'fill_template' : 'compose'
  const verdict = !isTooLow
    ? `≥ ${GRADE_THRESHOLD}: the evidence covers enough, so on to ${finalStep}`
    : loops
      ? `< ${GRADE_THRESHOLD}: not enough yet, so searching again (loop ${state.iteration + 1} of ${state.max_iteration})`
      : !canWiden
        ? `< ${GRADE_THRESHOLD}, but nothing is left to search for, so on to ${finalStep}`
        : `< ${GRADE_THRESHOLD}, but max_iteration (${state.max_iteration}) is reached, so on to ${finalStep}`
  const entry = traceEntry(context, { step: 'grade', iteration: state.iteration, status: 'done', detail: `Grade ${currentGrade.toFixed(2)} ${verdict}.` }, startedAt)
  return {
    state: { ...state, sub_questions: subQuestions, current_grade: Number.isFinite(currentGrade) ? currentGrade : 0, steps: [...state.steps, entry] },
    next: loops ? 'plan' : finalStep,
  }
}

/** Why a question got no answer: the tools that failed for it, or that the knowledge base has nothing on it. */
export function explainUnanswered(question: string, evidence: Evidence[]): string {
  const failures = evidence.filter((item) => item.failure !== null)
  if (failures.length > 0) return `I could not answer ${quote(question)}: ${failures.map((item) => `${item.tool} failed (${item.failure})`).join('; ')}.`
  return `I could not find anything about ${quote(question)} in the knowledge base.`
}

/** Everything the tools failed at, when nothing at all could be answered: the run's clear failure. */
export function failuresOf(state: AgentState): string | null {
  const failures = state.evidence.filter((item) => item.failure !== null)
  return failures.length > 0 ? `Nothing could be answered; ${failures.map((item) => `${item.tool} failed: ${item.failure}`).join('; ')}` : null
}

/** A clause that asks rather than instructs: what, how, can, is … (not "list", "summarise"). */
const ASKS = /^(?:what|how|why|when|where|who|whom|which|whose|can|could|does|do|did|is|are|was|were|should|will|would|may)\b/i

/**
 * A part's question as its bold heading: capitalised, and ending with "?" when it asks ("who can publish drafts", cut
 * from "Who can publish drafts, and how …", reads "Who can publish drafts?").
 */
export function partHeading(question: string): string {
  const text = question.trim()
  return ASKS.test(text) && !/[.?!:]$/.test(text) ? `${capitalised(text)}?` : capitalised(text)
}

const compose: StepHandler = async (state, context) => {
  const startedAt = performance.now()
  const citations = new CitationList()
  const isMultipart = state.sub_questions.length > 1
  let answeredParts = 0
  const parts: string[] = []
  for (const question of state.sub_questions) {
    const evidence = evidenceOf(state, question)
    const statements = statementsFor(question, evidence, context)
    // A part that leans on the one before ("How large can they be?") is composed with the words it borrowed.
    const borrowed = borrowedWords(question)
    const asked = borrowed ? `${question.text} (${borrowed})` : question.text
    const composed = await context.reasoning.composer.composePart({ question: asked, chunks: passagesOf(evidence), citations, signal: context.signal })
    const text = joinAnswerPieces([...statements, composed?.text])
    if (text) answeredParts++
    const part = text || explainUnanswered(question.text, evidence)
    parts.push(isMultipart ? joinAnswerPieces([`**${partHeading(question.text)}**`, part]) : part)
  }
  const error = answeredParts === 0 ? failuresOf(state) : null
  const answer = answeredParts === 0 && !error ? NOT_FOUND_ANSWER : parts.join('\n\n')
  const how = context.reasoning.composer.name === 'model' ? 'with the model' : 'by quoting the passages'
  const detail = `Wrote the answer ${how}: ${answeredParts} of ${plural(state.sub_questions.length, 'question')} answered, citing ${plural(citations.sources.length, 'source')}.`
  const notes = notesOf(context, 'compose', state.iteration)
  const entry = traceEntry(context, { step: 'compose', iteration: state.iteration, status: error ? 'failed' : 'done', detail, error }, startedAt)
  return { state: { ...state, current_answer: answer, source_list: citations.sources, error, steps: [...state.steps, ...notes, entry] }, next: 'end' }
}

const fillTemplateStep: StepHandler = async (state, context) => {
  const startedAt = performance.now()
  const filled = await fillTemplate(state, context)
  const answered = filled.sections.filter((section) => section.isAnswered).length
  const error = answered === 0 ? (failuresOf(state) ?? null) : null
  const how = context.reasoning.composer.name === 'model' ? ', written with the model' : ', quoting the passages'
  const setAside = filled.setAside > 0 ? `; ${plural(filled.setAside, 'passage')} found for a section, but about another section or subject, left out` : ''
  const detail = `Filled ${answered} of ${plural(filled.sections.length, 'section')} from the knowledge base${how}, citing ${plural(filled.sourceList.length, 'source')}${setAside}.`
  const notes = notesOf(context, 'fill_template', state.iteration)
  const entry = traceEntry(context, { step: 'fill_template', iteration: state.iteration, status: error ? 'failed' : 'done', detail, error }, startedAt)
  return {
    state: {
      ...state,
      sections: filled.sections.map(({ title, instructions, answer, sourceNumbers }) => ({ title, instructions, answer, sourceNumbers })),
      current_answer: filled.markdown,
      source_list: filled.sourceList,
      error,
      steps: [...state.steps, ...notes, entry],
    },
    next: 'end',
  }
}

/** The handler of every step of WORKFLOW_STEPS, by id. */
export const WORKFLOW_HANDLERS: Record<WorkflowStepId, StepHandler> = { plan, retrieve, grade, compose, fill_template: fillTemplateStep }
