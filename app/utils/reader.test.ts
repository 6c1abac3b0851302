import { describe, expect, it } from 'vitest'
import { backHere, readerBackLink, readerHref, splitAtPassage } from './reader'

describe('readerHref', () => {
  it('leads to the reader, with the passage marked and scrolled to when one is cited', () => {
    expect(readerHref(12, 340)).toBe('/read/12?passage=340#passage')
    expect(readerHref(12)).toBe('/read/12')
    expect(readerHref(12, null)).toBe('/read/12')
  })

  it('carries the address to come back to, encoded as one parameter', () => {
    expect(readerHref(12, 340, '/ask?thread=7&log=9#answer')).toBe('/read/12?passage=340&back=%2Fask%3Fthread%3D7%26log%3D9%23answer#passage')
    expect(new URL(readerHref(12, 340, '/ask?thread=7&log=9#answer'), 'http://app.test').searchParams.get('back')).toBe('/ask?thread=7&log=9#answer')
  })

  it("comes back to the list item of the screen the source was opened from (a log's, a saved answer's, an agent run's)", () => {
    const back = backHere({ pathname: '/logs/41', search: '' }, 'log-source-2')
    expect(back).toBe('/logs/41#log-source-2')
    expect(readerBackLink(new URL(readerHref(12, 340, back), 'http://app.test').searchParams.get('back'))).toEqual({ to: '/logs/41#log-source-2', label: 'Back to the log' })
    expect(backHere({ pathname: '/agent', search: '?run=5' }, 'agent-source-1')).toBe('/agent?run=5#agent-source-1')
  })
})

describe('readerBackLink', () => {
  it('leads back to a screen that links to the reader, with its query and fragment', () => {
    expect(readerBackLink('/ask?thread=7&log=9#answer')).toEqual({ to: '/ask?thread=7&log=9#answer', label: 'Back to Ask' })
    expect(readerBackLink('/logs/41')).toEqual({ to: '/logs/41', label: 'Back to the log' })
    expect(readerBackLink('/saved')).toEqual({ to: '/saved', label: 'Back to Saved queries' })
    expect(readerBackLink('/ask?thread=7&_data=routes%2F_dashboard%2B%2Fask')).toEqual({ to: '/ask?thread=7', label: 'Back to Ask' })
  })

  it('never leads to another site or to a screen that does not link here', () => {
    for (const path of [
      'https://evil.example/ask',
      '//evil.example/ask',
      '/\\evil.example/ask',
      '/\t/evil.example/ask',
      '/.//evil.example/ask',
      'javascript:alert(1)',
      'ask?thread=7',
      '/users/3',
      '/login?redirectTo=//evil.example',
      '',
      null,
      undefined,
    ]) {
      expect(readerBackLink(path), String(path)).toBeNull()
    }
  })
})

describe('splitAtPassage', () => {
  const text = 'Intro paragraph.\n\nThe quoted passage. It goes on.\n\nThe end.'

  it('cuts the text around the passage', () => {
    const start = text.indexOf('The quoted')
    const end = text.indexOf('on.') + 3
    expect(splitAtPassage(text, start, end)).toEqual({ before: 'Intro paragraph.\n\n', passage: 'The quoted passage. It goes on.', after: '\n\nThe end.' })
  })

  it('gives null for offsets that do not fit the text', () => {
    expect(splitAtPassage(text, null, null)).toBeNull()
    expect(splitAtPassage(text, 5, 5)).toBeNull()
    expect(splitAtPassage(text, -1, 4)).toBeNull()
    expect(splitAtPassage(text, 0, text.length + 1)).toBeNull()
  })

  it('moves a cut inside a fenced code block out to the whole block', () => {
    const code = 'Before.\n\n```sh\nnpm install\nnpm run build\n```\n\nAfter.'
    const start = code.indexOf('npm run build')
    const parts = splitAtPassage(code, start, start + 'npm run build'.length)
    expect(parts).toEqual({ before: 'Before.\n\n', passage: '```sh\nnpm install\nnpm run build\n```', after: '\n\nAfter.' })
  })

  it('leaves a cut after a closed code block where it is', () => {
    const code = '```\nx = 1\n```\n\nPlain words here.'
    const start = code.indexOf('Plain')
    expect(splitAtPassage(code, start, code.length)).toEqual({ before: '```\nx = 1\n```\n\n', passage: 'Plain words here.', after: '' })
  })

  it('moves a cut inside a table out to the whole table', () => {
    const table = 'Rates:\n\n| Size | Price |\n| --- | --- |\n| Small | 1 |\n| Large | 2 |\n\nDone.'
    const start = table.indexOf('| Large')
    const parts = splitAtPassage(table, start, start + '| Large | 2 |'.length)
    expect(parts?.passage).toBe('| Size | Price |\n| --- | --- |\n| Small | 1 |\n| Large | 2 |')
    expect(parts?.before).toBe('Rates:\n\n')
    expect(parts?.after).toBe('\n\nDone.')
  })
})
