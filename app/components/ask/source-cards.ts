import type { Source } from '../../../contracts/ask'

/** One article among an answer's sources, with the passages quoted from it and their citation numbers. */
export interface SourceCard {
  source: Source
  passages: { n: number; source: Source }[]
}

/** The sources grouped by article, in the order each article is first cited: an article appears once. */
export function sourceCards(sources: Source[]): SourceCard[] {
  const cards = new Map<number, SourceCard>()
  sources.forEach((source, index) => {
    const card = cards.get(source.metadata.doc_id) ?? { source, passages: [] }
    card.passages.push({ n: index + 1, source })
    cards.set(source.metadata.doc_id, card)
  })
  return [...cards.values()]
}
