/** Why an expression could not be evaluated, in words a step trace can show. */
export class ArithmeticError extends Error {}

export interface ArithmeticResult {
  /** The expression as it was read (unicode operators replaced), for the trace and the answer. */
  expression: string
  /** The value in decimal notation: exact, or rounded to 12 decimals when `isExact` is false (1/3). */
  value: string
  isExact: boolean
}

// Input is bounded so that exact (rational) arithmetic cannot be made to grow without limit.
const MAX_EXPRESSION_LENGTH = 200
const MAX_NUMBER_DIGITS = 30
const MAX_NESTING = 32
const MAX_BITS = 4096
const ROUNDED_DECIMALS = 12

/** An exact rational number; the denominator is positive and the fraction reduced. */
interface Fraction {
  numerator: bigint
  denominator: bigint
}

type Token = { kind: 'number'; text: string; position: number } | { kind: 'operator'; text: string; position: number }

const UNICODE_OPERATORS: Record<string, string> = { '×': '*', '·': '*', '÷': '/', '−': '-', '–': '-' }

const absolute = (value: bigint) => (value < 0n ? -value : value)
const greatestCommonDivisor = (left: bigint, right: bigint): bigint => {
  let [a, b] = [absolute(left), absolute(right)]
  while (b !== 0n) [a, b] = [b, a % b]
  return a
}

function fractionOf(numerator: bigint, denominator: bigint): Fraction {
  if (denominator === 0n) throw new ArithmeticError('Division by zero')
  const sign = denominator < 0n ? -1n : 1n
  const divisor = greatestCommonDivisor(numerator, denominator) || 1n
  const fraction = { numerator: (sign * numerator) / divisor, denominator: (sign * denominator) / divisor }
  if (fraction.numerator.toString(2).length > MAX_BITS || fraction.denominator.toString(2).length > MAX_BITS) {
    throw new ArithmeticError('The result is too large to work out exactly')
  }
  return fraction
}

const add = (a: Fraction, b: Fraction) => fractionOf(a.numerator * b.denominator + b.numerator * a.denominator, a.denominator * b.denominator)
const subtract = (a: Fraction, b: Fraction) => fractionOf(a.numerator * b.denominator - b.numerator * a.denominator, a.denominator * b.denominator)
const multiply = (a: Fraction, b: Fraction) => fractionOf(a.numerator * b.numerator, a.denominator * b.denominator)
const divide = (a: Fraction, b: Fraction) => fractionOf(a.numerator * b.denominator, a.denominator * b.numerator)
/** The remainder with the sign of the dividend, as JavaScript's % has it: a − b·trunc(a/b). */
function remainder(a: Fraction, b: Fraction): Fraction {
  if (b.numerator === 0n) throw new ArithmeticError('Division by zero (remainder of a division by 0)')
  const quotient = (a.numerator * b.denominator) / (a.denominator * b.numerator)
  return subtract(a, multiply(b, fractionOf(quotient, 1n)))
}

function parseDecimal(text: string): Fraction {
  const [whole, decimals = ''] = text.split('.')
  if (whole.length + decimals.length > MAX_NUMBER_DIGITS) throw new ArithmeticError(`The number ${text} has more than ${MAX_NUMBER_DIGITS} digits`)
  return fractionOf(BigInt(`${whole || '0'}${decimals}`), 10n ** BigInt(decimals.length))
}

function readTokens(expression: string): Token[] {
  const tokens: Token[] = []
  const pattern = /\s*(?:(\d+(?:\.\d+)?|\.\d+)|([-+*/%()]))/y
  let position = 0
  while (position < expression.length) {
    pattern.lastIndex = position
    const match = pattern.exec(expression)
    if (!match) {
      if (expression.slice(position).trim() === '') break
      const offending = expression.slice(position).trimStart()[0]
      throw new ArithmeticError(`Unexpected "${offending}" in the expression`)
    }
    const start = match.index + match[0].length - (match[1] ?? match[2]).length
    tokens.push(match[1] !== undefined ? { kind: 'number', text: match[1], position: start } : { kind: 'operator', text: match[2], position: start })
    position = pattern.lastIndex
  }
  return tokens
}

/** Recursive descent over + − (lowest), × ÷ and remainder, unary signs, postfix percent, parentheses. */
class ExpressionReader {
  private index = 0
  private depth = 0

  constructor(private readonly tokens: Token[]) {}

  readAll(): Fraction {
    if (this.tokens.length === 0) throw new ArithmeticError('The expression is empty')
    const value = this.readSum()
    const rest = this.tokens[this.index]
    if (rest) throw new ArithmeticError(`Unexpected "${rest.text}" in the expression`)
    return value
  }

  private peek(offset = 0): Token | undefined {
    return this.tokens[this.index + offset]
  }

  private isOperator(token: Token | undefined, ...operators: string[]): boolean {
    return token?.kind === 'operator' && operators.includes(token.text)
  }

  /** Whether a token can begin an operand, which makes a "%" before it a remainder rather than a percent. */
  private startsOperand(token: Token | undefined): boolean {
    return token?.kind === 'number' || this.isOperator(token, '(')
  }

  private readSum(): Fraction {
    let value = this.readProduct()
    while (this.isOperator(this.peek(), '+', '-')) {
      const operator = this.tokens[this.index++].text
      const right = this.readProduct()
      value = operator === '+' ? add(value, right) : subtract(value, right)
    }
    return value
  }

  private readProduct(): Fraction {
    let value = this.readSigned()
    while (this.isOperator(this.peek(), '*', '/', '%')) {
      const operator = this.tokens[this.index++].text
      const right = this.readSigned()
      value = operator === '*' ? multiply(value, right) : operator === '/' ? divide(value, right) : remainder(value, right)
    }
    return value
  }

  private readSigned(): Fraction {
    if (this.isOperator(this.peek(), '+', '-')) {
      const operator = this.tokens[this.index++].text
      const value = this.readSigned()
      return operator === '-' ? fractionOf(-value.numerator, value.denominator) : value
    }
    return this.readPercent()
  }

  private readPercent(): Fraction {
    let value = this.readPrimary()
    // "50%" and "20% * 3" are percentages; "10 % 3" (an operand follows) is a remainder, read by readProduct.
    while (this.isOperator(this.peek(), '%') && !this.startsOperand(this.peek(1))) {
      this.index++
      value = divide(value, fractionOf(100n, 1n))
    }
    return value
  }

  private readPrimary(): Fraction {
    const token = this.peek()
    if (!token) throw new ArithmeticError('The expression ends too early')
    if (token.kind === 'number') {
      this.index++
      return parseDecimal(token.text)
    }
    if (token.text === '(') {
      if (++this.depth > MAX_NESTING) throw new ArithmeticError(`More than ${MAX_NESTING} nested parentheses`)
      this.index++
      const value = this.readSum()
      if (!this.isOperator(this.peek(), ')')) throw new ArithmeticError('A parenthesis is not closed')
      this.index++
      this.depth--
      return value
    }
    throw new ArithmeticError(`Unexpected "${token.text}" in the expression`)
  }
}

/** Writes a fraction in decimal notation: exactly when its denominator divides a power of ten, else rounded. */
function formatFraction(value: Fraction): { value: string; isExact: boolean } {
  let denominator = value.denominator
  let twos = 0
  let fives = 0
  while (denominator % 2n === 0n) [denominator, twos] = [denominator / 2n, twos + 1]
  while (denominator % 5n === 0n) [denominator, fives] = [denominator / 5n, fives + 1]
  const isExact = denominator === 1n
  const decimals = isExact ? Math.max(twos, fives) : ROUNDED_DECIMALS
  const scale = 10n ** BigInt(decimals)
  const negative = value.numerator < 0n
  const scaled = absolute(value.numerator) * scale
  // Round half away from zero when the value has to be rounded.
  let digits = scaled / value.denominator
  if (!isExact && (scaled % value.denominator) * 2n >= value.denominator) digits += 1n
  const text = digits.toString().padStart(decimals + 1, '0')
  const whole = text.slice(0, text.length - decimals)
  const fraction = decimals > 0 ? text.slice(text.length - decimals).replace(/0+$/, '') : ''
  const written = fraction ? `${whole}.${fraction}` : whole
  return { value: negative && written !== '0' ? `-${written}` : written, isExact }
}

/**
 * Evaluates an arithmetic expression exactly, with rational numbers: + - * / (and × ÷ −), a remainder "a % b",
 * a percentage "50%", unary signs, parentheses and decimals. Nothing else is accepted; the text is never
 * executed as code. Throws ArithmeticError with a readable reason.
 */
export function evaluateArithmetic(input: string): ArithmeticResult {
  const expression = [...input].map((character) => UNICODE_OPERATORS[character] ?? character).join('').trim()
  if (expression.length > MAX_EXPRESSION_LENGTH) throw new ArithmeticError(`The expression is longer than ${MAX_EXPRESSION_LENGTH} characters`)
  const value = new ExpressionReader(readTokens(expression)).readAll()
  return { expression, ...formatFraction(value) }
}

// A run of numbers joined by operators (at least one), optionally in parentheses: "2 + 3", "(4-1)*2.5", "15% * 80".
const EXPRESSION_IN_TEXT = /[-+−]?[(\s]*(?:\d+(?:\.\d+)?|\.\d+)\s*%?(?:\s*[-+*/%×÷−]\s*[(\s]*[-+]?(?:\d+(?:\.\d+)?|\.\d+)\s*%?[)\s]*)+/g
const ISO_DATE = /^\d{4}-\d{1,2}-\d{1,2}$/

/** Drops parentheses the surrounding sentence opened or closed: "(see 2+2)" holds the expression "2+2". */
function trimUnbalanced(candidate: string): string {
  let text = candidate.trim()
  const count = (character: string) => [...text].filter((each) => each === character).length
  while (count(')') > count('(') && text.endsWith(')')) text = text.slice(0, -1).trim()
  while (count('(') > count(')') && text.startsWith('(')) text = text.slice(1).trim()
  return text
}

/**
 * The arithmetic expression a question asks about, if any ("What is 15% of 80?" asks for 15% * 80); dates such
 * as 2024-05-01 are not expressions.
 */
export function findArithmeticExpression(question: string): string | undefined {
  const text = question.replace(/(\d)\s*%\s+of\s+/gi, '$1% * ').replace(/(\d)\s+(?:times|multiplied by)\s+/gi, '$1 * ').replace(/(\d)\s+divided by\s+/gi, '$1 / ').replace(/(\d)\s+plus\s+/gi, '$1 + ').replace(/(\d)\s+minus\s+/gi, '$1 - ')
  const candidates = (text.match(EXPRESSION_IN_TEXT) ?? []).map(trimUnbalanced).filter((candidate) => !ISO_DATE.test(candidate))
  if (candidates.length === 0) return undefined
  return candidates.reduce((longest, candidate) => (candidate.length > longest.length ? candidate : longest))
}
