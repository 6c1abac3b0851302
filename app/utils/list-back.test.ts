import { describe, expect, it } from 'vitest'
import { listBack, withListBack } from './list-back'

const opened = (href: string) => `http://app.test${href}`

describe('withListBack', () => {
  it("carries the list's address, filters, sort and pages, as one parameter", () => {
    const href = withListBack('/logs/7', { pathname: '/logs', search: '?status=disliked&sortField=id&sortOrder=1&through=40' })
    expect(href).toBe('/logs/7?back=%2Flogs%3Fstatus%3Ddisliked%26sortField%3Did%26sortOrder%3D1%26through%3D40')
    expect(listBack(opened(href), '/logs')).toBe('/logs?status=disliked&sortField=id&sortOrder=1&through=40')
  })

  it('needs no back for the plain list', () => {
    expect(withListBack('/logs/7', { pathname: '/logs', search: '' })).toBe('/logs/7')
    expect(listBack(opened('/logs/7'), '/logs')).toBe('/logs')
  })
})

describe('listBack', () => {
  it('keeps the query of the list itself, without what only the router asked for', () => {
    expect(listBack(opened(`/users/3?back=${encodeURIComponent('/users?first=20&filter=ann')}`), '/users')).toBe('/users?first=20&filter=ann')
    expect(listBack(opened(`/logs/3?back=${encodeURIComponent('/logs?q=how&_data=routes%2Flogs')}`), '/logs')).toBe('/logs?q=how')
  })

  it('never leads to another site or another page', () => {
    for (const back of [
      'https://evil.example/logs',
      '//evil.example/logs',
      '/\\evil.example/logs',
      '/\t/evil.example/logs',
      '/.//evil.example/logs',
      'javascript:alert(1)',
      'logs?q=x',
      '/logsx?q=x',
      '/logs/5',
      '/users?filter=ann',
      '/ask',
    ]) {
      expect(listBack(opened(`/logs/3?${new URLSearchParams({ back })}`), '/logs'), back).toBe('/logs')
    }
  })
})
