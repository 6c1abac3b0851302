import { parseWithZod } from '@conform-to/zod/v4'
import { describe, expect, it } from 'vitest'
import { TemplateForm } from './template-form-schema'

function submit(entries: [string, string][]) {
  const form = new FormData()
  for (const [key, value] of entries) form.append(key, value)
  return parseWithZod(form, { schema: TemplateForm })
}

describe('the template form', () => {
  it('leaves out blank section rows at the end', () => {
    const submission = submit([
      ['name', ' Briefing '],
      ['sections[0].title', 'Summary'],
      ['sections[0].instructions', 'Short'],
      ['sections[1].title', ''],
      ['sections[1].instructions', ''],
    ])
    expect(submission.status).toBe('success')
    if (submission.status === 'success') {
      expect(submission.value).toEqual({ name: 'Briefing', description: '', instructions: '', sections: [{ title: 'Summary', instructions: 'Short' }] })
    }
  })

  it('keeps a blank row between filled ones, and says beside it that it needs a title', () => {
    const submission = submit([
      ['name', 'Briefing'],
      ['sections[0].title', ''],
      ['sections[0].instructions', 'Orphan instructions'],
      ['sections[1].title', 'Background'],
    ])
    expect(submission.reply().error).toEqual({ 'sections[0].title': ['Please enter a section title'] })
  })

  it('refuses a template without sections, saying so beside the sections, whether they were removed or left blank', () => {
    const message = 'Add at least one section: the government agent writes the document section by section.'
    expect(submit([['name', 'Briefing']]).reply().error).toEqual({ sections: [message] })
    expect(
      submit([
        ['name', 'Briefing'],
        ['sections[0].title', ' '],
        ['sections[0].instructions', ''],
      ]).reply().error,
    ).toEqual({ sections: [message] })
  })

  it('refuses two sections of the same title, whatever their case, and a missing name', () => {
    expect(submit([['sections[0].title', 'A']]).reply().error).toEqual({ name: ['Please enter a name'] })
    const twice = submit([
      ['name', 'Briefing'],
      ['sections[0].title', 'Summary'],
      ['sections[1].title', 'summary'],
    ])
    expect(twice.reply().error).toEqual({ 'sections[1].title': ['Another section is already titled "summary"'] })
  })
})
