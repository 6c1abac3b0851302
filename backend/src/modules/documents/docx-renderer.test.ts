import JSZip from 'jszip'
import mammoth from 'mammoth'
import { describe, expect, it } from 'vitest'
import { renderMarkdownToDocx } from './docx-renderer'

async function render(markdown: string) {
  const bytes = await renderMarkdownToDocx(markdown)
  const zip = await JSZip.loadAsync(bytes)
  return {
    document: await zip.file('word/document.xml')!.async('string'),
    relationships: await zip.file('word/_rels/document.xml.rels')!.async('string'),
    numbering: await zip.file('word/numbering.xml')!.async('string'),
    html: (await mammoth.convertToHtml({ buffer: bytes })).value,
  }
}

const numberingIds = (document: string) => [...document.matchAll(/<w:numId w:val="(\d+)"\/>/g)].map((match) => match[1])

describe('renderMarkdownToDocx', () => {
  it('numbers each ordered list on its own, from its own start', async () => {
    const { document, html } = await render('1. one\n2. two\n\nBetween.\n\n3. three\n4. four\n')
    const ids = numberingIds(document)
    expect(ids).toHaveLength(4)
    expect(ids[0]).toBe(ids[1])
    expect(ids[2]).not.toBe(ids[0])
    expect(html).toContain('<ol><li>one</li><li>two</li></ol><p>Between.</p><ol><li>three</li><li>four</li></ol>')
  })

  it('starts an ordered list at the number it starts with', async () => {
    const { numbering } = await render('7. seventh\n8. eighth\n')
    expect(numbering).toMatch(/<w:lvl w:ilvl="0"[^>]*><w:start w:val="7"\/>/)
  })

  it('indents nested lists one level deeper', async () => {
    const { document, html } = await render('- fruit\n  1. apple\n  2. pear\n- vegetables\n')
    expect(document).toMatch(/<w:ilvl w:val="1"\/>/)
    expect(html).toContain('<ul><li>fruit<ol><li>apple</li><li>pear</li></ol></li><li>vegetables</li></ul>')
  })

  it('shows task list items with their boxes', async () => {
    const { html } = await render('- [x] done\n- [ ] to do\n')
    expect(html).toContain('<li>\u2612 done</li><li>\u2610 to do</li>')
  })

  it('keeps only web and mail links clickable', async () => {
    const { document, relationships, html } = await render('[safe](https://example.org) [mail](mailto:a@example.org) [trap](javascript:alert(1)) [local](/admin)')
    expect(relationships).toContain('https://example.org')
    expect(relationships).toContain('mailto:a@example.org')
    expect(relationships).not.toContain('javascript:')
    expect(document).toMatch(/<w:t[^>]*>trap<\/w:t>/)
    expect(html).not.toContain('javascript:')
    expect(html).not.toContain('href="/admin"')
  })

  it('turns entities into characters, escapes XML and drops characters XML cannot hold', async () => {
    const { document, html } = await render('Salt &amp; pepper &lt;3 &#169; &#x263A; <b>bold?</b> a < b & c\u0001\u000B done')
    expect(html).toContain('Salt &amp; pepper &lt;3 © ☺ bold? a &lt; b &amp; c done')
    expect(document).not.toMatch(/[\u0001\u000B]/)
  })

  it('renders quotes, code blocks, rules, images and line breaks without losing their text', async () => {
    const { document, html } = await render('> Quoted words\n\n```\nline one\nline two\n```\n\n---\n\n![a chart](https://example.org/chart.png)\n\nfirst  \nsecond')
    expect(html).toContain('Quoted words')
    expect(html).toMatch(/line one<br \/>line two/)
    expect(html).toContain('<a href="https://example.org/chart.png">a chart</a>')
    expect(html).toMatch(/first<br \/>second/)
    expect(document).toContain('w:ascii="Consolas"')
  })

  it('makes a valid document from Markdown that renders to nothing', async () => {
    const { html } = await render('<!-- only a comment -->')
    expect(html).toBe('')
  })

  it('renders every heading level', async () => {
    const { html } = await render('# one\n## two\n### three\n#### four\n##### five\n###### six\n')
    expect(html).toBe('<h1>one</h1><h2>two</h2><h3>three</h3><h4>four</h4><h5>five</h5><h6>six</h6>')
  })
})
