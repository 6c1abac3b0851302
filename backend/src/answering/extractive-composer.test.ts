import { describe, expect, it } from 'vitest'
import { CitationList, type CitableChunk } from './citations'
import { composeCitedAnswer } from './extractive-composer'

const chunk = (chunkId: number, title: string, text: string, score: number): CitableChunk => ({ chunkId, articleId: chunkId, title, text, source: title, score })
const WEIGHTS = new Map([['expedit', 2], ['land', 1.5], ['first', 0.8]])
const weightOf = (stem: string) => WEIGHTS.get(stem) ?? 1
const QUESTION = 'Where did the first expedition land?'
const SAYS_WHERE = 'After weeks of searching the pack ice for a safe anchorage, the first expedition would land at Cape Adare'
// Two passages the search scored alike; each has one long sentence with every question word (two would be too long
// for one answer), and the second passage's says where.
const passages = (secondScore: number) => [
  chunk(
    1,
    'Polar exploration',
    "Historians still argue about where the first expedition would land on the southern continent, because the captain's log was lost in a storm off the coast, and the letters of the crew that reached home years later disagree on nearly every detail of the voyage.",
    10,
  ),
  chunk(2, 'Cape Adare', `${SAYS_WHERE}, a rocky headland where the crew built two huts, kept dogs and instruments, and spent the long dark winter of 1899.`, secondScore),
]

describe('composeCitedAnswer', () => {
  it('weighs each passage by its retrieval score: of two passages that matched alike, the better sentence answers', () => {
    const part = composeCitedAnswer(QUESTION, passages(10), weightOf, new CitationList())
    expect(part?.text).toContain(SAYS_WHERE)
    expect(part?.text).not.toContain('Historians')
  })

  it('still prefers the passage that matched far better', () => {
    const part = composeCitedAnswer(QUESTION, passages(2), weightOf, new CitationList())
    expect(part?.text).toContain('Historians')
  })
})
