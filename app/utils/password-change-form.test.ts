import { parseWithZod } from '@conform-to/zod/v4'
import { describe, expect, it } from 'vitest'
import { PASSWORD_MIN_LENGTH } from '../../contracts/users'
import { PasswordChangeForm, passwordChangeRefusal } from './password-change-form'
import { mayOpen } from './roles'

function submit(fields: Record<string, string>) {
  const form = new FormData()
  for (const [key, value] of Object.entries(fields)) form.append(key, value)
  return parseWithZod(form, { schema: PasswordChangeForm })
}

/** A refusal shaped like ApiError: a status, the backend's message and its field errors. */
function refusal(status: number, message: string, fieldErrors: Record<string, string[]> = {}) {
  return { status, message, fieldErrors: () => fieldErrors }
}

describe('the change password form', () => {
  it('takes the current password and a new one typed twice', () => {
    const submission = submit({ current_password: 'old secret', new_password: 'river-stone-81', new_password_again: 'river-stone-81', username: 'ada' })
    expect(submission.status).toBe('success')
    if (submission.status === 'success') {
      expect(submission.value).toEqual({ current_password: 'old secret', new_password: 'river-stone-81', new_password_again: 'river-stone-81' })
    }
  })

  it('refuses the current password as the new one, beside the new password', () => {
    const submission = submit({ current_password: 'river-stone-81', new_password: 'river-stone-81', new_password_again: 'river-stone-81' })
    expect(submission.reply().error).toEqual({ new_password: ['The new password is the current one: choose another'] })
  })

  it('says beside the repeated field that the two new passwords differ', () => {
    const submission = submit({ current_password: 'old secret', new_password: 'river-stone-81', new_password_again: 'river-stone-82' })
    expect(submission.reply().error).toEqual({ new_password_again: ['The two new passwords differ'] })
  })

  it("refuses a new password the backend would refuse, with the backend's own rule", () => {
    const short = 'a1'.repeat(PASSWORD_MIN_LENGTH / 2 - 1)
    expect(submit({ current_password: 'old secret', new_password: short, new_password_again: short }).reply().error).toEqual({
      new_password: [`Password must be at least ${PASSWORD_MIN_LENGTH} characters`],
    })
    expect(submit({ current_password: 'old secret', new_password: 'onlyletters', new_password_again: 'onlyletters' }).reply().error?.new_password).toEqual([
      'Password must contain something besides letters, such as a digit',
    ])
    // One complaint at a time: "abc" is short and only letters.
    expect(submit({ current_password: 'old secret', new_password: 'abc', new_password_again: 'abc' }).reply().error?.new_password).toEqual([
      `Password must be at least ${PASSWORD_MIN_LENGTH} characters`,
    ])
  })

  it('asks for every field that was left blank', () => {
    expect(submit({}).reply().error).toEqual({
      current_password: ['Please enter your current password'],
      new_password: ['Please choose a new password'],
      new_password_again: ['Please type the new password again'],
    })
  })

  it('never sends a password back', () => {
    const submission = submit({ current_password: 'old secret', new_password: 'river-stone-81', new_password_again: 'other' })
    const reply = submission.reply({ hideFields: ['current_password', 'new_password', 'new_password_again'] })
    expect(JSON.stringify(reply)).not.toMatch(/old secret|river-stone-81|other/)
  })
})

describe("the backend's refusals of a password change", () => {
  it('puts a wrong current password, and an account of the sign-in provider, beside the current password', () => {
    expect(passwordChangeRefusal(refusal(400, 'The current password is not correct', { current_password: ['The current password is not correct'] }))).toEqual({
      fieldErrors: { current_password: ['The current password is not correct'] },
    })
    const provider = 'This account signs in through the sign-in provider; change the password there'
    expect(passwordChangeRefusal(refusal(400, provider, { current_password: [provider] }))).toEqual({ fieldErrors: { current_password: [provider] } })
  })

  it('says too many attempts for the whole form', () => {
    const tooMany = 'Too many password attempts from this address; try again in 1 minute'
    expect(passwordChangeRefusal(refusal(429, tooMany))).toEqual({ formErrors: [tooMany] })
  })

  it('keeps field errors on fields the form does not have for the whole form', () => {
    expect(passwordChangeRefusal(refusal(400, 'body: is not an object', { body: ['is not an object'] }))).toEqual({ formErrors: ['body: is not an object'] })
  })

  it('says a failing service in plain words, without its details', () => {
    const reply = passwordChangeRefusal(refusal(502, 'The backend answered 500: stack trace'))
    expect(reply.formErrors?.[0]).toMatch(/could not be changed/)
    expect(reply.formErrors?.[0]).not.toMatch(/stack trace/)
  })
})

describe('Your account', () => {
  it('opens for every role', () => {
    for (const role of ['user', 'editor', 'admin'] as const) expect(mayOpen(role, '/account')).toBe(true)
  })
})
