import { describe, expect, it } from 'vitest'
import { mergeLogs } from './merge-logs'

describe('mergeLogs', () => {
  it('appends pages in order', () => {
    expect(mergeLogs([{ id: 3 }, { id: 2 }], [{ id: 1 }]).map((log) => log.id)).toEqual([3, 2, 1])
  })

  it('keeps the last copy of a log that appears twice', () => {
    const merged = mergeLogs([{ id: 3, comment: 'old' }, { id: 2, comment: 'old' }], [{ id: 2, comment: 'new' }, { id: 1, comment: 'new' }])
    expect(merged).toEqual([{ id: 3, comment: 'old' }, { id: 2, comment: 'new' }, { id: 1, comment: 'new' }])
  })

  it('answers an empty list for no pages', () => {
    expect(mergeLogs()).toEqual([])
  })
})
