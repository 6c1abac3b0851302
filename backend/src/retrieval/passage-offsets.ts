/**
 * Where an article's stored passages (chunks, see chunker.ts) sit in its text. A chunk is the article's own text,
 * one trimmed slice per Markdown block it spans, joined by a blank line; so its first and last slices, found in
 * order, give its span. Chunks come in order, so each is looked for from just after where the previous one began
 * (chunks may overlap, never go backwards).
 */
export interface PassageSpan {
  /** Offset of the passage's first character in the text. */
  start: number
  /** Offset just past its last character. */
  end: number
}

/** The span of each passage in `text` (line ends as "\n", as the chunker saw it), or null when it is not there. */
export function locatePassages(text: string, passages: readonly string[]): Array<PassageSpan | null> {
  let from = 0
  return passages.map((passage) => {
    const span = locateFrom(text, passage, from) ?? locateFrom(text, passage, 0)
    if (span) from = span.start + 1
    return span
  })
}

function locateFrom(text: string, passage: string, from: number): PassageSpan | null {
  const parts = passage.split('\n\n').filter((part) => part.length > 0)
  if (parts.length === 0) return null
  const start = text.indexOf(parts[0], from)
  if (start < 0) return null
  let end = start + parts[0].length
  for (const part of parts.slice(1)) {
    const at = text.indexOf(part, end)
    if (at < 0) return null
    end = at + part.length
  }
  return { start, end }
}

/** The text with every line end as "\n", as the chunker reads it: offsets of passages are offsets in this. */
export function normalizeLineEnds(text: string): string {
  return text.replace(/\r\n?/g, '\n')
}
