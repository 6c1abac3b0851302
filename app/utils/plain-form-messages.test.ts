import { afterAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { setPlainFormMessages } from './plain-form-messages'

describe('plain form messages', () => {
  setPlainFormMessages()
  afterAll(() => z.config({ customError: undefined }))
  const messageOf = (schema: z.ZodType, value: unknown) => schema.safeParse(value).error?.issues[0]?.message

  it('says what a crafted post got wrong in a person’s words, where the form wrote no message of its own', () => {
    expect(messageOf(z.enum(['keyword', 'vector']), 'nope')).toBe('Please choose one of the options')
    expect(messageOf(z.object({ name: z.string() }), {})).toBe('Please fill in this field')
    expect(messageOf(z.coerce.number(), 'abc')).toBe('Please enter a number')
    expect(messageOf(z.string().max(3), 'abcd')).toBe('Please enter at most 3 characters')
    expect(messageOf(z.number().min(1), 0)).toBe('Please enter 1 or more')
    expect(messageOf(z.email(), 'x')).toBe('Please enter a valid email address')
  })

  it('keeps a form’s own message', () => {
    expect(messageOf(z.enum(['a', 'b'], { error: 'Please choose a bot type' }), 'c')).toBe('Please choose a bot type')
  })
})
