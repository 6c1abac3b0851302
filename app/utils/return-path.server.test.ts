import { describe, expect, it } from 'vitest'
import { draftReturnPath, RETURN_PATH_MAX_LENGTH, safeReturnPath } from './auth.server'

describe('the path to return to after sign-in', () => {
  it('is a path of this site, without its query', () => {
    expect(safeReturnPath('/articles/3?tab=history')).toBe('/articles/3')
    expect(safeReturnPath('/logs')).toBe('/logs')
  })

  it('is never another site, however the address is spelt', () => {
    for (const value of ['//evil.example', '/\\evil.example', 'https://evil.example', '/.//evil.example', '/a/..//evil.example', '/a/../\\evil.example', '/%2e%2e//evil.example', '/./\\/evil.example']) {
      expect(safeReturnPath(value), value).toBe('/ask')
    }
  })

  it('is never the sign-in pages themselves', () => {
    for (const value of ['/', '/login', '/logout', '/auth/callback', undefined, 42]) expect(safeReturnPath(value)).toBe('/ask')
  })
})

describe('a draft kept through sign-in', () => {
  it("is kept in Ask's and the Agent screens' addresses, with Ask's thread, and nothing else of the query", () => {
    expect(safeReturnPath('/ask?draft=How+do+I+add+an+article%3F&thread=12')).toBe('/ask?draft=How+do+I+add+an+article%3F&thread=12')
    expect(safeReturnPath('/ask?draft=Hello&next=https%3A%2F%2Fevil.example&task=abc&cut=1')).toBe('/ask?draft=Hello&cut=1')
    expect(safeReturnPath('/agent?draft=Summarise+returns&thread=3')).toBe('/agent?draft=Summarise+returns')
    expect(safeReturnPath('/agent/government?draft=Brief')).toBe('/agent/government?draft=Brief')
    // Other screens read no draft: their bare path.
    expect(safeReturnPath('/logs?draft=Hello')).toBe('/logs')
  })

  it('drops a thread that is not a thread id, a blank draft and a cut that is not 1', () => {
    expect(safeReturnPath('/ask?draft=Hi&thread=..%2F..%2Fevil')).toBe('/ask?draft=Hi')
    expect(safeReturnPath('/ask?draft=%20%20&thread=0&cut=yes')).toBe('/ask')
  })

  it('never leads to another site, whatever the draft says', () => {
    for (const value of ['//evil.example?draft=Hi', '/\t/evil.example/ask?draft=Hi', '/.//evil.example/ask?draft=Hi', 'https://evil.example/ask?draft=Hi', '/ask?draft=%2F%2Fevil.example']) {
      expect(safeReturnPath(value).startsWith('//'), value).toBe(false)
      expect(new URL(safeReturnPath(value), 'http://here.test').origin, value).toBe('http://here.test')
    }
  })

  it('is not kept beyond the longest address: the bare path instead', () => {
    const long = `/ask?draft=${'a'.repeat(RETURN_PATH_MAX_LENGTH)}`
    expect(safeReturnPath(long)).toBe('/ask')
  })

  it('makes an address that brings back the whole question and its thread', () => {
    const text = 'Which parcels can be returned\nafter 30 days? 100% sure & “quoted”'
    const path = draftReturnPath({ path: '/ask', text, thread: 7 })
    expect(safeReturnPath(path)).toBe(path)
    const url = new URL(path, 'http://here.test')
    expect(url.pathname).toBe('/ask')
    expect(url.searchParams.get('draft')).toBe(text)
    expect(url.searchParams.get('thread')).toBe('7')
    expect(url.searchParams.has('cut')).toBe(false)
  })

  it('too long for an address keeps as much of its beginning as fits, whole characters, and says it was cut', () => {
    // 4,000 characters of a script that takes 6 address characters each (and an emoji, 12): far more than fits.
    const text = `🙂${'Ж'.repeat(3999)}`
    const path = draftReturnPath({ path: '/ask', text })
    expect(path.length).toBeLessThanOrEqual(RETURN_PATH_MAX_LENGTH)
    expect(safeReturnPath(path)).toBe(path)
    const url = new URL(path, 'http://here.test')
    const kept = url.searchParams.get('draft')!
    expect(url.searchParams.get('cut')).toBe('1')
    expect(text.startsWith(kept)).toBe(true)
    expect(kept.length).toBeGreaterThan(300)
    // As much as fits: one character more would not.
    expect(`/ask?${new URLSearchParams({ draft: text.slice(0, kept.length + 1), cut: '1' })}`.length).toBeGreaterThan(RETURN_PATH_MAX_LENGTH)
  })
})
