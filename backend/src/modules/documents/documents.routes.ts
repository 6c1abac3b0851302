import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { ConvertDocBody, DOCX_CONTENT_TYPE } from '../../../../contracts/documents'
import type { DocumentsService } from './documents.service'

export const documentsRoutes =
  (documents: DocumentsService): FastifyPluginAsyncZod =>
  async (app) => {
    // Anyone signed in: people download the answers they were given.
    app.post(
      '/admin/convert_doc',
      {
        config: { access: 'user' },
        schema: {
          tags: ['documents'],
          body: ConvertDocBody,
          // Documents the download only: fastify sends a Buffer as it is, without serialising it.
          response: {
            200: { description: 'The answer as a Word document, answer.docx', content: { [DOCX_CONTENT_TYPE]: { schema: z.any().meta({ type: 'string', format: 'binary' }) } } },
          },
        },
      },
      async (request, reply) => {
        const file = await documents.convertToDocx(request.body.doc)
        return reply.type(file.contentType).header('content-disposition', `attachment; filename="${file.fileName}"`).send(file.content)
      },
    )
  }
