/**
 * Words for the codes the backend stores (modes, statuses, agent variants, tool names), so no snake_case or internal
 * value reaches a reader. An unknown code is still made readable rather than shown raw.
 */
const MODES: Record<string, string> = { expert: 'Knowledge base', agent: 'Agent', qa: 'Knowledge base' }
const VARIANTS: Record<string, string> = { general: 'general agent', government: 'government agent' }
const STATUSES: Record<string, string> = {
  pending: 'Waiting',
  queued: 'Waiting',
  running: 'Running',
  finished: 'Answered',
  answered: 'Answered',
  not_found: 'No answer found',
  done: 'Done',
  failed: 'Failed',
  blocked: 'Blocked by the content filter',
  cancelled: 'Cancelled',
  resumed: 'Resumed',
  'not found': 'Not found',
}

/** "search_knowledge_base" → "Search knowledge base". */
export function humanize(code: string): string {
  const words = code.replace(/[_-]+/g, ' ').replace(/([a-z])([A-Z])/g, '$1 $2').trim().toLowerCase()
  return words ? words[0].toUpperCase() + words.slice(1) : code
}

export function modeLabel(mode: string, variant?: string | null): string {
  const base = MODES[mode] ?? humanize(mode)
  return variant ? `${base} (${VARIANTS[variant] ?? humanize(variant).toLowerCase()})` : base
}

export function statusLabel(status: string): string {
  return STATUSES[status] ?? humanize(status)
}
