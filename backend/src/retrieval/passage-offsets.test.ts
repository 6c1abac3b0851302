import { describe, expect, it } from 'vitest'
import { chunkArticle } from './chunker'
import { locatePassages, normalizeLineEnds } from './passage-offsets'

const spansOf = (text: string, options?: Parameters<typeof chunkArticle>[1]) => {
  const chunks = chunkArticle(text, options)
  return { chunks, spans: locatePassages(normalizeLineEnds(text), chunks.map((chunk) => chunk.text)) }
}

describe('locatePassages', () => {
  it('places every chunk of a Markdown article in the text, blocks and blank lines between them included', () => {
    const text = [
      '# Bicycles',
      '',
      'A bicycle must have a working bell. It warns other people.',
      '',
      '- Lights at night',
      '- Reflectors on the pedals',
      '',
      '## Brakes',
      '',
      'Check the brakes every week. Replace worn pads at once.',
    ].join('\n')
    const { chunks, spans } = spansOf(text, { maxWords: 12 })
    expect(chunks.length).toBeGreaterThan(2)
    for (const [index, chunk] of chunks.entries()) {
      const span = spans[index]
      expect(span, chunk.text).not.toBeNull()
      const slice = text.slice(span!.start, span!.end)
      // The slice is the chunk's text, with the blank lines (and any word-less block) between its parts kept.
      expect(slice.replace(/\n{2,}/g, '\n\n')).toBe(chunk.text)
    }
  })

  it('places a sentence cut out of the middle of a paragraph, and overlapping chunks in order', () => {
    const text = 'First sentence is here. Second sentence follows on. Third sentence ends it. Fourth one closes.'
    const { chunks, spans } = spansOf(text, { maxWords: 8, overlapSentences: 1 })
    expect(chunks.length).toBeGreaterThan(1)
    for (const [index, chunk] of chunks.entries()) expect(text.slice(spans[index]!.start, spans[index]!.end)).toBe(chunk.text)
    expect(spans[1]!.start).toBeGreaterThan(spans[0]!.start)
    expect(spans[1]!.start).toBeLessThan(spans[0]!.end)
  })

  it('finds a repeated paragraph at its own place, and gives null for text the article no longer has', () => {
    const text = 'Same words again.\n\nIn between.\n\nSame words again.'
    expect(locatePassages(text, ['Same words again.', 'In between.', 'Same words again.'])).toEqual([
      { start: 0, end: 17 },
      { start: 19, end: 30 },
      { start: 32, end: 49 },
    ])
    expect(locatePassages(text, ['Words that were edited away.', ''])).toEqual([null, null])
  })

  it('reads Windows line ends as the chunker does', () => {
    const text = 'Kettles need descaling.\r\n\r\nUse citric acid.'
    const normalized = normalizeLineEnds(text)
    expect(normalized).toBe('Kettles need descaling.\n\nUse citric acid.')
    const [span] = locatePassages(normalized, chunkArticle(text).map((chunk) => chunk.text))
    expect(span).toEqual({ start: 0, end: normalized.length })
  })
})
