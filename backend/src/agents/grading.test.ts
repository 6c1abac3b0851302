import { describe, expect, it } from 'vitest'
import { gradeCoverage, wordsOfStems } from './grading'

const idf: Record<string, number> = { semant: 3, firewal: 3, turn: 1 }
const weightOf = (stem: string) => idf[stem] ?? 6

describe('gradeCoverage', () => {
  it('is the share of the question’s idf weight the evidence contains', () => {
    expect(gradeCoverage('semantic firewall', ['The semantic firewall screens questions.'], weightOf)).toEqual({ grade: 1, missingStems: [] })
    expect(gradeCoverage('turn the semantic firewall', ['The semantic firewall.'], weightOf)).toEqual({ grade: 0.8571, missingStems: ['turn'] })
  })

  it('weighs a word the knowledge base never uses the most', () => {
    const coverage = gradeCoverage('zyxwv firewall', ['The firewall.'], weightOf)
    expect(coverage.grade).toBeCloseTo(3 / 9, 3)
    expect(coverage.missingStems).toEqual(['zyxwv'])
  })

  it('grades a question without searchable words 0', () => {
    expect(gradeCoverage('what is it?', ['anything'], weightOf)).toEqual({ grade: 0, missingStems: [] })
  })
})

describe('wordsOfStems', () => {
  it('gives the words as written for their stems, once, in order', () => {
    expect(wordsOfStems('Turning the Firewall on, turn it', ['turn', 'firewal'])).toEqual(['Turning', 'Firewall'])
  })
})
