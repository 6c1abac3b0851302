import type { TextItem } from 'pdfjs-dist/types/src/display/api'
import { tidyMarkdown } from './html-to-markdown'
import { assertBeforeDeadline, capText, ExtractionError, titleFromFileName, type ExtractedDocument, type ExtractionLimits } from './extracted-document'

interface TextLine {
  text: string
  /** Font size of the line's largest run, in PDF units. */
  size: number
  /** Baseline position on the page (PDF units, from the bottom). */
  y: number
  page: number
}

const LIST_MARKER = /^\s*(?:[•●▪◦‣∙·*–-]|(\d{1,3})[.)])\s+/

/**
 * Reads the text layer of a PDF with pdf.js (the legacy build, meant for Node) and rebuilds Markdown from its
 * layout: larger type becomes headings, bullet and numbered lines become lists, gaps become paragraphs.
 */
export async function extractPdf(bytes: Uint8Array, fileName: string, limits: ExtractionLimits): Promise<ExtractedDocument> {
  const deadline = Date.now() + limits.timeoutMs
  // Loaded on the first PDF: pdf.js installs polyfills process-wide that slow every other request down.
  const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs')
  // pdf.js takes ownership of the buffer it is given, so it gets a copy.
  const task = getDocument({ data: new Uint8Array(bytes), isEvalSupported: false, disableFontFace: true, useSystemFonts: false, verbosity: 0 })
  try {
    const pdf = await task.promise.catch((error: Error) => {
      if (error.name === 'PasswordException') throw new ExtractionError('The PDF is password-protected')
      throw new ExtractionError(`Not a readable PDF: ${error.message}`)
    })
    if (pdf.numPages > limits.maxPdfPages) throw new ExtractionError(`The PDF has ${pdf.numPages} pages, more than the limit of ${limits.maxPdfPages}`)
    const lines: TextLine[] = []
    let characters = 0
    for (let pageNumber = 1; pageNumber <= pdf.numPages && characters <= limits.maxTextChars; pageNumber++) {
      assertBeforeDeadline(deadline, 'the PDF')
      const page = await pdf.getPage(pageNumber)
      const text = await page.getTextContent()
      for (const line of groupIntoLines(text.items.filter((item): item is TextItem => 'str' in item), pageNumber)) {
        lines.push(line)
        characters += line.text.length
      }
      page.cleanup()
    }
    if (lines.length === 0) throw new ExtractionError('The PDF has no text layer (scanned pages are not read)')
    const info = ((await pdf.getMetadata().catch(() => undefined))?.info ?? {}) as { Title?: unknown }
    const content = capText(renderMarkdown(lines), limits.maxTextChars)
    const metadataTitle = typeof info.Title === 'string' && info.Title.trim() && !/^untitled/i.test(info.Title.trim()) ? info.Title.trim() : ''
    const firstHeading = /^#{1,3} (.+)$/m.exec(content)?.[1]
    return { title: metadataTitle || firstHeading || titleFromFileName(fileName), content }
  } catch (error) {
    if (error instanceof ExtractionError) throw error
    throw new ExtractionError(`Not a readable PDF: ${(error as Error).message}`)
  } finally {
    await task.destroy().catch(() => undefined)
  }
}

/** Joins pdf.js text runs into lines: a new line at an end-of-line mark or when the baseline moves. */
function groupIntoLines(items: TextItem[], page: number): TextLine[] {
  const lines: TextLine[] = []
  let current: TextLine | undefined
  for (const item of items) {
    const y = Number(item.transform[5])
    const size = Math.abs(Number(item.transform[3])) || item.height
    if (current && Math.abs(current.y - y) > Math.max(1, current.size * 0.4)) {
      lines.push(current)
      current = undefined
    }
    if (item.str) {
      if (!current) current = { text: '', size, y, page }
      const needsSpace = current.text && !current.text.endsWith(' ') && !item.str.startsWith(' ')
      current.text += (needsSpace ? ' ' : '') + item.str
      current.size = Math.max(current.size, size)
    }
    if (item.hasEOL && current) {
      lines.push(current)
      current = undefined
    }
  }
  if (current) lines.push(current)
  return lines.map((line) => ({ ...line, text: line.text.replace(/\s+/g, ' ').trim() })).filter((line) => line.text)
}

function renderMarkdown(lines: TextLine[]): string {
  const bodySize = mostCommonSize(lines)
  // Sizes clearly above the body text, largest first: heading levels 1, 2, 3.
  const headingSizes = [...new Set(lines.filter((line) => line.size >= bodySize * 1.15).map((line) => Math.round(line.size)))].sort((a, b) => b - a)
  const blocks: string[] = []
  let paragraph: string[] = []
  let previous: TextLine | undefined
  const flush = () => {
    if (paragraph.length) blocks.push(paragraph.join(' '))
    paragraph = []
  }
  for (const line of lines) {
    const level = line.text.length <= 200 ? headingSizes.indexOf(Math.round(line.size)) : -1
    const listMatch = LIST_MARKER.exec(line.text)
    const isNewBlock = !previous || previous.page !== line.page || previous.y - line.y > previous.size * 1.8
    if (level >= 0) {
      flush()
      blocks.push(`${'#'.repeat(Math.min(level + 1, 3))} ${line.text}`)
    } else if (listMatch) {
      flush()
      const marker = listMatch[1] ? `${listMatch[1]}. ` : '- '
      blocks.push(marker + line.text.slice(listMatch[0].length))
    } else {
      if (isNewBlock) flush()
      // A line that continues a list item (no marker, no gap) belongs to that item.
      const last = blocks[blocks.length - 1]
      if (!paragraph.length && !isNewBlock && last && /^(?:- |\d+\. )/.test(last)) blocks[blocks.length - 1] = `${last} ${line.text}`
      else paragraph.push(line.text)
    }
    previous = line
  }
  flush()
  // Consecutive list items stay together; everything else is separated by a blank line.
  return tidyMarkdown(
    blocks.reduce((markdown, block, index) => {
      if (index === 0) return block
      const isList = (text: string) => /^(?:- |\d+\. )/.test(text)
      return markdown + (isList(block) && isList(blocks[index - 1]) ? '\n' : '\n\n') + block
    }, ''),
  )
}

function mostCommonSize(lines: TextLine[]): number {
  const weight = new Map<number, number>()
  for (const line of lines) weight.set(Math.round(line.size), (weight.get(Math.round(line.size)) ?? 0) + line.text.length)
  return [...weight.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 12
}
