import {
  AlignmentType,
  BorderStyle,
  Document,
  ExternalHyperlink,
  HeadingLevel,
  LevelFormat,
  Packer,
  Paragraph,
  ShadingType,
  Table,
  TableCell,
  TableRow,
  TextRun,
  WidthType,
  type ILevelsOptions,
  type INumberingOptions,
  type ParagraphChild,
} from 'docx'
import { Lexer, type Token, type Tokens } from 'marked'

type Block = Paragraph | Table
type NumberingConfig = INumberingOptions['config'][number]

interface RunStyle {
  bold?: boolean
  italics?: boolean
  strike?: boolean
  isCode?: boolean
  isLink?: boolean
}

interface BlockContext {
  /** Depth of the enclosing list (0 for a top-level list), or -1 outside lists. */
  listLevel: number
  quoteDepth: number
}

const HEADINGS = [HeadingLevel.HEADING_1, HeadingLevel.HEADING_2, HeadingLevel.HEADING_3, HeadingLevel.HEADING_4, HeadingLevel.HEADING_5, HeadingLevel.HEADING_6]
const ALIGNMENTS = { left: AlignmentType.LEFT, center: AlignmentType.CENTER, right: AlignmentType.RIGHT } as const
const CODE_FONT = 'Consolas'
const INDENT_STEP = 720 // twentieths of a point: half an inch per list or quote level
const TABLE_WIDTH = 9000 // twips, about the text width of an A4 or Letter page with default margins
const MAX_LIST_LEVEL = 8 // Word numbering has nine levels, 0 to 8

// Only these become clickable: a javascript: or file: link in a downloaded document is a trap, and a relative
// link has no base to resolve against once the answer leaves the product.
const SAFE_LINK = /^(https?:\/\/|mailto:)/i
// Characters XML 1.0 cannot hold at all; Word refuses a document that contains them.
const INVALID_XML_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g
const NAMED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00A0' }

/** Marked leaves entities as written (an HTML renderer passes them through); a Word document needs the characters. */
function decodeEntities(text: string): string {
  return text.replace(/&(#x[\da-f]+|#\d+|[a-z]+);/gi, (entity, body: string) => {
    if (body[0] === '#') {
      const codePoint = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10)
      return codePoint > 0 && codePoint <= 0x10ffff ? String.fromCodePoint(codePoint) : entity
    }
    return NAMED_ENTITIES[body.toLowerCase()] ?? entity
  })
}

const cleanText = (text: string) => text.replace(INVALID_XML_CHARACTERS, '')
const stripTags = (html: string) => decodeEntities(html.replace(/<[^>]*>/g, ''))

/** Turns one Markdown answer into Word paragraphs and tables; keeps the numbering its ordered lists need. */
class DocxBuilder {
  readonly numbering: NumberingConfig[] = []

  renderBlocks(tokens: Token[], context: BlockContext): Block[] {
    return tokens.flatMap((token) => this.renderBlock(token, context))
  }

  private renderBlock(token: Token, context: BlockContext): Block[] {
    switch (token.type) {
      case 'heading': {
        const heading = token as Tokens.Heading
        return [new Paragraph({ heading: HEADINGS[Math.min(heading.depth, 6) - 1], children: this.renderInline(heading.tokens, {}), indent: this.indentOf(context) })]
      }
      case 'paragraph':
      case 'text': {
        const text = token as Tokens.Paragraph | Tokens.Text
        const children = text.tokens ? this.renderInline(text.tokens, {}) : [this.run(decodeEntities(text.text), {})]
        return [this.paragraph(children, context)]
      }
      case 'list':
        return this.renderList(token as Tokens.List, context)
      case 'table':
        return [this.renderTable(token as Tokens.Table)]
      case 'blockquote':
        return this.renderBlocks((token as Tokens.Blockquote).tokens, { ...context, quoteDepth: context.quoteDepth + 1 })
      case 'code':
        return [this.renderCode(token as Tokens.Code, context)]
      case 'hr':
        return [new Paragraph({ border: { bottom: { style: BorderStyle.SINGLE, size: 6, color: 'auto', space: 1 } }, children: [] })]
      case 'html': {
        const text = stripTags((token as Tokens.HTML).text).trim()
        return text ? [this.paragraph([this.run(text, {})], context)] : []
      }
      case 'space':
      case 'def':
        return []
      default:
        // Tokens of extensions we do not know: keep their words rather than lose them.
        if ('tokens' in token && Array.isArray(token.tokens)) return [this.paragraph(this.renderInline(token.tokens, {}), context)]
        return 'text' in token && typeof token.text === 'string' && token.text.trim() ? [this.paragraph([this.run(token.text, {})], context)] : []
    }
  }

  /** A list item's first paragraph carries the bullet or number; what follows it in the item is indented under it. */
  private renderList(list: Tokens.List, context: BlockContext): Block[] {
    const level = Math.min(context.listLevel + 1, MAX_LIST_LEVEL)
    const reference = list.ordered ? this.addOrderedList(level, typeof list.start === 'number' ? list.start : 1) : undefined
    const itemContext: BlockContext = { ...context, listLevel: level }
    return list.items.flatMap((item) => {
      const blocks: Block[] = []
      let isFirst = true
      for (const token of item.tokens) {
        if (token.type === 'checkbox') continue
        if (isFirst && (token.type === 'text' || token.type === 'paragraph')) {
          const text = token as Tokens.Text | Tokens.Paragraph
          const checkbox = item.task ? [this.run(item.checked ? '\u2612 ' : '\u2610 ', {})] : []
          const children = [...checkbox, ...(text.tokens ? this.renderInline(text.tokens, {}) : [this.run(decodeEntities(text.text), {})])]
          blocks.push(
            new Paragraph({
              children,
              ...(reference ? { numbering: { reference, level } } : { bullet: { level } }),
            }),
          )
        } else {
          blocks.push(...this.renderBlock(token, itemContext))
        }
        isFirst = false
      }
      return blocks
    })
  }

  /** Each ordered list gets its own numbering, so it counts from its own start rather than on from the last list. */
  private addOrderedList(level: number, start: number): string {
    const reference = `ordered-list-${this.numbering.length + 1}`
    const levels: ILevelsOptions[] = Array.from({ length: MAX_LIST_LEVEL + 1 }, (_, index) => ({
      level: index,
      format: LevelFormat.DECIMAL,
      text: `%${index + 1}.`,
      alignment: AlignmentType.START,
      start: index === level ? Math.max(0, start) : 1,
      style: { paragraph: { indent: { left: INDENT_STEP * (index + 1), hanging: 360 } } },
    }))
    this.numbering.push({ reference, levels })
    return reference
  }

  private renderTable(table: Tokens.Table): Table {
    const columnCount = Math.max(table.header.length, 1)
    const columnWidth = Math.floor(TABLE_WIDTH / columnCount)
    const toRow = (cells: Tokens.TableCell[], isHeader: boolean) =>
      new TableRow({
        tableHeader: isHeader,
        children: Array.from({ length: columnCount }, (_, index) => {
          const cell = cells[index]
          return new TableCell({
            width: { size: columnWidth, type: WidthType.DXA },
            shading: isHeader ? { type: ShadingType.CLEAR, color: 'auto', fill: 'E7E6E6' } : undefined,
            children: [
              new Paragraph({
                alignment: cell?.align ? ALIGNMENTS[cell.align] : undefined,
                children: cell ? this.renderInline(cell.tokens, { bold: isHeader }) : [],
              }),
            ],
          })
        }),
      })
    return new Table({
      width: { size: columnWidth * columnCount, type: WidthType.DXA },
      columnWidths: Array.from({ length: columnCount }, () => columnWidth),
      rows: [toRow(table.header, true), ...table.rows.map((row) => toRow(row, false))],
    })
  }

  private renderCode(code: Tokens.Code, context: BlockContext): Paragraph {
    const lines = code.text.split('\n')
    return new Paragraph({
      shading: { type: ShadingType.CLEAR, color: 'auto', fill: 'F2F2F2' },
      indent: this.indentOf(context),
      children: lines.map((line, index) => new TextRun({ text: cleanText(line), font: CODE_FONT, break: index > 0 ? 1 : undefined })),
    })
  }

  private renderInline(tokens: Token[], style: RunStyle): ParagraphChild[] {
    return tokens.flatMap((token): ParagraphChild[] => {
      switch (token.type) {
        case 'text': {
          const text = token as Tokens.Text
          if (text.tokens?.length) return this.renderInline(text.tokens, style)
          // A single line break inside a paragraph is a soft break: Markdown shows it as a space.
          return [this.run(decodeEntities(text.text).replace(/\n/g, ' '), style)]
        }
        case 'strong':
          return this.renderInline((token as Tokens.Strong).tokens, { ...style, bold: true })
        case 'em':
          return this.renderInline((token as Tokens.Em).tokens, { ...style, italics: true })
        case 'del':
          return this.renderInline((token as Tokens.Del).tokens, { ...style, strike: true })
        case 'codespan':
          return [this.run((token as Tokens.Codespan).text, { ...style, isCode: true })]
        case 'escape':
          return [this.run((token as Tokens.Escape).text, style)]
        case 'br':
          return [new TextRun({ break: 1 })]
        case 'link': {
          const link = token as Tokens.Link
          const children = this.renderInline(link.tokens, { ...style, isLink: SAFE_LINK.test(link.href) })
          return SAFE_LINK.test(link.href) ? [new ExternalHyperlink({ link: link.href, children })] : children
        }
        case 'image': {
          // Images are not fetched (the server would be made to reach any address); the alt text links to them.
          const image = token as Tokens.Image
          const label = this.run(image.text || image.href, { ...style, isLink: SAFE_LINK.test(image.href) })
          return SAFE_LINK.test(image.href) ? [new ExternalHyperlink({ link: image.href, children: [label] })] : [label]
        }
        case 'html': {
          const html = (token as Tokens.Tag).text
          if (/^<br\s*\/?>$/i.test(html.trim())) return [new TextRun({ break: 1 })]
          const text = stripTags(html)
          return text ? [this.run(text, style)] : []
        }
        default:
          if ('tokens' in token && Array.isArray(token.tokens)) return this.renderInline(token.tokens, style)
          return 'text' in token && typeof token.text === 'string' ? [this.run(token.text, style)] : []
      }
    })
  }

  private run(text: string, style: RunStyle): TextRun {
    return new TextRun({
      text: cleanText(text),
      bold: style.bold,
      italics: style.italics,
      strike: style.strike,
      font: style.isCode ? CODE_FONT : undefined,
      shading: style.isCode ? { type: ShadingType.CLEAR, color: 'auto', fill: 'F2F2F2' } : undefined,
      style: style.isLink ? 'Hyperlink' : undefined,
    })
  }

  private paragraph(children: ParagraphChild[], context: BlockContext): Paragraph {
    const isQuote = context.quoteDepth > 0
    return new Paragraph({
      children,
      indent: this.indentOf(context),
      border: isQuote ? { left: { style: BorderStyle.SINGLE, size: 12, color: 'BFBFBF', space: 8 } } : undefined,
    })
  }

  /** Paragraphs inside a list item or quote sit under it rather than at the margin. */
  private indentOf(context: BlockContext): { left: number } | undefined {
    const steps = context.listLevel + 1 + context.quoteDepth
    return steps > 0 ? { left: INDENT_STEP * steps } : undefined
  }
}

/** Renders Markdown (GitHub flavour) as a Word document: headings, paragraphs, lists, tables, links, emphasis, code. */
export async function renderMarkdownToDocx(markdown: string, options: { title?: string } = {}): Promise<Buffer> {
  const builder = new DocxBuilder()
  const tokens = new Lexer({ gfm: true }).lex(markdown)
  const children = builder.renderBlocks(tokens, { listLevel: -1, quoteDepth: 0 })
  const document = new Document({
    creator: 'Knowledge assistant',
    title: options.title ?? 'Answer',
    numbering: { config: builder.numbering },
    // Word refuses a body without a paragraph; Markdown of only comments renders to nothing.
    sections: [{ children: children.length > 0 ? children : [new Paragraph({ children: [] })] }],
  })
  return Packer.toBuffer(document)
}
