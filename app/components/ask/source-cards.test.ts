import { describe, expect, it } from 'vitest'
import type { Source } from '../../../contracts/ask'
import { sourceCards } from './source-cards'

const source = (docId: number, chunkId: number): Source => ({
  page_content: `passage ${chunkId}`,
  metadata: { source: `Article ${docId}`, id: chunkId, doc_id: docId, is_deleted: false, title: `Article ${docId}`, score: 1, kind: 'article' },
})

describe('source cards', () => {
  it('shows an article once, with its passages under their citation numbers, in the order articles are first cited', () => {
    const cards = sourceCards([source(7, 70), source(3, 30), source(7, 71), source(9, 90)])
    expect(cards.map((card) => card.source.metadata.doc_id)).toEqual([7, 3, 9])
    expect(cards[0].passages.map((passage) => [passage.n, passage.source.metadata.id])).toEqual([
      [1, 70],
      [3, 71],
    ])
    expect(cards[1].passages.map((passage) => passage.n)).toEqual([2])
  })

  it('keeps every citation number: each one lands on a card or one of its passages', () => {
    const cards = sourceCards([source(1, 10), source(1, 11), source(2, 20)])
    expect(cards.flatMap((card) => card.passages.map((passage) => passage.n)).sort()).toEqual([1, 2, 3])
  })
})
