import { describe, expect, it } from 'vitest'
import { humanize, modeLabel, statusLabel } from './labels'

describe('labels for stored codes', () => {
  it('says modes, variants and statuses in words', () => {
    expect(modeLabel('expert')).toBe('Knowledge base')
    expect(modeLabel('agent', 'government')).toBe('Agent (government agent)')
    expect(statusLabel('finished')).toBe('Answered')
    expect(statusLabel('answered')).toBe('Answered')
    expect(statusLabel('not_found')).toBe('No answer found')
    expect(statusLabel('blocked')).toBe('Blocked by the content filter')
  })

  it('never shows an unknown code raw: snake_case and camelCase become words', () => {
    expect(humanize('search_knowledge_base')).toBe('Search knowledge base')
    expect(humanize('gradeAnswer')).toBe('Grade answer')
    expect(statusLabel('waiting_for_model')).toBe('Waiting for model')
    expect(modeLabel('new_mode')).toBe('New mode')
  })
})
