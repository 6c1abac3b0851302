import { parseWithZod } from '@conform-to/zod/v4'
import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it, vi } from 'vitest'
import { Checkbox } from './checkbox'
import { Select } from './select'
import { TextField } from './text-field'
import { NumberField } from '../settings/number-field'
import { PasswordChangeForm } from '~/utils/password-change-form'

// Class names only: the styles play no part in what a field says.
const classNames = vi.hoisted(() => () => new Proxy({}, { get: (_target, name) => (typeof name === 'string' ? name : undefined), has: () => true }))
vi.mock('./controls.css', classNames)
vi.mock('./select.css', classNames)
vi.mock('./checkbox.css', classNames)

/** The text of a rendered field's error message. */
const errorText = (html: string) => /role="alert"[^>]*>([^<]*)</.exec(html)?.[1] ?? ''

describe('a field says its errors by its label, never by the raw field name', () => {
  it('names the current password by its label when a crafted post is too long (Your account)', () => {
    const form = new FormData()
    form.set('current_password', 'x'.repeat(1001))
    form.set('new_password', 'garden-path-43')
    form.set('new_password_again', 'garden-path-43')
    const submission = parseWithZod(form, { schema: PasswordChangeForm })
    const errors = submission.reply().error?.current_password ?? []
    expect(errors.length).toBeGreaterThan(0)
    const html = renderToStaticMarkup(createElement(TextField, { label: 'Current password', name: 'current_password', type: 'password', errors }))
    expect(errorText(html)).toBe('Current password is at most 1000 characters')
  })

  it('rewords the API name in every kind of field, a nested one by its last part', () => {
    const rendered = [
      createElement(TextField, { label: 'First name', name: 'firstName', errors: ['firstName is at most 100 characters'] }),
      createElement(Select, { label: 'Role', name: 'role', options: [{ value: 'user', label: 'User' }], errors: ['role is required'] }),
      createElement(NumberField, { label: 'Sources to use', name: 'num_sources_k', errors: ['num_sources_k is at most 50'] }),
      createElement(Checkbox, { label: 'Semantic firewall', name: 'semantic_firewall', errors: ['semantic_firewall must be true or false'] }),
      createElement(TextField, { label: 'Section 1 title', name: 'sections[0].title', errors: ['title is required'] }),
      // Already made a sentence on its way (a backend refusal): still the raw name.
      createElement(TextField, { label: 'Current password', name: 'current_password', errors: ['Current_password is required'] }),
    ].map((element) => errorText(renderToStaticMarkup(element)))
    expect(rendered).toEqual([
      'First name is at most 100 characters',
      'Role is required',
      'Sources to use is at most 50',
      'Semantic firewall must be true or false',
      'Section 1 title is required',
      'Current password is required',
    ])
  })

  it('leaves a message in the form’s own words as it is', () => {
    const html = renderToStaticMarkup(createElement(TextField, { label: 'Title', name: 'title', errors: ['Please enter a title', 'titles are long'] }))
    expect(errorText(html)).toBe('Please enter a title. Titles are long.')
  })
})
