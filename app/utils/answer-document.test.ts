import { Lexer, type Token, type Tokens } from 'marked'
import { describe, expect, it } from 'vitest'
import type { Source } from '../../contracts/ask'
import { answerDocumentMarkdown } from './answer-document'

const source = (id: number, title: string): Source => ({
  page_content: `About ${title}.`,
  metadata: { source: `article-${id}`, id, doc_id: id, is_deleted: false, title, score: 1 },
})

describe("an answer's Word download", () => {
  it('has the question as its title, the answer, and the sources numbered', () => {
    const markdown = answerDocumentMarkdown({
      command: 'How often should I water tomato plants?',
      result: 'Water them twice a week.',
      source_list: [source(1, 'Growing tomatoes'), source(2, 'Watering')],
      related_list: [],
    })
    expect(markdown).toBe('# How often should I water tomato plants\\?\n\nWater them twice a week.\n\n## Sources\n\n1. Growing tomatoes\n2. Watering\n')
  })

  it('lists the articles that may help under a not-found answer, as Ask does', () => {
    const markdown = answerDocumentMarkdown({
      command: 'When should I prune?',
      result: 'No answer was found in the knowledge base.',
      source_list: [],
      related_list: [
        { article_id: 7, title: 'Pruning apple trees' },
        { article_id: 9, title: 'Winter care' },
      ],
    })
    expect(markdown).toBe('# When should I prune\\?\n\nNo answer was found in the knowledge base.\n\n## Articles that may help\n\n1. Pruning apple trees\n2. Winter care\n')
  })

  it('has neither list when the answer has none, and a plain title without the question', () => {
    expect(answerDocumentMarkdown({ command: null, result: 'Done.', source_list: [] })).toBe('# Answer\n\nDone.\n')
  })

  it('keeps the question and the titles as they were typed, whatever Markdown would make of them', () => {
    // What the Word document shows of a line: its words, and no markup (the backend's renderer writes escapes as text).
    const plain = (tokens: Token[]): string =>
      tokens
        .map((token) => {
          if (token.type === 'text' || token.type === 'escape') return 'tokens' in token && token.tokens?.length ? plain(token.tokens) : token.text
          if (token.type === 'heading' || token.type === 'list_item') return plain(token.tokens ?? [])
          return `<${token.type}>`
        })
        .join('')
    const questions = [
      'What is the difference between <b> and <strong>?',
      'What do *args and **kwargs do, and _why_?',
      '# Is this a heading?',
      '1. Is this a list?',
      'Line one\nline two with [a link](https://example.com) & &amp; `code` ~~gone~~ | pipe',
      'Price: $5 > $4? \\ backslash',
    ]
    for (const question of questions) {
      const tokens = new Lexer().lex(answerDocumentMarkdown({ command: question, result: 'An answer.', source_list: [source(1, question)], related_list: [] }))
      const [title, sourcesHeading] = tokens.filter((token): token is Tokens.Heading => token.type === 'heading')
      expect(title.depth).toBe(1)
      expect(plain([title])).toBe(question.replace('\n', ' '))
      expect(plain([sourcesHeading])).toBe('Sources')
      const list = tokens.find((token) => token.type === 'list') as Tokens.List
      expect(list.items).toHaveLength(1)
      expect(plain(list.items)).toBe(question.replace('\n', ' '))
    }
  })
})
