import { describe, expect, it } from 'vitest'
import { plainIssueMessage } from './errors'

describe('plain validation messages', () => {
  it('says a field that was not sent is required, and what kind a wrong one must be', () => {
    expect(plainIssueMessage('organization_id', 'Invalid input: expected number, received NaN', false)).toBe('organization_id is required')
    expect(plainIssueMessage('name', 'Invalid input: expected string, received undefined', true)).toBe('name is required')
    expect(plainIssueMessage('organization_id', 'Invalid input: expected number, received NaN', true)).toBe('organization_id must be a number')
    expect(plainIssueMessage('ids', 'Invalid input: expected array, received string', true)).toBe('ids must be an array')
    expect(plainIssueMessage('search_type', 'Invalid option: expected one of "keyword"|"vector"|"hybrid"', true)).toBe('search_type must be one of "keyword", "vector" or "hybrid"')
    expect(plainIssueMessage('body', 'Unrecognized key: "temperature"', true)).toBe('body has an unknown field "temperature"')
    expect(plainIssueMessage('body', 'Unrecognized keys: "a", "b"', true)).toBe('body has unknown fields "a", "b"')
    expect(plainIssueMessage('thread_id', 'thread_id is a positive integer', false)).toBe('thread_id is a positive integer')
  })
})
