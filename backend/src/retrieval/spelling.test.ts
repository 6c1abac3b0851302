import { describe, expect, it } from 'vitest'
import { Bm25Index, createIndexedChunk } from './bm25-index'
import { composeExtractiveAnswer } from './extractive-answer'
import { parseQuery } from './query'
import { closestIndexedTerm, editDistanceWithin, isEnglishWord } from './spelling'

describe('editDistanceWithin', () => {
  it('counts insertions, deletions, substitutions and swaps of neighbours, and stops past its limit', () => {
    expect(editDistanceWithin('publish', 'publish', 1)).toBe(0)
    expect(editDistanceWithin('publsh', 'publish', 1)).toBe(1)
    expect(editDistanceWithin('pubilsh', 'publish', 1)).toBe(1)
    expect(editDistanceWithin('publiss', 'publish', 1)).toBe(1)
    expect(editDistanceWithin('pblsh', 'publish', 2)).toBe(2)
    expect(editDistanceWithin('pblsh', 'publish', 1)).toBe(2)
    expect(editDistanceWithin('garden', 'publish', 2)).toBe(3)
  })
})

describe('closestIndexedTerm', () => {
  const vocabulary: [string, number][] = [
    ['publish', 12],
    ['polish', 3],
    ['punish', 1],
    ['articl', 40],
    ['particl', 2],
  ]

  it('reads an unknown word as the closest indexed one, the most frequent of equals', () => {
    expect(closestIndexedTerm('publsh', vocabulary)).toBe('publish')
    expect(closestIndexedTerm('artcl', vocabulary)).toBe('articl')
    // "pulish" is one edit from "publish" (12 chunks), "polish" (3) and "punish" (1, too rare): the most frequent wins.
    expect(closestIndexedTerm('pulish', vocabulary)).toBe('publish')
    expect(closestIndexedTerm('pulish', vocabulary.filter(([term]) => term !== 'publish'))).toBe('polish')
  })

  it('leaves short words, words with digits and words nothing near has', () => {
    expect(closestIndexedTerm('publ', vocabulary)).toBeUndefined()
    expect(closestIndexedTerm('publi5h', vocabulary)).toBeUndefined()
    expect(closestIndexedTerm('zorblax', vocabulary)).toBeUndefined()
  })

  it('never corrects into a word a single chunk has: that may be a typo too', () => {
    expect(closestIndexedTerm('punisj', vocabulary)).toBeUndefined()
  })
})

describe('typos in questions', () => {
  const texts = [
    'Publishing drafts: open the Drafts view and select Publish to publish every draft.',
    'To publish an article, select Publish on its draft. Published articles answer questions.',
    'Polish the wording of an article before you publish it.',
    'The garden needs watering every second day in a heat wave.',
  ]
  const index = new Bm25Index()
  texts.forEach((text, position) => index.add(createIndexedChunk(position + 1, position + 1, text, `Guide ${position + 1}`)))
  const correctTerm = (term: string) => index.correction(term)

  it('finds the passages of the word meant', () => {
    const [meant] = index.search(parseQuery('how do I publish drafts?'), 1)
    const [typed] = index.search(parseQuery('how do I publsh drafts?', { correctTerm }), 1)
    expect(typed?.chunkId).toBe(meant?.chunkId)
    expect(index.correction('publish')).toBeUndefined()
    expect(index.correction('publsh')).toBe('publish')
  })

  it('does not correct an English word the knowledge base lacks: it is not a typo of one it has', () => {
    const homes = new Bm25Index()
    homes.add(createIndexedChunk(1, 1, 'Homeless shelters open at night.'))
    homes.add(createIndexedChunk(2, 2, 'The homeless count is taken in winter.'))
    const correctHome = (term: string) => homes.correction(term)
    expect(homes.correction('hopeless')).toBe('homeless')
    expect(isEnglishWord('Hopeless')).toBe(true)
    expect(isEnglishWord('homless')).toBe(false)
    expect(parseQuery('Is the situation hopeless?', { correctTerm: correctHome }).terms.has('hopeless')).toBe(true)
    expect(parseQuery('Is the situation homless?', { correctTerm: correctHome }).terms.has('homeless')).toBe(true)
  })

  it('does not correct a capitalised name past the first word', () => {
    expect(parseQuery('Who is Publsh?', { correctTerm }).terms.has('publsh')).toBe(true)
    expect(parseQuery('Publsh drafts how?', { correctTerm }).terms.has('publish')).toBe(true)
  })

  it('answers a misspelt question as the question meant, and not-found without the correction', () => {
    const sources = index.search(parseQuery('How do I publsh a draft?', { correctTerm }), 3).map((hit) => ({ articleId: hit.articleId, title: `Guide ${hit.articleId}`, text: texts[hit.chunkId - 1] as string, score: hit.score }))
    const weightOf = (term: string) => index.idf(term)
    expect(composeExtractiveAnswer('How do I publsh a draft?', sources, weightOf, {}, correctTerm)?.text).toMatch(/publish/i)
    expect(composeExtractiveAnswer('How do I publsh a draft?', sources, weightOf)).toBeNull()
  })

  it('forgets its corrections when the index changes', () => {
    expect(index.correction('compst')).toBeUndefined()
    index.add(createIndexedChunk(9, 9, 'Compost feeds the soil.', 'Guide 9'))
    index.add(createIndexedChunk(10, 10, 'Turn the compost every week.', 'Guide 10'))
    expect(index.correction('compst')).toBe('compost')
    index.remove(9)
    expect(index.correction('compst')).toBeUndefined()
    index.remove(10)
  })
})
