/** SQuAD's answer normalisation: lowercase, no punctuation, no articles, single spaces. */
export function normalizeAnswer(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s]/gu, ' ')
    .replace(/\b(a|an|the)\b/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
}

/** Whether the answer contains one of the gold answers, both normalised (the "answer recall" of extractive QA). */
export function containsGoldAnswer(answer: string, goldAnswers: readonly string[]): boolean {
  const normalized = ` ${normalizeAnswer(answer)} `
  return goldAnswers.some((gold) => {
    const expected = normalizeAnswer(gold)
    return expected !== '' && normalized.includes(` ${expected} `)
  })
}

export function countWords(text: string): number {
  return text.split(/\s+/).filter((word) => /[\p{L}\p{N}]/u.test(word)).length
}
