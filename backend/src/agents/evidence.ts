import type { CitableChunk } from '../answering/citations'
import type { AgentState, Evidence, SubQuestion } from './agent-state'

/** Which evidence belongs to a sub-question: its template section, or its text. */
export const keyOf = (question: SubQuestion) => (question.section !== null ? `section:${question.section}` : question.text)

export const evidenceOf = (state: AgentState, question: SubQuestion) => state.evidence.filter((item) => item.question === keyOf(question))

/** Passages in the order they were found (targeted tools and earlier loops first), each once. */
export function passagesOf(evidence: Evidence[]): CitableChunk[] {
  const seen = new Set<number>()
  return evidence.flatMap((item) => item.chunks).filter((chunk) => !seen.has(chunk.chunkId) && Boolean(seen.add(chunk.chunkId)))
}

/** The text each piece of evidence offers, for grading. */
export const textsOf = (evidence: Evidence[]) =>
  evidence.flatMap((item) => [...item.chunks.map((chunk) => `${chunk.title}\n${chunk.text}`), ...(item.statement ? [item.statement] : [])])
