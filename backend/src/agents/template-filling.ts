import type { Source } from '../../../contracts/ask'
import { CitationList } from '../answering/citations'
import { joinAnswerPieces } from '../retrieval/extractive-answer'
import type { AgentState, SectionState } from './agent-state'
import { capitalised, namedSubjectOf, subjectOf } from './lexical-planner'
import type { StepContext } from './workflow-runtime'
import { evidenceOf, passagesOf } from './evidence'
import { passagesForSections } from './section-passages'

export interface FilledSection extends SectionState {
  isAnswered: boolean
}

export interface FilledTemplate {
  sections: FilledSection[]
  /** The document: the template's name as its title, then a heading per section with its text and sources. */
  markdown: string
  sourceList: Source[]
  /** Passages the sections' searches found that were about another section or another subject, left out. */
  setAside: number
}

// Markdown that would change the document's structure if a title or command carried it.
const escapeInline = (text: string) => text.replace(/([\\`*_[\]#<>|])/g, '\\$1').replace(/\s+/g, ' ').trim()

/**
 * Fills a template section by section from the evidence each section's searches found, keeping only the passages
 * about both the command's subject and the section's own aspect (passagesForSections). Every section cites
 * into one source list, so [n] means the same source throughout the document; a passage already quoted by an
 * earlier section is used again only when a section has nothing else, so sections do not repeat each other; when
 * that still says word for word what an earlier section said, the section points to it instead.
 */
export async function fillTemplate(
  state: AgentState,
  context: Pick<StepContext, 'reasoning' | 'templateName' | 'weightOf'> & Partial<Pick<StepContext, 'signal' | 'templateInstructions'>>,
): Promise<FilledTemplate> {
  const citations = new CitationList()
  const subject = subjectOf(state.command)
  const evidenceBySection = state.sections.map((_section, index) => {
    const question = state.sub_questions.find((candidate) => candidate.section === index)
    return question ? evidenceOf(state, question) : []
  })
  const chosen = passagesForSections(subject, state.sections, evidenceBySection.map(passagesOf), context.weightOf)
  const quoted = new Set<number>()
  const sections: FilledSection[] = []
  // The title of the first section that said each text: a later section that could only say it again points there.
  const saidIn = new Map<string, string>()
  for (const [index, section] of state.sections.entries()) {
    const evidence = evidenceBySection[index]
    const statements = evidence.flatMap((item) => (item.statement ? [item.statement] : []))
    const passages = chosen[index].chunks
    const fresh = passages.filter((chunk) => !quoted.has(chunk.chunkId))
    // A section without an aspect ("Summary") is about the whole subject: its words say how to write, which a
    // model reads in the section's instructions, and they would only steer a quote off the subject.
    const focus = chosen[index].hasAspect ? `${section.title}\n${section.instructions}` : undefined
    // With a model, each section is written in the template agent's voice and falls back to quoting on its own.
    const compose = (chunks: typeof passages) =>
      context.reasoning.composer.composePart({
        question: subject,
        focus,
        section: { title: section.title, instructions: section.instructions, documentInstructions: context.templateInstructions ?? undefined },
        chunks,
        citations,
        signal: context.signal,
      })
    const composed = (fresh.length > 0 ? await compose(fresh) : null) ?? (fresh.length < passages.length ? await compose(passages) : null)
    for (const chunkId of composed?.citedChunkIds ?? []) quoted.add(chunkId)
    const written = joinAnswerPieces([...statements, composed?.text])
    const earlier = written ? saidIn.get(written) : undefined
    if (written && !earlier) saidIn.set(written, section.title)
    // Quoting the same sentences twice (an aspect-free section with no passage of its own) reads as a mistake.
    const text = earlier ? `_As under ${escapeInline(earlier)} above: the knowledge base says nothing more on this._` : written
    const failures = evidence.filter((item) => item.failure !== null).map((item) => `${item.tool} failed: ${item.failure}`)
    const sourceNumbers = [...new Set((composed?.citedChunkIds ?? []).map((chunkId) => citations.numberOf(chunkId)!))].sort((a, b) => a - b)
    sections.push({
      title: section.title,
      instructions: section.instructions,
      answer: text || `_The knowledge base has nothing for this section._${failures.length ? ` (${failures.join('; ')})` : ''}`,
      sourceNumbers,
      isAnswered: Boolean(text),
    })
  }
  // What the document is about: the subject the command names, without the request's wording ("Write a briefing on
  // …"); for a command that names none ("Write me a brief"), the article it draws on most; with nothing found, no line.
  const about = namedSubjectOf(state.command) ?? mainSourceTitle(sections, citations.sources)
  const markdown = [
    `# ${escapeInline(context.templateName ?? 'Document')}`,
    ...(about ? [`**Subject:** ${escapeInline(capitalised(about))}`] : []),
    ...sections.flatMap((section) => [
      `## ${escapeInline(section.title)}`,
      section.answer ?? '',
      ...(section.sourceNumbers.length
        ? [`*Sources: ${section.sourceNumbers.map((number) => `[${number}] ${escapeInline(citations.sources[number - 1].metadata.title)}`).join('; ')}*`]
        : []),
    ]),
  ].join('\n\n')
  return { sections, markdown, sourceList: citations.sources, setAside: chosen.reduce((sum, section) => sum + section.setAside, 0) }
}

/** The title of the article the most sections cite (the first cited of those), or null when no section cites any. */
function mainSourceTitle(sections: FilledSection[], sources: Source[]): string | null {
  const sectionsCiting = new Map<number, number>()
  for (const section of sections) {
    for (const article of new Set(section.sourceNumbers.map((number) => sources[number - 1].metadata.doc_id))) {
      sectionsCiting.set(article, (sectionsCiting.get(article) ?? 0) + 1)
    }
  }
  let main: Source | null = null
  for (const source of sources) {
    const count = sectionsCiting.get(source.metadata.doc_id) ?? 0
    if (count > (main ? (sectionsCiting.get(main.metadata.doc_id) ?? 0) : 0)) main = source
  }
  return main ? main.metadata.title || main.metadata.source : null
}
