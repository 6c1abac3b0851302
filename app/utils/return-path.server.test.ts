import { describe, expect, it } from 'vitest'
import { safeReturnPath } from './auth.server'

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
