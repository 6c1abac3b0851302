import { describe, expect, it } from 'vitest'
import { loadConfig } from './config'

describe('loadConfig: KNOWLEDGE_LANGUAGE', () => {
  const base = { API_KEY: 'a-long-enough-key' }

  it('is English unless set, and takes a language code in any case', () => {
    expect(loadConfig(base).KNOWLEDGE_LANGUAGE).toBe('en')
    expect(loadConfig({ ...base, KNOWLEDGE_LANGUAGE: ' FR ' }).KNOWLEDGE_LANGUAGE).toBe('fr')
  })

  it('refuses a language it has no rules for, naming those it has', () => {
    expect(() => loadConfig({ ...base, KNOWLEDGE_LANGUAGE: 'french' })).toThrow(/KNOWLEDGE_LANGUAGE must be one of en, af, .*fr.*/)
  })
})
