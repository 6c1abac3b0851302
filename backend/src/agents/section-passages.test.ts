import { describe, expect, it } from 'vitest'
import type { CitableChunk } from '../answering/citations'
import { passagesForSections } from './section-passages'

// Rare words weigh more, as in a knowledge base where "permit" is in many passages and "parking" in few.
const idf: Record<string, number> = { park: 3, build: 3, permit: 1, fee: 2, cost: 2, elig: 3, appli: 2, tomato: 3, plant: 1, frost: 3, protect: 2, water: 2, inspect: 3, firewal: 3 }
const weightOf = (stem: string) => idf[stem] ?? 0

let nextId = 1
const articleIds = new Map<string, number>()
/** A passage of the article with that title (one article per title). */
const passage = (title: string, text: string): CitableChunk => {
  if (!articleIds.has(title)) articleIds.set(title, articleIds.size + 1)
  return { chunkId: nextId++, articleId: articleIds.get(title)!, title, text, source: title, score: 1, kind: 'article' }
}

const parkingEligibility = passage('Parking permits', '## Eligibility\n\nResidents of the zone are eligible for a parking permit.')
const parkingFees = passage('Parking permits', '## Fees\n\nA resident parking permit costs 60 euros a year.')
const parkingApply = passage('Parking permits', '## How to apply\n\nApply online for a parking permit.')
const buildingFees = passage('Building permits', '## Fees\n\nA building permit costs 0.5 percent of the budget, with a minimum fee.')
const permitSections = [
  { title: 'Eligibility', instructions: 'Who is eligible.' },
  { title: 'Fees', instructions: 'What it costs.' },
  { title: 'How to apply', instructions: '' },
]
const everything = [parkingEligibility, parkingFees, parkingApply, buildingFees]
const titlesOf = (chunks: CitableChunk[]) => chunks.map((chunk) => `${chunk.title}: ${chunk.text.split('\n')[0]}`)

describe('passagesForSections', () => {
  const watering = passage('Watering tomato plants', '# Watering tomato plants\n\nTomato plants need deep watering twice a week.')

  it('keeps in each section the passages about the subject and about that section, and counts the rest', () => {
    const [eligibility, fees, apply] = passagesForSections('parking permits', permitSections, [everything, everything, everything], weightOf)
    expect(titlesOf(eligibility.chunks)).toEqual(['Parking permits: ## Eligibility'])
    expect(titlesOf(fees.chunks)).toEqual(['Parking permits: ## Fees'])
    expect(titlesOf(apply.chunks)).toEqual(['Parking permits: ## How to apply'])
    expect([eligibility.setAside, fees.setAside, apply.setAside]).toEqual([3, 3, 3])
  })

  it('reads no aspect into words on how to write a section ("leave it out when they say nothing")', () => {
    const weights = (stem: string) => ({ draft: 2, publish: 2, next: 1, step: 1, noth: 3, select: 1 })[stem] ?? 0
    const nothingFound = passage('Troubleshooting', '## Not found\n\nThe assistant found nothing on the drafts you publish.')
    const nextSteps = passage('Publishing drafts', '## Next steps\n\nSelect Publish for the drafts, then take the next step.')
    const sections = [{ title: 'Next steps', instructions: 'What the reader can do next; leave it out when they say nothing.' }]
    const [next] = passagesForSections('publishing drafts', sections, [[nothingFound, nextSteps]], weights)
    expect(titlesOf(next.chunks)).toEqual(['Publishing drafts: ## Next steps'])
  })

  it('keeps a passage on the subject in general when none names the subject’s rarer word', () => {
    const frost = passage('Protecting plants from frost', 'Cover tender plants with fleece when frost is forecast, and water pots in the morning.')
    const sections = [
      { title: 'Watering', instructions: 'How often and how to water.' },
      { title: 'Frost', instructions: 'Protecting them from frost.' },
    ]
    const [forWatering, forFrost] = passagesForSections('tomato plants', sections, [[watering, frost], [watering, frost]], weightOf)
    expect(forWatering.chunks).toEqual([watering])
    // It mentions water, but its article is about frost, which outweighs it.
    expect(forFrost.chunks).toEqual([frost])
  })

  it('puts out a neighbouring subject’s article in every section once one of its passages lost to the subject’s own', () => {
    const buildingInspections = passage('Building permits', '## Inspections\n\nAn inspector visits the building site before the permit is closed.')
    const sections = [
      { title: 'Fees', instructions: 'What it costs.' },
      { title: 'Inspections', instructions: '' },
    ]
    const [fees, inspections] = passagesForSections('parking permits', sections, [everything, [buildingInspections]], weightOf)
    expect(fees.chunks).toEqual([parkingFees])
    expect(inspections).toEqual({ chunks: [], setAside: 1, hasAspect: true })
    // Without the subject's own fees passage nothing shows the article to be about something else.
    expect(passagesForSections('parking permits', sections, [[buildingFees], [buildingInspections]], weightOf)[1].chunks).toEqual([buildingInspections])
  })

  it('keeps an article that lost only in a general section, where passages share no aspect', () => {
    const frost = passage('Protecting plants from frost', 'Cover tender plants with fleece when frost is forecast.')
    const sections = [
      { title: 'Summary', instructions: '' },
      { title: 'Frost', instructions: 'Protecting them from frost.' },
    ]
    const [summary, forFrost] = passagesForSections('tomato plants', sections, [[watering, frost], [frost]], weightOf)
    expect(summary.chunks).toEqual([watering])
    expect(forFrost.chunks).toEqual([frost])
  })

  it('gives a section whose aspect no passage shares nothing, and one that only names a part of a document any passage on the subject', () => {
    const sections = [
      { title: 'Insurance', instructions: 'The insurance required.' },
      { title: 'Summary', instructions: 'What it is.' },
    ]
    const [insurance, summary] = passagesForSections('parking permits', sections, [everything, everything], weightOf)
    expect(insurance).toEqual({ chunks: [], setAside: 4, hasAspect: true })
    expect(summary.hasAspect).toBe(false)
    expect(summary.chunks).toEqual([parkingEligibility, parkingFees, parkingApply])
  })

  it('reads a section’s aspect in its title: instructions on how to write do not make a general section narrow', () => {
    const sections = [
      { title: 'Summary', instructions: 'The answer to the command in two or three sentences.' },
      { title: 'What the knowledge base says', instructions: 'The facts that bear on the command, each with its source.' },
    ]
    const onParking = [parkingEligibility, parkingFees, parkingApply]
    expect(passagesForSections('parking permits', sections, [everything, everything], weightOf).map((section) => section.chunks)).toEqual([onParking, onParking])
  })

  it('leaves the choice to the sections’ words when the command names nothing the knowledge base knows', () => {
    const [, fees] = passagesForSections('A briefing', permitSections, [[], everything, []], weightOf)
    expect(fees.chunks).toEqual([parkingFees, buildingFees])
  })

  it('reads a passage’s aspect in its own heading, not in its article’s title, when the article has headings', () => {
    const titled = passage('Parking permit fees and eligibility', '## Eligibility\n\nResidents of the zone are eligible for a parking permit.')
    const [eligibility, fees] = passagesForSections('parking permits', permitSections, [[titled], [titled], []], weightOf)
    expect(eligibility.chunks).toEqual([titled])
    expect(fees.chunks).toEqual([])
  })
})
