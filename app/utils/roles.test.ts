import { describe, expect, it } from 'vitest'
import { mayOpen, rolesFor } from './roles'

describe('rolesFor', () => {
  it('reads an address as the router does: any case, encoded letters, repeated or trailing slashes', () => {
    for (const path of ['/users', '/USERS/new', '/Users/', '//users', '/%75sers/new', '/users//2', '/API-KEYS', '/Organisations/2', '/Settings/agent', '/Resources/Query-Logs.csv']) {
      expect(rolesFor(path), path).not.toBeNull()
      expect(mayOpen('user', path), path).toBe(false)
    }
    expect(mayOpen('editor', '/LOGS/3')).toBe(true)
    expect(mayOpen('editor', '/SETTINGS')).toBe(false)
    expect(mayOpen('user', '/Ask')).toBe(true)
    expect(mayOpen('user', '/%E0%A4%A')).toBe(true)
  })
})
