import { describe, expect, it } from 'vitest'
import { fieldErrorsInFormWords, formatErrorInFormWords, inFormWords } from './form-words'

describe('inFormWords', () => {
  it('names the field by its label', () => {
    expect(inFormWords('url is not a YouTube video address', { url: 'Video address' })).toBe('Video address is not a YouTube video address')
    expect(inFormWords('max_depth is at most 5', { max_depth: 'Depth' })).toBe('Depth is at most 5')
    expect(inFormWords('firstName is at most 100 characters', { firstName: 'First name' })).toBe('First name is at most 100 characters')
    // Named further on too, as the API spells a field.
    expect(inFormWords('keyword_weight and vector_weight cannot both be 0', { keyword_weight: 'Keyword weight', vector_weight: 'Vector weight' })).toBe(
      'Keyword weight and Vector weight cannot both be 0',
    )
  })

  it('leaves a message that does not start with a field name as it is', () => {
    expect(inFormWords('No transcript for this video', { url: 'Video address' })).toBe('No transcript for this video')
    expect(inFormWords('urls are refused', { url: 'Video address' })).toBe('urls are refused')
  })

  it('rewords every message of field errors and of a zod parse', () => {
    expect(fieldErrorsInFormWords({ name: ['name is required'] }, { name: 'Name' })).toEqual({ name: ['Name is required'] })
    expect(formatErrorInFormWords({ name: 'Name' })([{ message: 'name is at most 100 characters' }])).toEqual(['Name is at most 100 characters'])
  })
})
