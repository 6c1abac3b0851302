import { describe, expect, it } from 'vitest'
import { spreadsheetSafe, spreadsheetSafeRow } from './csv-cells'

describe('spreadsheet-safe CSV cells', () => {
  it.each([
    ['=HYPERLINK("http://attacker.test","Click")', `'=HYPERLINK("http://attacker.test","Click")`],
    ['+1+1', `'+1+1`],
    ['-1+1', `'-1+1`],
    ['@SUM(A1:A2)', `'@SUM(A1:A2)`],
    ['\t=1+1', `'\t=1+1`],
    ['\r=1+1', `'\r=1+1`],
  ])('prefixes %j with a single quote', (cell, safe) => {
    expect(spreadsheetSafe(cell)).toBe(safe)
  })

  it.each(['', 'When must bicycle lights be on?', ' =1+1', "'=already quoted", 'a=b', '42'])('leaves %j as it is', (cell) => {
    expect(spreadsheetSafe(cell)).toBe(cell)
  })

  it('leaves numbers written by the server as numbers', () => {
    expect(spreadsheetSafeRow([-1, '-1', 3, '=1'])).toEqual([-1, "'-1", 3, "'=1"])
  })
})
