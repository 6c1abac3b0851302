import { useState } from 'react'

/**
 * How many answers a form's action has given while the page stayed open: a field keyed on it is remounted, and so
 * emptied, by each answer, as a page without scripts comes back with it empty. The count changes in the render that
 * shows the answer (state adjusted while rendering, not in an effect): once the answer's message is on the screen the
 * field is already the new, empty one, so what someone types next is never wiped a moment later.
 */
export function useAnswerCount(actionData: unknown): number {
  const [seen, setSeen] = useState({ actionData, count: 0 })
  if (seen.actionData === actionData) return seen.count
  const next = { actionData, count: seen.count + (actionData ? 1 : 0) }
  setSeen(next)
  return next.count
}
