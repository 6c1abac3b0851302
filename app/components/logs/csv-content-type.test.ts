import { describe, expect, it } from 'vitest'
import { isCsvContentType } from './csv-content-type'

describe('isCsvContentType', () => {
  it('accepts text/csv with or without parameters, in any case', () => {
    expect(isCsvContentType('text/csv')).toBe(true)
    expect(isCsvContentType('text/csv; charset=utf-8')).toBe(true)
    expect(isCsvContentType('Text/CSV;charset=UTF-8')).toBe(true)
  })

  it('refuses anything else, including a missing header', () => {
    expect(isCsvContentType('text/html; charset=utf-8')).toBe(false)
    expect(isCsvContentType('application/json')).toBe(false)
    expect(isCsvContentType('text/csvx')).toBe(false)
    expect(isCsvContentType('')).toBe(false)
    expect(isCsvContentType(null)).toBe(false)
    expect(isCsvContentType(undefined)).toBe(false)
  })
})
