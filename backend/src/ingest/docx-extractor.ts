import mammoth from 'mammoth'
import { convertHtmlToMarkdown } from './html-to-markdown'
import { capText, ExtractionError, titleFromFileName, type ExtractedDocument, type ExtractionLimits } from './extracted-document'
import { readDeclaredZipSize } from './zip-size'

// Pictures carry no text: by default mammoth inlines each one as a base64 data: address, which would land in the
// draft (megabytes of it for a photo) and be indexed. An empty src makes the Markdown converter drop the image unread.
const SKIP_IMAGES = mammoth.images.imgElement(async () => ({ src: '' }))

/** Reads a Word document (DOCX) with mammoth, whose semantic HTML (headings, lists, tables) becomes Markdown. */
export async function extractDocx(bytes: Uint8Array, fileName: string, limits: ExtractionLimits): Promise<ExtractedDocument> {
  const expandedSize = readDeclaredZipSize(bytes)
  if (expandedSize > limits.maxDecompressedBytes) {
    throw new ExtractionError(`The DOCX expands to ${expandedSize} bytes, more than the limit of ${limits.maxDecompressedBytes}`)
  }
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ExtractionError('Reading the DOCX took too long')), limits.timeoutMs)
  })
  try {
    const converted = await Promise.race([mammoth.convertToHtml({ buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) }, { convertImage: SKIP_IMAGES }), timeout])
    const content = capText(convertHtmlToMarkdown(converted.value), limits.maxTextChars)
    if (!content) throw new ExtractionError('The DOCX has no text')
    const firstHeading = /^#{1,3} (.+)$/m.exec(content)?.[1]
    return { title: firstHeading?.trim() || titleFromFileName(fileName), content }
  } catch (error) {
    if (error instanceof ExtractionError) throw error
    throw new ExtractionError(`Not a readable DOCX: ${(error as Error).message}`)
  } finally {
    clearTimeout(timer)
  }
}
