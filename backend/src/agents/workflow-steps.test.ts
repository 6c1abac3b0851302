import { describe, expect, it } from 'vitest'
import { partHeading } from './workflow-steps'

describe('partHeading', () => {
  it('capitalises a part and ends a question with a question mark', () => {
    expect(partHeading('Who can publish drafts')).toBe('Who can publish drafts?')
    expect(partHeading('how do I restore a deleted article?')).toBe('How do I restore a deleted article?')
    expect(partHeading(' is the API key secret ')).toBe('Is the API key secret?')
  })

  it('leaves an instruction without a question mark, and a finished sentence as it is', () => {
    expect(partHeading('summarise the drafts')).toBe('Summarise the drafts')
    expect(partHeading('List the roles.')).toBe('List the roles.')
    expect(partHeading('What is new: ')).toBe('What is new:')
  })
})
