import { describe, expect, it } from 'vitest'
import { ArithmeticError, evaluateArithmetic, findArithmeticExpression } from './arithmetic-evaluator'

const valueOf = (expression: string) => evaluateArithmetic(expression).value

describe('evaluateArithmetic', () => {
  it('follows precedence: products before sums, parentheses first, left to right', () => {
    expect(valueOf('2 + 3 * 4')).toBe('14')
    expect(valueOf('(2 + 3) * 4')).toBe('20')
    expect(valueOf('10 - 4 - 3')).toBe('3')
    expect(valueOf('100 / 10 / 5')).toBe('2')
    expect(valueOf('((1 + 2) * (3 + 4)) - 1')).toBe('20')
  })

  it('computes decimals exactly, without binary floating-point error', () => {
    expect(valueOf('0.1 + 0.2')).toBe('0.3')
    expect(valueOf('1.005 * 1000')).toBe('1005')
    expect(valueOf('.5 + 2.25')).toBe('2.75')
    expect(evaluateArithmetic('7 / 4')).toMatchObject({ value: '1.75', isExact: true })
  })

  it('rounds a value that has no finite decimal form, and says so', () => {
    expect(evaluateArithmetic('1 / 3')).toEqual({ expression: '1 / 3', value: '0.333333333333', isExact: false })
    expect(evaluateArithmetic('2 / 3')).toMatchObject({ value: '0.666666666667', isExact: false })
    expect(evaluateArithmetic('-1 / 3')).toMatchObject({ value: '-0.333333333333', isExact: false })
  })

  it('reads unary signs', () => {
    expect(valueOf('-3 * (2 - 5)')).toBe('9')
    expect(valueOf('-(-2)')).toBe('2')
    expect(valueOf('+4 - -1')).toBe('5')
  })

  it('reads % between two operands as a remainder with the sign of the dividend', () => {
    expect(valueOf('10 % 3')).toBe('1')
    expect(valueOf('-7 % 3')).toBe('-1')
    expect(valueOf('7.5 % 2')).toBe('1.5')
  })

  it('reads % after a number with no operand after it as a percentage', () => {
    expect(valueOf('50%')).toBe('0.5')
    expect(valueOf('20% * 50')).toBe('10')
    expect(valueOf('200 * 15%')).toBe('30')
  })

  it('accepts the unicode operators people type', () => {
    expect(evaluateArithmetic('3 × 4 ÷ 2 − 1')).toEqual({ expression: '3 * 4 / 2 - 1', value: '5', isExact: true })
  })

  it('keeps big integers exact', () => {
    expect(valueOf('99999999999999999999 * 99999999999999999999')).toBe('9999999999999999999800000000000000000001')
  })

  it.each([
    ['1/0', 'Division by zero'],
    ['5 % 0', 'Division by zero'],
    ['1 / (2 - 2)', 'Division by zero'],
    ['2 *', 'ends too early'],
    ['((1)', 'not closed'],
    ['1)', 'Unexpected ")"'],
    ['', 'empty'],
    ['abc', 'Unexpected "a"'],
    ['1e5', 'Unexpected "e"'],
    ['process.exit(1)', 'Unexpected "p"'],
    ['2 ** 3', 'Unexpected "*"'],
    ['1 + 1; 2', 'Unexpected ";"'],
  ])('refuses %j with a readable reason', (expression, reason) => {
    expect(() => evaluateArithmetic(expression)).toThrow(ArithmeticError)
    expect(() => evaluateArithmetic(expression)).toThrow(reason)
  })

  it('refuses input that could make exact arithmetic grow without bound', () => {
    expect(() => evaluateArithmetic(`1 + ${'1'.repeat(31)}`)).toThrow(/more than 30 digits/)
    expect(() => evaluateArithmetic('1+'.repeat(150) + '1')).toThrow(/longer than 200 characters/)
    expect(() => evaluateArithmetic(`${'('.repeat(40)}1${')'.repeat(40)}`)).toThrow(/nested parentheses/)
  })
})

describe('findArithmeticExpression', () => {
  it.each([
    ['What is 2+2?', '2+2'],
    ['What is 15% of 80?', '15% * 80'],
    ['How much is (3 + 4) * 2 please', '(3 + 4) * 2'],
    ['what is 1/0', '1/0'],
    ['(see 12 / 4)', '12 / 4'],
    ['What is 7 times 6?', '7 * 6'],
    ['what is 2.5 + .5', '2.5 + .5'],
  ])('finds the expression in %j', (question, expression) => {
    expect(findArithmeticExpression(question)).toBe(expression)
  })

  it.each(['How do I add an article?', 'What changed on 2024-05-01?', 'Is version 1.2 current?', 'Top 10 tips'])('finds none in %j', (question) => {
    expect(findArithmeticExpression(question)).toBeUndefined()
  })
})
