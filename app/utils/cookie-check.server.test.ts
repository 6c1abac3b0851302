import { describe, expect, it } from 'vitest'
import { isLocalHostname, secureCookieProblem } from './cookie-check.server'

const production = { COOKIE_SECURE: 'auto', NODE_ENV: 'production' } as const
const at = (url: string, headers: Record<string, string> = {}) => new Request(url, { headers })

describe('secureCookieProblem', () => {
  it('names COOKIE_SECURE when a Secure cookie would be set over plain HTTP on a real host name', () => {
    expect(secureCookieProblem(at('http://kb.example.test/login'), production)).toMatch(/COOKIE_SECURE=false/)
    expect(secureCookieProblem(at('http://192.168.1.20:3000/login'), production)).toMatch(/HTTPS/)
    expect(secureCookieProblem(at('http://kb.example.test/login'), { COOKIE_SECURE: 'true', NODE_ENV: 'development' })).not.toBeNull()
  })

  it('is quiet over HTTPS, directly or through a proxy that says so', () => {
    expect(secureCookieProblem(at('https://kb.example.test/login'), production)).toBeNull()
    expect(secureCookieProblem(at('http://kb.example.test/login', { 'x-forwarded-proto': 'https' }), production)).toBeNull()
    expect(secureCookieProblem(at('http://kb.example.test/login', { forwarded: 'for=1.2.3.4;proto=https' }), production)).toBeNull()
  })

  it('is quiet on loopback names (browsers keep Secure cookies there) and when cookies are not Secure', () => {
    for (const url of ['http://localhost:3000/login', 'http://127.0.0.1:3000/login', 'http://[::1]:3000/login', 'http://app.localhost/login']) {
      expect(secureCookieProblem(at(url), production)).toBeNull()
    }
    expect(secureCookieProblem(at('http://kb.example.test/login'), { COOKIE_SECURE: 'false', NODE_ENV: 'production' })).toBeNull()
    expect(secureCookieProblem(at('http://kb.example.test/login'), { COOKIE_SECURE: 'auto', NODE_ENV: 'development' })).toBeNull()
  })

  it('knows the local host names', () => {
    expect(isLocalHostname('127.8.9.10')).toBe(true)
    expect(isLocalHostname('localhost.')).toBe(true)
    expect(isLocalHostname('127.example.test')).toBe(false)
    expect(isLocalHostname('10.0.0.1')).toBe(false)
  })
})
