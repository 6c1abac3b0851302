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

/** Markdown from an HTML fragment or document body. */
export function convertHtmlToMarkdown(html: string): string {
  return tidyMarkdown(converter.turndown(html))
}

/** Collapses runs of blank lines and trailing spaces left by conversions. */
export function tidyMarkdown(markdown: string): string {
  return markdown
    .replace(/\r\n?/g, '\n')
    .replace(/[ \t]+$/gm, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim()
}
