import { localPathUrl } from './local-path'

/**
 * The reader view of an article (/read/<id>), which every signed-in role opens: where answers' sources lead, with
 * the quoted passage marked and scrolled to.
 */

/**
 * The reader's address for an article, with the cited passage (a source's `metadata.id`) marked and scrolled to, and
 * `back`, the address of the screen to return to (Ask's thread), when the link knows it better than the Referer.
 */
export function readerHref(articleId: number, passageId?: number | null, back?: string | null): string {
  const params = new URLSearchParams()
  if (passageId) params.set('passage', String(passageId))
  if (back) params.set('back', back)
  const query = params.toString()
  return `/read/${articleId}${query ? `?${query}` : ''}${passageId ? '#passage' : ''}`
}

/**
 * The address of the screen being shown with `hash` for its fragment: the `back` of the reader links it shows, so that
 * the reader returns to the very list item a source was opened from, whatever the browser sends as Referer.
 */
export function backHere(location: { pathname: string; search: string }, hash: string): string {
  return `${location.pathname}${location.search}#${hash}`
}

/** Screens that link to the reader, by the first segment of their address, and how the way back to them reads. */
const BACK_LABELS: Record<string, (path: string) => string> = {
  ask: () => 'Back to Ask',
  agent: () => 'Back to Agent',
  saved: (path) => (path === '/saved' ? 'Back to Saved queries' : 'Back to the saved answer'),
  logs: (path) => (path === '/logs' ? 'Back to Logs' : 'Back to the log'),
}

/**
 * The reader's way back to `path` (a source link's `back`, or the path and query of the Referer): only a path of this
 * site, of a screen that links to the reader, with its query and fragment, so that the link can never lead to another
 * site. Null for anything else.
 */
export function readerBackLink(path: string | null | undefined): { to: string; label: string } | null {
  const url = localPathUrl(path, 2000)
  if (!url) return null
  const label = BACK_LABELS[url.pathname.split('/')[1] ?? '']
  if (!label) return null
  return { to: `${url.pathname}${url.search}${url.hash}`, label: label(url.pathname) }
}

/** An article's Markdown cut around the quoted passage, so the passage can be shown marked between the rest. */
export interface PassageParts {
  before: string
  passage: string
  after: string
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/

/**
 * Cuts `content` at the passage's offsets. A passage starting or ending inside a fenced code block or a table would
 * leave half of it to be read as something else, so such a cut moves out to the whole block. Null when the offsets
 * do not fit the text.
 */
export function splitAtPassage(content: string, start: number | null, end: number | null): PassageParts | null {
  if (start === null || end === null || start < 0 || end <= start || end > content.length) return null
  let from = start
  let to = end
  const fenceOpenAt = openFenceBefore(content, from)
  if (fenceOpenAt !== null) from = fenceOpenAt
  const fenceOpenAtEnd = openFenceBefore(content, to)
  if (fenceOpenAtEnd !== null) to = fenceEndAfter(content, to)
  from = tableStartAt(content, from)
  to = tableEndAt(content, to)
  return { before: content.slice(0, from), passage: content.slice(from, to), after: content.slice(to) }
}

const lineStartOf = (text: string, offset: number) => text.lastIndexOf('\n', offset - 1) + 1
const lineEndOf = (text: string, offset: number) => {
  const end = text.indexOf('\n', offset)
  return end < 0 ? text.length : end
}

/** Where the fenced code block open at `offset` begins (its opening line), or null when none is open there. */
function openFenceBefore(text: string, offset: number): number | null {
  let open: { at: number; marker: string } | null = null
  let lineStart = 0
  while (lineStart < offset) {
    const line = text.slice(lineStart, lineEndOf(text, lineStart))
    const fence = FENCE.exec(line)
    if (fence) {
      if (!open) open = { at: lineStart, marker: fence[1] }
      else if (fence[1][0] === open.marker[0] && fence[1].length >= open.marker.length && line.trim() === fence[1]) open = null
    }
    lineStart = lineEndOf(text, lineStart) + 1
  }
  return open?.at ?? null
}

/** Just past the line that closes the code block open at `offset` (or the end of the text when none does). */
function fenceEndAfter(text: string, offset: number): number {
  let lineStart = lineEndOf(text, offset) + 1
  while (lineStart <= text.length && lineStart > 0) {
    const lineEnd = lineEndOf(text, lineStart)
    if (FENCE.test(text.slice(lineStart, lineEnd))) return lineEnd
    if (lineEnd >= text.length) break
    lineStart = lineEnd + 1
  }
  return text.length
}

const isTableLine = (line: string) => line.trimStart().startsWith('|')

/** The start of the table a cut at `offset` would split (the offset itself when it splits none). */
function tableStartAt(text: string, offset: number): number {
  let lineStart = lineStartOf(text, offset)
  if (!isTableLine(text.slice(lineStart, lineEndOf(text, lineStart)))) return offset
  while (lineStart > 0) {
    const previous = lineStartOf(text, lineStart - 1)
    if (!isTableLine(text.slice(previous, lineStart - 1))) break
    lineStart = previous
  }
  return lineStart
}

/** The end of the table a cut at `offset` would split (the offset itself when it splits none). */
function tableEndAt(text: string, offset: number): number {
  const lineStart = lineStartOf(text, offset)
  if (!isTableLine(text.slice(lineStart, lineEndOf(text, lineStart)))) return offset
  let lineEnd = lineEndOf(text, offset)
  while (lineEnd < text.length) {
    const next = lineEndOf(text, lineEnd + 1)
    if (!isTableLine(text.slice(lineEnd + 1, next))) break
    lineEnd = next
  }
  return lineEnd
}
