import { CONVERTED_FILE_NAME, DOCX_CONTENT_TYPE } from '../../../../contracts/documents'
import { UnprocessableError } from '../../errors'
import { renderMarkdownToDocx } from './docx-renderer'

export interface DownloadableFile {
  fileName: string
  contentType: string
  content: Buffer
}

/** Documents made from answers for people to download. */
export class DocumentsService {
  /** The answer's Markdown as a Word document named answer.docx. */
  async convertToDocx(markdown: string): Promise<DownloadableFile> {
    try {
      return { fileName: CONVERTED_FILE_NAME, contentType: DOCX_CONTENT_TYPE, content: await renderMarkdownToDocx(markdown) }
    } catch (error) {
      // The Markdown parser recurses once per level of nesting; thousands of nested quotes or emphasis marks
      // exhaust the stack. That is the input's fault, not the server's.
      if (error instanceof RangeError) throw new UnprocessableError('doc nests quotes, lists or emphasis too deeply to convert', 'doc')
      throw error
    }
  }
}
