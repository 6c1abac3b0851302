import { describe, expect, it } from 'vitest'
import { splitSentences } from '../retrieval/chunker'
import { convertHtmlToMarkdown } from './html-to-markdown'

describe('HTML as Markdown', () => {
  it('parts links set side by side, so their words do not run together', () => {
    const markdown = convertHtmlToMarkdown('<p><a href="/a">Page 2</a><a href="/b">Page 3</a></p>')
    expect(markdown).toBe('[Page 2](/a) [Page 3](/b)')
    expect(splitSentences(markdown)).toEqual(['Page 2 Page 3'])
  })
})
