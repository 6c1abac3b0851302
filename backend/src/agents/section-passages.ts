import type { CitableChunk } from '../answering/citations'
import { tokenize } from '../retrieval/text'

/**
 * Words about the document or its sources rather than a topic ("Summary", "Key facts", "What the knowledge base
 * says"). A section whose title has no other word (beside the subject's) is about the brief's subject in general,
 * and any passage on the subject serves it; in a section's words they never decide what a passage is about.
 */
const DOCUMENT_STEMS = new Set(
  tokenize(
    'summary overview introduction background context conclusion recommendation abstract outline purpose scope notes details ' +
      'description highlights executive key points remarks main general knowledge base sources says facts findings information ' +
      // Words on how to write a section ("leave it out when they say nothing", "in two or three sentences"), which a
      // passage shares by chance: "The assistant found nothing relevant" is no next step.
      'write written reader readers describe describes leave omit nothing anything sentence sentences paragraph paragraphs ' +
      'word words plain short brief list bullet bullets mention include',
  ),
)

/**
 * Whether a section's title names an aspect of the subject ("Costs", "Next steps"), not only a part of the document
 * ("Summary", "What the knowledge base says"). `subject`: the brief's subject, or the stems that count as its words.
 */
export function namesAspect(subject: string | ReadonlySet<string>, title: string): boolean {
  const subjectStems = typeof subject === 'string' ? new Set(tokenize(subject)) : subject
  return tokenize(title).some((stem) => !subjectStems.has(stem) && !DOCUMENT_STEMS.has(stem))
}

/**
 * A passage stays in a section when it is at least this much about the brief's subject, relative to the section's
 * passage most about it: a "building permit" fees passage matches "parking permit" only by its common word, so a
 * "parking permit" fees passage puts it out; when no passage has the rarer word, the best of them still counts.
 */
export const SUBJECT_MARGIN = 0.75

export interface SectionWords {
  title: string
  instructions: string
}

export interface SectionPassages {
  /** The passages each section is written from, in the order they were found. */
  chunks: CitableChunk[]
  /** Passages its searches found that are about another section's aspect or another subject. */
  setAside: number
  /** Whether its title names an aspect of the subject; without one, its words only say how to write. */
  hasAspect: boolean
}

const weightOfStem = (weightOf: (stem: string) => number, stem: string) => {
  const weight = weightOf(stem)
  return Number.isFinite(weight) && weight > 0 ? weight : 0
}

const sumOf = (stems: Iterable<string>, weightOf: (stem: string) => number) => {
  let sum = 0
  for (const stem of stems) sum += weightOfStem(weightOf, stem)
  return sum
}

/**
 * Chooses, for each section of a brief, the passages its searches found that are about both the brief's subject
 * (the command without its directive) and the section's own aspect (its title and instructions less the subject's
 * words), weighing words by their idf:
 *
 * - aspect: a passage belongs to the sections whose aspect words it shares most (by weight), and to none when it
 *   shares none; it is read in its own text, which starts with its heading, or with its article's title when the
 *   article has no headings. A section whose title only names a part of the document ("Summary") has no aspect
 *   and takes any passage; a section whose aspect no passage shares gets none, and says so;
 * - subject: of those, a passage stays when it holds at least SUBJECT_MARGIN of the subject's weight that the
 *   section's passage most about the subject holds (title and text), and some of it. A passage of a section with
 *   an aspect that holds some of it but is put out so shows its article to be about another subject, and the
 *   article's other passages go too, in every section. Subject words the knowledge base never uses weigh nothing,
 *   so a generic command ("A briefing") leaves the choice to the sections' words.
 *
 * Words alone cannot tell advice on plants in general (kept in a brief on tomato plants) from another kind of
 * permit (out of a brief on parking permits) until a passage more about the subject shows the difference: an
 * article on a neighbouring subject is only put out when the brief also found its subject's own passages.
 */
export function passagesForSections(
  subject: string,
  sections: SectionWords[],
  candidates: CitableChunk[][],
  weightOf: (stem: string) => number,
): SectionPassages[] {
  const subjectStems = new Set(tokenize(subject).filter((stem) => weightOfStem(weightOf, stem) > 0))
  const subjectWeight = sumOf(subjectStems, weightOf)
  const isAspectStem = (stem: string) => !subjectStems.has(stem) && !DOCUMENT_STEMS.has(stem)
  // The title names the section's aspect; its instructions, often words on how to write, only add to a named one.
  const aspects = sections.map((section) =>
    namesAspect(subjectStems, section.title) ? new Set(tokenize(`${section.title}\n${section.instructions}`).filter(isAspectStem)) : new Set<string>(),
  )
  const aspectScores = new Map<number, number[]>()
  const aspectScoresOf = (chunk: CitableChunk) => {
    let scores = aspectScores.get(chunk.chunkId)
    if (!scores) {
      const hasHeading = /^#{1,6}\s/m.test(chunk.text)
      const stems = new Set(tokenize(hasHeading ? chunk.text : `${chunk.title}\n${chunk.text}`))
      scores = aspects.map((aspect) => sumOf([...aspect].filter((stem) => stems.has(stem)), weightOf))
      aspectScores.set(chunk.chunkId, scores)
    }
    return scores
  }
  const subjectShareOf = (chunk: CitableChunk) => {
    const stems = new Set(tokenize(`${chunk.title}\n${chunk.text}`))
    return sumOf([...subjectStems].filter((stem) => stems.has(stem)), weightOf) / subjectWeight
  }
  const onAspect = sections.map((_section, index) => {
    const found = candidates[index] ?? []
    if (aspects[index].size === 0) return found
    return found.filter((chunk) => {
      const scores = aspectScoresOf(chunk)
      // Sections without an aspect do not compete for passages.
      const best = Math.max(...scores.filter((_score, other) => aspects[other].size > 0))
      return scores[index] > 0 && scores[index] >= best
    })
  })
  const resultOf = (chunks: CitableChunk[], index: number): SectionPassages => ({
    chunks,
    setAside: (candidates[index] ?? []).length - chunks.length,
    hasAspect: aspects[index].size > 0,
  })
  if (subjectWeight === 0) return onAspect.map(resultOf)
  const offSubjectArticles = new Set<number>()
  const onSubject = onAspect.map((chunks, index) => {
    const shares = new Map(chunks.map((chunk) => [chunk.chunkId, subjectShareOf(chunk)]))
    const bestShare = Math.max(0, ...shares.values())
    return chunks.filter((chunk) => {
      const share = shares.get(chunk.chunkId)!
      const isKept = share > 0 && share >= SUBJECT_MARGIN * bestShare
      // It matched the subject in part, and lost to a passage on the same aspect more about it: its article is
      // about another subject ("building permits" beside "parking permits"). A general section's passages share
      // no aspect, so losing there says nothing of the kind.
      if (!isKept && share > 0 && aspects[index].size > 0) offSubjectArticles.add(chunk.articleId)
      return isKept
    })
  })
  return onSubject.map((chunks, index) => resultOf(chunks.filter((chunk) => !offSubjectArticles.has(chunk.articleId)), index))
}
