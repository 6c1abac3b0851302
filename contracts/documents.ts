import { z } from 'zod'

export const DOCX_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'
export const CONVERTED_FILE_NAME = 'answer.docx'

/** Body of POST /admin/convert_doc: the Markdown of an answer, to be downloaded as a Word document. */
export const ConvertDocBody = z.object({
  doc: z.string().trim().min(1, 'doc is required').max(1_000_000, 'doc is at most 1000000 characters'),
})
export type ConvertDocBody = z.infer<typeof ConvertDocBody>
