import { extractDocx } from './docx-extractor'
import { ExtractionError, type DocumentFormat, type ExtractedDocument, type ExtractionLimits } from './extracted-document'
import { extractPdf } from './pdf-extractor'
import { normaliseText, decodeText } from './text-decoding'
import { extractCsvRows, extractHtmlFile, extractMarkdown, extractText, type CsvColumns } from './text-extractors'

/** Reads a file of a known format into one or more documents (several for a CSV: one per row). */
export async function extractDocuments(
  bytes: Uint8Array,
  format: DocumentFormat,
  fileName: string,
  limits: ExtractionLimits,
  csvColumns: CsvColumns = {},
): Promise<ExtractedDocument[]> {
  if (format === 'pdf') return [await extractPdf(bytes, fileName, limits)]
  if (format === 'docx') return [await extractDocx(bytes, fileName, limits)]
  const decoded = decodeText(bytes)
  if (!decoded) throw new ExtractionError('The file is not text')
  const text = normaliseText(decoded.text)
  switch (format) {
    case 'html':
      return [extractHtmlFile(text, fileName, limits)]
    case 'markdown':
      return [extractMarkdown(text, fileName, limits)]
    case 'csv':
      return extractCsvRows(text, fileName, limits, csvColumns)
    case 'text':
      return [extractText(text, fileName, limits)]
  }
}
