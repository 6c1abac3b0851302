import mammoth from 'mammoth'
import { convertHtmlToMarkdown } from './html-to-markdown'
import { capText, ExtractionError, titleFromFileName, type ExtractedDocument, type ExtractionLimits } from './extracted-document'
import { assertInflatesWithin, readDeclaredZipSize, ZipTooLargeError } from './zip-size'

// Pictures carry no text: by default mammoth inlines each one as a base64 data: address, which would land in the
// draft (megabytes of it for a photo) and be indexed. An empty src makes the Markdown converter drop the image unread.
const SKIP_IMAGES = mammoth.images.imgElement(async () => ({ src: '' }))

/**
 * Reads a Word document (DOCX) with mammoth, whose semantic HTML (headings, lists, tables) becomes Markdown.
 * The zip is first inflated entry by entry with a running count, keeping nothing: mammoth (through JSZip)
 * inflates whole entries in memory, so an archive that lies about its sizes is stopped here, at the limit.
 */
export async function extractDocx(bytes: Uint8Array, fileName: string, limits: ExtractionLimits): Promise<ExtractedDocument> {
  // The sizes the directory declares: a cheap first refusal of an honest archive that is simply too large.
  if (readDeclaredZipSize(bytes) > limits.maxDecompressedBytes) throw new ZipTooLargeError(fileName, limits.maxDecompressedBytes)
  const deadline = Date.now() + limits.timeoutMs
  await assertInflatesWithin(bytes, limits.maxDecompressedBytes, fileName, deadline)
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ExtractionError('Reading the DOCX took too long')), Math.max(0, deadline - Date.now()))
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
