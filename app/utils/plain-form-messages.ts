import { z } from 'zod'

/**
 * What a form says where its schema gave no message of its own: a person's words, not the schema library's
 * ("Invalid option: expected one of …", "expected number, received NaN"). Forms write their own messages for what a
 * browser can send; these are for the rest (a crafted or stale post). The web server sets them once at start.
 */
export function plainFormMessage(issue: z.core.$ZodRawIssue): string | undefined {
  switch (issue.code) {
    case 'invalid_value':
      return 'Please choose one of the options'
    case 'invalid_type': {
      const input = issue.input
      if (input === undefined || input === null || input === '') return 'Please fill in this field'
      return issue.expected === 'number' || issue.expected === 'int' ? 'Please enter a number' : 'Please enter a valid value'
    }
    case 'too_small':
      return issue.origin === 'string' ? `Please enter at least ${String(issue.minimum)} characters` : issue.origin === 'number' ? `Please enter ${String(issue.minimum)} or more` : undefined
    case 'too_big':
      return issue.origin === 'string' ? `Please enter at most ${String(issue.maximum)} characters` : issue.origin === 'number' ? `Please enter ${String(issue.maximum)} or less` : undefined
    case 'invalid_format':
      return issue.format === 'email' ? 'Please enter a valid email address' : issue.format === 'url' ? 'Please enter a valid web address' : 'Please enter a valid value'
    default:
      return undefined
  }
}

export function setPlainFormMessages(): void {
  z.config({ customError: plainFormMessage })
}
