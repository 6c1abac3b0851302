import { parse } from 'csv-parse/sync'
import { extractReadableHtml } from './html-extractor'
import { tidyMarkdown } from './html-to-markdown'
import { capText, ExtractionError, titleFromFileName, type ExtractedDocument, type ExtractionLimits } from './extracted-document'

/** A Markdown file as it is; its title from front matter, else its first heading, else its file name. */
export function extractMarkdown(text: string, fileName: string, limits: ExtractionLimits): ExtractedDocument {
  let body = text
  let frontMatterTitle: string | undefined
  const frontMatter = /^---\n([\s\S]*?)\n---\n/.exec(text)
  if (frontMatter) {
    body = text.slice(frontMatter[0].length)
    frontMatterTitle = /^title:\s*["']?(.+?)["']?\s*$/m.exec(frontMatter[1])?.[1]
  }
  const content = capText(tidyMarkdown(body), limits.maxTextChars)
  if (!content) throw new ExtractionError('The file has no text')
  const heading = /^#\s+(.+?)\s*#*$/m.exec(content)?.[1] ?? /^(.+)\n=+\s*$/m.exec(content)?.[1]
  return { title: (frontMatterTitle ?? heading ?? titleFromFileName(fileName)).trim(), content }
}

/** Plain text, titled by its file name. */
export function extractText(text: string, fileName: string, limits: ExtractionLimits): ExtractedDocument {
  const content = capText(tidyMarkdown(text), limits.maxTextChars)
  if (!content) throw new ExtractionError('The file has no text')
  return { title: titleFromFileName(fileName), content }
}

/** An HTML file: its main content (Readability) as Markdown. */
export function extractHtmlFile(text: string, fileName: string, limits: ExtractionLimits): ExtractedDocument {
  const page = extractReadableHtml(text, { fallbackTitle: titleFromFileName(fileName) })
  const content = capText(page.content, limits.maxTextChars)
  if (!content) throw new ExtractionError('The HTML has no readable text')
  return { title: page.title, content }
}

export interface CsvColumns {
  titleColumn?: string
  contentColumn?: string
}

const TITLE_HEADERS = ['title', 'name', 'subject', 'heading', 'question', 'topic']
const CONTENT_HEADERS = ['content', 'body', 'text', 'answer', 'description', 'article', 'details']

/**
 * One document per CSV row. The title and content columns are chosen by header: the ones named in
 * `columns`, else the first header that reads like a title or a content column.
 */
export function extractCsvRows(text: string, fileName: string, limits: ExtractionLimits, columns: CsvColumns = {}): ExtractedDocument[] {
  let records: Record<string, string>[]
  // The header row as read, kept apart from the records: a file with a header row only has columns but no records.
  let headers: string[] = []
  try {
    records = parse(text, {
      columns: (header: string[]) => (headers = header.map((name) => name.trim())),
      delimiter: [',', ';', '\t'],
      bom: true,
      skip_empty_lines: true,
      relax_column_count: true,
      trim: true,
      to: limits.maxCsvRows + 1,
    })
  } catch (error) {
    throw new ExtractionError(`Not a readable CSV: ${(error as Error).message}`)
  }
  if (records.length > limits.maxCsvRows) throw new ExtractionError(`The CSV has more than ${limits.maxCsvRows} rows`)
  if (records.length === 0) throw new ExtractionError(headers.length ? `The CSV has no rows, only its header row (${headers.join(', ')})` : 'The CSV has no rows')
  const contentColumn = pickColumn(headers, columns.contentColumn, CONTENT_HEADERS, 'content')
  if (columns.titleColumn && columns.titleColumn.trim().toLowerCase() === contentColumn.toLowerCase()) {
    throw new ExtractionError(`"${contentColumn}" is the content column; choose another column for the titles`)
  }
  const titleColumn = pickColumn(headers, columns.titleColumn, TITLE_HEADERS, 'title', contentColumn)
  const base = titleFromFileName(fileName)
  const documents: ExtractedDocument[] = []
  records.forEach((record, index) => {
    const content = capText(tidyMarkdown(record[contentColumn] ?? ''), limits.maxTextChars)
    if (!content) return
    documents.push({ title: (record[titleColumn] ?? '').trim() || `${base} row ${index + 1}`, content })
  })
  if (documents.length === 0) throw new ExtractionError(`The CSV has no rows with text in its "${contentColumn}" column`)
  return documents
}

/**
 * The column of a role: the one named, else the first header among the candidates, never the column `taken` by
 * another role. Its refusals list every column of the file, the taken one too.
 */
function pickColumn(headers: string[], requested: string | undefined, candidates: string[], role: string, taken?: string): string {
  const lower = headers.map((header) => (header === taken ? '' : header.toLowerCase()))
  if (requested?.trim()) {
    const index = lower.indexOf(requested.trim().toLowerCase())
    if (index < 0) throw new ExtractionError(`The CSV has no "${requested}" column (its columns: ${headers.join(', ') || 'none'})`)
    return headers[index]
  }
  const index = candidates.map((candidate) => lower.indexOf(candidate)).find((found) => found >= 0)
  if (index !== undefined) return headers[index]
  throw new ExtractionError(`The CSV needs a ${role} column named one of ${candidates.join(', ')} (its columns: ${headers.join(', ') || 'none'})`)
}
