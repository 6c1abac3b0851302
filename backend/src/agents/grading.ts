import { tokenize } from '../retrieval/text'

/** Evidence covering at least this share of a question's weighted words is good enough; below it the agent loops. */
export const GRADE_THRESHOLD = 0.75

export interface Coverage {
  /** Share of the question's idf weight whose stems occur in the evidence, 0..1 (0 for a question without words). */
  grade: number
  /** The question's stems the evidence lacks, heaviest first. */
  missingStems: string[]
}

/**
 * Overlap grading: how much of a question the evidence speaks of. Each stem of the question weighs its idf in the
 * knowledge base, so rare, telling words count more than common ones; a word the knowledge base never uses
 * weighs the most and keeps the grade honest about what is not there.
 */
export function gradeCoverage(question: string, evidenceTexts: string[], weightOf: (stem: string) => number): Coverage {
  const stems = [...new Set(tokenize(question))]
  if (stems.length === 0) return { grade: 0, missingStems: [] }
  const present = new Set(evidenceTexts.flatMap((text) => tokenize(text)))
  const weights = new Map(stems.map((stem) => [stem, Math.max(0, Number.isFinite(weightOf(stem)) ? weightOf(stem) : 0)]))
  const totalWeight = [...weights.values()].reduce((sum, weight) => sum + weight, 0)
  // Without informative weights (an empty knowledge base), every word counts the same.
  const weightOfStem = (stem: string) => (totalWeight > 0 ? (weights.get(stem) ?? 0) / totalWeight : 1 / stems.length)
  const grade = stems.filter((stem) => present.has(stem)).reduce((sum, stem) => sum + weightOfStem(stem), 0)
  const missingStems = stems.filter((stem) => !present.has(stem)).sort((a, b) => weightOfStem(b) - weightOfStem(a))
  return { grade: Math.min(1, Number(grade.toFixed(4))), missingStems }
}

/** The words of a text whose stems are listed, as written, in the text's order: what a wider search asks for. */
export function wordsOfStems(text: string, stems: string[]): string[] {
  const wanted = new Set(stems)
  const words: string[] = []
  const seen = new Set<string>()
  for (const word of text.match(/[\p{L}\p{N}]+/gu) ?? []) {
    const [stem] = tokenize(word)
    if (stem && wanted.has(stem) && !seen.has(stem)) {
      seen.add(stem)
      words.push(word)
    }
  }
  return words
}
