import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it, vi } from 'vitest'
import { markdownExcerpt, markdownExcerptShowing, markdownToPlainText, toMarkdownDocument, withoutCitationMarkers } from './markdown-document'
import { decodeEntities, safeHref } from './markdown-text'

// The vanilla-extract file needs the bundler's plugin; class names do not matter here.
vi.mock('./markdown.css', () => ({ markdown: 'markdown', codeBlock: 'code-block', tableScroll: 'table-scroll', rawHtml: 'raw-html', citation: 'citation' }))

const { Markdown } = await import('./markdown')
const { MarkdownView } = await import('./markdown-view')

const render = (source: string, props: Record<string, unknown> = {}) => renderToStaticMarkup(createElement(Markdown, { source, ...props }))

describe('Markdown', () => {
  it('renders headings, bold and lists as elements, with no markers left', () => {
    const html = render('## Opening hours\n\nThe office is **open** on *weekdays*.\n\n- Monday\n- Tuesday\n\n1. First\n2. Second')
    expect(html).toContain('<h3>Opening hours</h3>')
    expect(html).toContain('<strong>open</strong>')
    expect(html).toContain('<em>weekdays</em>')
    expect(html).toContain('<ul><li>Monday</li><li>Tuesday</li></ul>')
    expect(html).toContain('<ol><li>First</li><li>Second</li></ol>')
    expect(html).not.toMatch(/##|\*\*/)
  })

  it('places "#" headings at the level the page asks for', () => {
    expect(render('# Title\n\n## Part', { headingLevel: 3 })).toContain('<h3>Title</h3><h4>Part</h4>')
    expect(render('###### Deep', { headingLevel: 3 })).toContain('<h6>Deep</h6>')
  })

  it('never emits raw HTML from the content: its words are kept, its tags, scripts and styles left out', () => {
    const html = render('<script>alert(1)</script>\n\nHello <img src=x onerror=alert(1)> <b>there</b>, <span>you</span>.')
    expect(html).not.toMatch(/<script|<img|<b>|<span|alert|&lt;/)
    expect(html).toMatch(/<p>Hello\s+there, you\.<\/p>/)
    // A block of HTML: its words, in paragraphs; a style and a comment are not words to read.
    const block = render('<div class="note">\n<p>First <em>words</em></p>\n<style>p { color: red }</style>\n<!-- hidden -->\n<p>Second</p>\n</div>')
    expect(block).not.toMatch(/<div class="note"|<style|color: red|hidden|&lt;/)
    expect(block).toContain('First words')
    expect(block).toContain('Second')
    // Within a line, a script goes with what it would run.
    expect(render('Hi <script>alert(2)</script> there')).not.toMatch(/alert|script/)
    // Angle brackets that are no HTML are text.
    expect(render('Press <Enter> to send, or <Ctrl+Enter>.')).toContain('Press &lt;Enter&gt; to send, or &lt;Ctrl+Enter&gt;.')
  })

  it('keeps only safe link addresses', () => {
    const html = render('[site](https://example.org/a) [mail](mailto:a@example.org) [here](/articles/3) [bad](javascript:alert(1)) [worse](JaVaScRiPt:alert(1)) [data](data:text/html,x)')
    expect(html).toContain('<a href="https://example.org/a" rel="noopener noreferrer nofollow">site</a>')
    expect(html).toContain('<a href="mailto:a@example.org">mail</a>')
    expect(html).toContain('<a href="/articles/3">here</a>')
    expect(html).not.toMatch(/javascript|data:text/i)
    expect(html).toContain('bad')
    expect(html).toContain('worse')
  })

  it('offers pictures as links instead of loading them', () => {
    const html = render('![A map](https://example.org/map.png)')
    expect(html).not.toContain('<img')
    expect(html).toContain('<a href="https://example.org/map.png" rel="noopener noreferrer nofollow">[Image: A map]</a>')
  })

  it('leaves citations as text without a target, and links them when the answer view gives one', () => {
    const source = 'Drafts are **reviewed** first [1]. Then they are published [2], see [3].'
    expect(render(source)).toContain('first [1]. Then they are published [2], see [3].')
    const linked = render(source, { citation: (n: number) => (n <= 2 ? { href: `#source-${n}`, title: `Source ${n}` } : undefined) })
    expect(linked).toContain('first <a href="#source-1" class="citation" title="Source 1">[1]</a>. Then')
    expect(linked).toContain('<a href="#source-2" class="citation" title="Source 2">[2]</a>, see [3].')
    expect(linked).toContain('<strong>reviewed</strong>')
  })

  it('decodes character references and keeps a single line break', () => {
    const html = render('Fish &amp; chips &copy; &#x41;&#66;\nnext line')
    expect(html).toContain('Fish &amp; chips © AB<br/>next line')
  })

  it('puts tables in a box of their own that scrolls and can be reached by keyboard', () => {
    const html = render('| Day | Hours |\n|---|--:|\n| Mon | 9–5 |')
    expect(html).toContain('<div class="table-scroll" role="region" aria-label="Table: Day, Hours" tabindex="0"><table>')
    expect(html).toContain('<th scope="col" style="text-align:right">Hours</th>')
    expect(html).toContain('<td>Mon</td>')
  })

  it('shows code as code, escaped', () => {
    expect(render('```\n<b>x</b> **y**\n```')).toContain('<pre class="code-block"><code>&lt;b&gt;x&lt;/b&gt; **y**</code></pre>')
    expect(render('Use `a && b` here')).toContain('<code>a &amp;&amp; b</code>')
  })
})

describe('MarkdownView', () => {
  const view = (document: unknown, props: Record<string, unknown> = {}) => renderToStaticMarkup(createElement(MarkdownView, { document: document as never, ...props }))

  it('renders a document that travelled as JSON (loader data) the same as the text it came from', () => {
    const source = '## Steps\n\n1. Open **Articles** [1]\n2. Choose `Add`\n\n| A | B |\n|---|---|\n| x | [y](https://example.org) |'
    const travelled = JSON.parse(JSON.stringify(toMarkdownDocument(source)))
    const citation = (n: number) => ({ href: `#source-${n}` })
    expect(view(travelled, { citation })).toBe(render(source, { citation }))
  })

  it('checks link addresses again and ignores kinds of element it does not know', () => {
    const html = view({
      children: [
        { type: 'paragraph', children: [{ type: 'link', href: 'javascript:alert(1)', children: ['click'] }] },
        { type: 'script', text: 'alert(1)' },
        { type: 'raw', text: '<img src=x onerror=alert(1)>' },
      ],
    })
    expect(html).toBe('<div class="markdown"><p>click</p><p class="raw-html">&lt;img src=x onerror=alert(1)&gt;</p></div>')
  })
})

describe('Markdown as plain text', () => {
  it('drops the markers and keeps the words', () => {
    expect(markdownToPlainText('## Heading\n\nSome **bold** and [a link](https://x.org).\n\n- one\n- two')).toBe('Heading: Some bold and a link. one two')
  })

  it('cuts an excerpt at a word boundary', () => {
    const excerpt = markdownExcerpt(`# Title\n\n${'word '.repeat(100)}`, 50)
    expect(excerpt.length).toBeLessThanOrEqual(51)
    expect(excerpt).toMatch(/^Title: word word .*word…$/)
    expect(excerpt).not.toContain('#')
  })

  it('keeps a short text whole', () => {
    expect(markdownExcerpt('**Short**', 50)).toBe('Short')
  })

  it('shows the sentence an answer quotes from a passage, starting at it when it lies past the cut', () => {
    const passage = `${'A single question gets a single answer. '.repeat(6)}For these, use the **general agent**. An agent is an assistant that works through a request on its own. It may take longer.`
    const answer = 'An agent is an assistant that works through a request on its own. [1]'
    const excerpt = markdownExcerptShowing(passage, 120, answer)
    expect(excerpt).toMatch(/^…An agent is an assistant that works through a request on its own\./)
    expect(excerpt.length).toBeLessThanOrEqual(120)
    expect(markdownExcerpt(passage, 120)).not.toContain('An agent is')
    // A quote within the usual excerpt, a model's own words, or no answer: the passage's start.
    expect(markdownExcerptShowing(passage, 120, 'A single question gets a single answer. [1]')).toBe(markdownExcerpt(passage, 120))
    expect(markdownExcerptShowing(passage, 120, 'Agents plan, search and grade before they answer. [1]')).toBe(markdownExcerpt(passage, 120))
    expect(markdownExcerptShowing(passage, 120, undefined)).toBe(markdownExcerpt(passage, 120))
    // A step of a numbered answer is found without its number, a long quote is cut with an ellipsis.
    expect(markdownExcerptShowing(passage, 60, '1. An agent is an assistant that works through a request on its own. [1]')).toMatch(/^…An agent is an assistant that works through a\b.*…$/)
  })

  it('starts at the table row an answer quotes, which the answer says with its column headings', () => {
    const passage = [
      'Permits are issued by the town hall, which is open on weekdays from nine to five and on Saturday mornings. Bring proof of address and a photograph.',
      '',
      '| Permit | Fee per year | Valid for |',
      '| --- | --- | --- |',
      '| Resident permit | 40 euros | one street zone |',
      '| Business permit | 250 euros | |',
      '| Visitor permit | 15 euros | a single day |',
    ].join('\n')
    const excerpt = markdownExcerptShowing(passage, 120, 'Visitor permit — Fee per year: 15 euros; Valid for: a single day. [1]')
    expect(excerpt).toMatch(/^…Visitor permit 15 euros a single day/)
    // A row with an empty cell is found by the cells it has.
    expect(markdownExcerptShowing(passage, 120, 'Business permit — Fee per year: 250 euros. [1]')).toMatch(/^…Business permit 250 euros Visitor permit/)
    // Cells the passage has in another order are no row of it.
    expect(markdownExcerptShowing(passage, 120, 'Visitor permit — Fee per year: 40 euros. [1]')).toBe(markdownExcerpt(passage, 120))
  })
})

describe('safeHref', () => {
  it('refuses script and data addresses however they are spelt', () => {
    for (const href of ['javascript:alert(1)', ' javascript:alert(1)', 'java\tscript:alert(1)', 'JAVASCRIPT:x', 'data:text/html,x', 'vbscript:x', 'file:///etc/passwd']) {
      expect(safeHref(href), href).toBeNull()
    }
  })

  it('accepts web, mail, phone and relative addresses', () => {
    for (const href of ['https://example.org', 'http://example.org/a?b=c#d', 'mailto:a@example.org', 'tel:+441234', '/ask', '#source-1', 'page.html']) {
      expect(safeHref(href), href).toBe(href)
    }
  })
})

describe('decodeEntities', () => {
  it('turns numeric and common named references into characters and leaves unknown ones', () => {
    expect(decodeEntities('&lt;a&gt; &#169; &#x1F600; &unknown; &#0;')).toBe('<a> © 😀 &unknown; \uFFFD')
  })
})

describe('withoutCitationMarkers', () => {
  it("takes an answer's [n] markers out, and keeps a link's text", () => {
    expect(withoutCitationMarkers('Publish the drafts [1]. Then check them [2][3].\n- Review [12]')).toBe('Publish the drafts. Then check them.\n- Review')
    expect(withoutCitationMarkers('See [1](https://example.test/one) and [the guide]')).toBe('See [1](https://example.test/one) and [the guide]')
  })
})
