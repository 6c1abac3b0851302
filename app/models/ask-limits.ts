// Limits of the Ask page shared by its server checks and its markup (no imports: the page's JavaScript budget).

/** SEED.md §4: a slow answer is fetched again up to 10 times, waiting 1 s, 2 s, … up to 10 s. */
export const MAX_ANSWER_TRIES = 10
export const QUESTION_MAX_LENGTH = 4000

/**
 * A question or command kept in the address through sign-in (`?draft=`, `&cut=1` when only its beginning fitted;
 * ADR 324), or null.
 */
export function keptDraftOf(url: URL): { text: string; isCut: boolean } | null {
  const text = url.searchParams.get('draft')
  if (!text?.trim()) return null
  return { text: text.slice(0, QUESTION_MAX_LENGTH), isCut: url.searchParams.get('cut') === '1' }
}
export const FEEDBACK_REASON_MAX_LENGTH = 1000
export const SAVED_COMMENT_MAX_LENGTH = 5000

/**
 * When to check a slow answer again (SEED.md §4). Check 0 is the page the question's post leads to: it shows what is
 * known and fetches nothing. Check n (1 to MAX_ANSWER_TRIES) fetches the answer again, n seconds after check n - 1.
 * Returns the next check and the wait before it, or null once the last check has been made.
 */
export function nextAnswerCheck(check: number): { check: number; waitSeconds: number } | null {
  const current = Math.max(0, Math.floor(check))
  if (current >= MAX_ANSWER_TRIES) return null
  return { check: current + 1, waitSeconds: current + 1 }
}

/** A check number from the address: 0 to MAX_ANSWER_TRIES, anything else is none (the answer is fetched once). */
export function answerCheckOf(value: string | null): number | null {
  if (value === null || !/^\d{1,2}$/.test(value)) return null
  const check = Number(value)
  return check <= MAX_ANSWER_TRIES ? check : null
}
