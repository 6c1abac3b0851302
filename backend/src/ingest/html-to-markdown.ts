import TurndownService from 'turndown'

/**
 * Turns HTML into Markdown that keeps headings and lists, so chunking can split on them. One converter is
 * shared: turndown keeps no state between calls.
 */
const converter = new TurndownService({ headingStyle: 'atx', bulletListMarker: '-', codeBlockStyle: 'fenced', emDelimiter: '*' })
// A list item as "- text" (turndown pads the marker to four columns, which reads oddly in a draft).
converter.addRule('compactListItem', {
  filter: 'li',
  replacement(content, node) {
    const parent = node.parentNode as HTMLElement | null
    const text = content.replace(/^\n+/, '').replace(/\n+$/, '\n').replace(/\n/gm, '\n  ')
    let marker = '- '
    if (parent?.nodeName === 'OL') {
      const start = Number(parent.getAttribute('start') ?? 1)
      marker = `${start + Array.prototype.indexOf.call(parent.children, node)}. `
    }
    return marker + text + (node.nextSibling && !/\n$/.test(text) ? '\n' : '')
  },
})
converter.remove(['script', 'style', 'noscript', 'iframe', 'form', 'button', 'select', 'canvas', 'template'])
// Inline drawings carry no text worth keeping (turndown's types only list HTML elements, hence the filter function).
converter.remove((node) => node.nodeName.toLowerCase() === 'svg')
// Nor do pictures inlined as data: addresses, whose base64 would otherwise fill the draft and the index. A rule, not
// remove(): turndown consults removals only for elements no rule claims, and its image rule claims every img.
converter.addRule('inlineDataImage', {
  filter: (node) => node.nodeName === 'IMG' && /^\s*data:/i.test(node.getAttribute('src') ?? ''),
  replacement: () => '',
})

/** A table cell's words on one line, its pipes escaped so they do not end the cell. */
const cellText = (cell: Element) => (cell.textContent ?? '').replace(/\s+/g, ' ').trim().replace(/\|/g, '\\|')

// A table as a Markdown pipe table (turndown keeps only its cells' text, one per paragraph, which loses which value
// belongs to which heading): the first row is the header, every row gets as many cells as the widest. The answerer
// reads each row with its headings (ADR 309). A table nested in a cell is read as that cell's text.
converter.addRule('pipeTable', {
  filter: (node) => node.nodeName === 'TABLE' && !node.parentElement?.closest('table'),
  replacement(_content, node) {
    const rows = Array.from((node as HTMLElement).querySelectorAll('tr'))
      .filter((row) => row.closest('table') === node)
      .map((row) => Array.from(row.children).filter((cell) => cell.nodeName === 'TD' || cell.nodeName === 'TH').map(cellText))
      .filter((cells) => cells.some((cell) => cell !== ''))
    if (rows.length === 0) return ''
    const width = Math.max(...rows.map((cells) => cells.length))
    const line = (cells: string[]) => `| ${Array.from({ length: width }, (_, index) => cells[index] ?? '').join(' | ')} |`
    const [header, ...body] = rows as [string[], ...string[][]]
    // A one-column or one-row table says no more as a table than as lines.
    if (width === 1) return `\n\n${rows.map((cells) => cells[0]).join('\n\n')}\n\n`
    return `\n\n${[line(header), line(Array.from({ length: width }, () => '---')), ...body.map(line)].join('\n')}\n\n`
  },
})

/** Markdown from an HTML fragment or document body. */
export function convertHtmlToMarkdown(html: string): string {
  // Links set side by side with no space between them (a menu of inline links) read as one word once their markup is
  // gone ("Page 2Page 3"): a space parts them.
  return tidyMarkdown(converter.turndown(html).replace(/(\]\([^)\s]*\))(?=!?\[)/g, '$1 '))
}

/** Collapses runs of blank lines and trailing spaces left by conversions. */
export function tidyMarkdown(markdown: string): string {
  return markdown
    .replace(/\r\n?/g, '\n')
    .replace(/[ \t]+$/gm, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim()
}
