import { Lexer, type Token, type Tokens } from 'marked'
import { decodeEntities, safeHref } from './markdown-text'

/**
 * Markdown parsed into plain data: a tree of the few kinds of element a reader sees, with text already decoded and
 * link addresses already checked. It travels as loader data, so a page can show Markdown without shipping the parser
 * to the browser, and it has no way to carry HTML: raw HTML in the content is reduced to its words (HTML's own tags
 * left out, scripts and styles with their content), shown as text.
 */
export type MarkdownNode = string | MarkdownElement

export type MarkdownElement =
  | { type: 'heading'; depth: number; children: MarkdownNode[] }
  | { type: 'paragraph' | 'blockquote' | 'strong' | 'emphasis' | 'deleted'; children: MarkdownNode[] }
  | { type: 'list'; ordered: boolean; start?: number; children: MarkdownElement[] }
  | { type: 'item'; checked?: boolean; children: MarkdownNode[] }
  | { type: 'code' | 'inline-code' | 'raw'; text: string }
  | { type: 'rule' | 'break' }
  | { type: 'link'; href: string | null; title?: string; children: MarkdownNode[] }
  | { type: 'table'; label: string; align: Array<'left' | 'center' | 'right' | null>; head: MarkdownNode[][]; rows: MarkdownNode[][][] }

export interface MarkdownDocument {
  children: MarkdownNode[]
}

// GitHub-flavoured, and a single line break stays a line break: answers and agent output are often plain text.
const LEX_OPTIONS = { gfm: true, breaks: true } as const

/** Parses Markdown with marked into a MarkdownDocument. */
export function toMarkdownDocument(source: string): MarkdownDocument {
  return { children: blocks(Lexer.lex(source, LEX_OPTIONS)) }
}

function blocks(tokens: Token[]): MarkdownNode[] {
  return tokens.flatMap(block)
}

function block(token: Token): MarkdownNode[] {
  switch (token.type) {
    case 'heading': {
      const heading = token as Tokens.Heading
      return [{ type: 'heading', depth: heading.depth, children: inline(heading.tokens) }]
    }
    case 'paragraph':
      return [{ type: 'paragraph', children: inline((token as Tokens.Paragraph).tokens) }]
    case 'text': {
      // A tight list item's text: inline content without a paragraph around it.
      const text = token as Tokens.Text
      return text.tokens ? inline(text.tokens) : [decodeEntities(text.text)]
    }
    case 'blockquote':
      return [{ type: 'blockquote', children: blocks((token as Tokens.Blockquote).tokens) }]
    case 'list': {
      const list = token as Tokens.List
      const items = list.items.map((item): MarkdownElement => ({
        type: 'item',
        ...(item.task ? { checked: Boolean(item.checked) } : {}),
        children: blocks(item.tokens.filter((child) => child.type !== 'checkbox')),
      }))
      const start = list.ordered && typeof list.start === 'number' && list.start !== 1 ? { start: list.start } : {}
      return [{ type: 'list', ordered: list.ordered, ...start, children: items }]
    }
    case 'code':
      return [{ type: 'code', text: (token as Tokens.Code).text }]
    case 'table': {
      const table = token as Tokens.Table
      return [
        {
          type: 'table',
          label: `Table: ${table.header.map((cell) => decodeEntities(cell.text)).join(', ')}`.slice(0, 200),
          align: table.align.map((align) => align ?? null),
          head: table.header.map((cell) => inline(cell.tokens)),
          rows: table.rows.map((row) => row.map((cell) => inline(cell.tokens))),
        },
      ]
    }
    case 'hr':
      return [{ type: 'rule' }]
    case 'html': {
      // HTML's own tags are left out and their words kept; what a browser would run or hide goes with its content;
      // anything else in angle brackets ("Press <Enter>") is shown as the text it is.
      const text = withoutHtmlTags((token as Tokens.HTML).text).trim()
      if (!text) return []
      return text.split(/\n\s*\n/).map((part) => ({ type: 'raw' as const, text: decodeEntities(part.trim()) }))
    }
    case 'space':
    case 'def':
      return []
    default:
      return unknown(token)
  }
}

function inline(tokens: Token[] | undefined, isInLink = false): MarkdownNode[] {
  const nodes: MarkdownNode[] = []
  // Inside an element whose content a browser would run or hide (<script>…</script> within a line), its name.
  let hiddenUntil: string | undefined
  for (const token of tokens ?? []) {
    if (token.type === 'html') {
      const tag = HTML_TAG.exec((token as Tokens.Tag).text)
      const name = tag?.[2]?.toLowerCase()
      if (hiddenUntil !== undefined) {
        if (tag?.[1] === '/' && name === hiddenUntil) hiddenUntil = undefined
        continue
      }
      if (name && HIDDEN_CONTENT.has(name) && tag?.[1] !== '/' && !tag?.[3]) {
        hiddenUntil = name
        continue
      }
    } else if (hiddenUntil !== undefined) continue
    nodes.push(...span(token, isInLink))
  }
  return nodes
}

/** One tag (group 1: "/" for a closing tag; group 2: its name; group 3: "/" when it closes itself). */
const HTML_TAG = /^<(\/?)([a-zA-Z][a-zA-Z0-9-]*)\b(?:[^>"']|"[^"]*"|'[^']*')*?(\/?)>$/

/** HTML's own elements: their tags are left out of the page, their words kept. */
const HTML_ELEMENTS = new Set(
  (
    'a abbr address article aside audio b base bdi bdo big blink blockquote body br button canvas caption center cite code col colgroup data ' +
    'datalist dd del details dfn dialog dir div dl dt em embed fieldset figcaption figure font footer form frame frameset h1 h2 h3 h4 h5 h6 ' +
    'head header hgroup hr html i iframe img input ins kbd label legend li link main map mark marquee math menu meta meter nav noscript ' +
    'object ol optgroup option output p param picture plaintext pre progress q rp rt ruby s samp script search section select slot small ' +
    'source span strike strong style sub summary sup svg table tbody td template textarea tfoot th thead time title tr track tt u ul var ' +
    'video wbr xmp'
  ).split(' '),
)

/** Elements whose content is code, styling or what a browser hides or asks for, not words to read: left out whole. */
const HIDDEN_CONTENT = new Set(['script', 'style', 'iframe', 'object', 'embed', 'noscript', 'template', 'svg', 'math', 'head', 'title', 'textarea', 'select', 'frameset', 'xmp', 'plaintext'])

/** One such element with its content, to its end tag or the end of the block. */
const HIDDEN_ELEMENT = new RegExp(String.raw`<(${[...HIDDEN_CONTENT].join('|')})\b[^>]*>[\s\S]*?(?:<\/\1\s*>|$)`, 'gi')

/** A block of HTML as its words: comments and hidden content left out, HTML's own tags removed, other text kept. */
function withoutHtmlTags(html: string): string {
  return html
    .replace(/<!--[\s\S]*?(?:-->|$)/g, '')
    .replace(HIDDEN_ELEMENT, '')
    .replace(/<(\/?)([a-zA-Z][a-zA-Z0-9-]*)\b(?:[^>"']|"[^"]*"|'[^']*')*?\/?>/g, (tag, _slash: string, name: string) => {
      const lower = name.toLowerCase()
      if (!HTML_ELEMENTS.has(lower)) return tag
      return lower === 'br' || lower === 'p' || lower === 'div' || lower === 'li' || lower === 'tr' ? '\n' : ''
    })
    .replace(/[ \t]*\n[ \t]*/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
}

function span(token: Token, isInLink: boolean): MarkdownNode[] {
  switch (token.type) {
    case 'text': {
      const text = token as Tokens.Text
      return text.tokens?.length ? inline(text.tokens, isInLink) : [decodeEntities(text.text)]
    }
    case 'escape':
      return [decodeEntities((token as Tokens.Escape).text)]
    case 'strong':
    case 'em':
    case 'del': {
      const type = token.type === 'strong' ? 'strong' : token.type === 'em' ? 'emphasis' : 'deleted'
      return [{ type, children: inline((token as Tokens.Strong).tokens, isInLink) }]
    }
    case 'codespan':
      return [{ type: 'inline-code', text: (token as Tokens.Codespan).text }]
    case 'br':
      return [{ type: 'break' }]
    case 'link': {
      const link = token as Tokens.Link
      const children = inline(link.tokens, true)
      // A link inside a link, or one to an unsafe address, keeps only its words.
      const href = isInLink ? null : safeHref(link.href)
      return href ? [{ type: 'link', href, ...(link.title ? { title: link.title } : {}), children }] : children
    }
    case 'image': {
      // Pictures are offered as links rather than loaded: content from the web should not make readers' browsers
      // fetch from other sites.
      const image = token as Tokens.Image
      const label = `[Image: ${decodeEntities(image.text) || 'untitled'}]`
      const href = isInLink ? null : safeHref(image.href)
      return href ? [{ type: 'link', href, children: [label] }] : [label]
    }
    case 'html': {
      const html = (token as Tokens.Tag).text
      if (/^<br\s*\/?>$/i.test(html)) return [{ type: 'break' }]
      if (html.startsWith('<!--')) return []
      // A tag of HTML's own is left out (its words around it stay); other angle brackets are text ("<Enter>").
      const name = HTML_TAG.exec(html)?.[2]?.toLowerCase()
      if (name && HTML_ELEMENTS.has(name)) return []
      return [html]
    }
    default:
      return unknown(token)
  }
}

/** Tokens of a kind we do not know (a marked extension): keep their words rather than lose them. */
function unknown(token: Token): MarkdownNode[] {
  if ('tokens' in token && Array.isArray(token.tokens)) return inline(token.tokens as Token[])
  return 'text' in token && typeof token.text === 'string' ? [decodeEntities(token.text)] : []
}

/** The words of Markdown without its markers: for excerpts and previews where formatting cannot be shown. */
export function markdownToPlainText(source: string): string {
  return textOf(toMarkdownDocument(source).children).replace(/\s+/g, ' ').trim()
}

/**
 * An answer without its citation markers ("[1]"), for where its sources are not shown beside it: a marker there would
 * point at nothing. A Markdown link's text ("[1](…)") is kept.
 */
export function withoutCitationMarkers(answer: string): string {
  return answer.replace(/[ \t]*\[\d{1,3}\](?!\()/g, '')
}

/**
 * At most `maxLength` characters of the Markdown's words, cut at a word boundary with an ellipsis, so a snippet never
 * shows "##" or a dangling "**".
 */
export function markdownExcerpt(source: string, maxLength: number): string {
  const text = markdownToPlainText(source)
  if (text.length <= maxLength) return text
  return `${cutAtWord(text, maxLength)}…`
}

/** The first `maxLength` characters of a text, ended at its last space when that keeps most of them. */
function cutAtWord(text: string, maxLength: number): string {
  const cut = text.slice(0, maxLength)
  const lastSpace = cut.lastIndexOf(' ')
  return (lastSpace > maxLength * 0.6 ? cut.slice(0, lastSpace) : cut).trimEnd()
}

/** Pieces shorter than this are too common to tell where an answer quotes a passage. */
const MIN_QUOTED_LENGTH = 20

/** The sentences an answer is made of, without citation markers or list markers ("1. ", "- "). */
function quotedPieces(answer: string): string[] {
  return answer
    .replace(/\s*\[\d+\]/g, '')
    .split(/\n+|(?<=[.!?])\s+/)
    .map((piece) => markdownToPlainText(piece.replace(/^\s*(?:\d{1,3}\.|[-*])\s+/, '')))
    .filter((piece) => piece.length >= MIN_QUOTED_LENGTH)
}

/**
 * Like `markdownExcerpt`, but showing the sentence `answer` quotes from the passage: when that sentence does not end
 * within the first `maxLength` characters, the excerpt starts at it ("… An agent is an assistant that …"), so the
 * reader sees what the answer took from the source. An answer that quotes nothing of it (a model's own words) gets the
 * passage's start.
 */
export function markdownExcerptShowing(source: string, maxLength: number, answer: string | undefined): string {
  const text = markdownToPlainText(source)
  if (!answer || text.length <= maxLength) return markdownExcerpt(source, maxLength)
  let first: { index: number; length: number } | undefined
  const rows = tableRows(source)
  for (const piece of quotedPieces(answer)) {
    let index = text.indexOf(piece)
    let length = piece.length
    // A table row is quoted as a sentence of its own ("Visitor permit — Fee per year: 15 euros."): its cells, in order,
    // are what the passage's words have of it.
    if (index < 0) {
      const row = rows.find((cells) => saysInOrder(piece, cells))
      const said = row?.join(' ')
      index = said === undefined ? -1 : text.indexOf(said)
      length = said?.length ?? 0
    }
    if (index >= 0 && (first === undefined || index < first.index)) first = { index, length }
  }
  // Ellipses take a character each; a quote that ends within the plain excerpt is already shown.
  if (first === undefined || first.index + first.length <= maxLength - 1) return markdownExcerpt(source, maxLength)
  const rest = text.slice(first.index)
  const room = maxLength - 2
  return rest.length <= room ? `…${rest}` : `…${cutAtWord(rest, room)}…`
}

/** The body rows of the Markdown's tables, each as the plain text of its cells (empty ones left out), two cells or more. */
function tableRows(source: string): string[][] {
  const rows: string[][] = []
  const visit = (nodes: readonly MarkdownNode[]) => {
    for (const node of nodes) {
      if (typeof node === 'string') continue
      if (node.type === 'table') {
        for (const row of node.rows) {
          const cells = row.map((cell) => textOf(cell).replace(/\s+/g, ' ').trim()).filter((cell) => cell !== '')
          if (cells.length >= 2) rows.push(cells)
        }
      } else if ('children' in node) visit(node.children)
    }
  }
  visit(toMarkdownDocument(source).children)
  return rows
}

/** Whether `text` has every one of `parts`, each after the one before. */
function saysInOrder(text: string, parts: readonly string[]): boolean {
  let from = 0
  for (const part of parts) {
    const at = text.indexOf(part, from)
    if (at < 0) return false
    from = at + part.length
  }
  return true
}

const BLOCKS = new Set(['heading', 'paragraph', 'blockquote', 'list', 'item', 'code', 'raw', 'rule', 'table', 'break'])

function textOf(nodes: MarkdownNode[]): string {
  return nodes
    .map((node) => {
      if (typeof node === 'string') return node
      const words = 'text' in node ? node.text : node.type === 'table' ? [node.head, ...node.rows].flat().map(textOf).join(' ') : 'children' in node ? textOf(node.children) : ''
      // A heading labels its section: on one line they would read as one sentence, and a full stop would make a
      // one-word heading a sentence of its own ("user. Users are …"), so it ends with a colon ("user: Users are …").
      if (node.type === 'heading' && !/[.!?:;,…]\s*$/.test(words)) return ` ${words.trimEnd()}: `
      return BLOCKS.has(node.type) ? ` ${words} ` : words
    })
    .join('')
}
