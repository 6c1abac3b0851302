import { Readable } from 'node:stream'
import multipart, { type Multipart } from '@fastify/multipart'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { CrawlBody, DownloadQuery, IngestJobParams, IngestLimits, IngestProgress, YoutubeBody, YoutubeImported } from '../../../../contracts/ingest'
import { AppError, PayloadTooLargeError, UnsupportedMediaError } from '../../errors'
import type { IngestService } from './ingest.service'
import type { UploadPart } from './upload.service'

export const ingestRoutes =
  (ingest: IngestService): FastifyPluginAsyncZod =>
  async (app) => {
    const limits = ingest.limits()
    // Registered here, so multipart parsing exists only on these routes. Oversized files are reported by the
    // service with their name, so the plugin truncates instead of throwing.
    await app.register(multipart, {
      throwFileSizeLimit: false,
      limits: { fileSize: limits.max_upload_bytes, files: limits.max_upload_files, fields: 20, parts: limits.max_upload_files + 20 },
    })

    app.post(
      '/admin/upload_recovery',
      { config: { access: 'editor' }, schema: { tags: ['ingest'], consumes: ['multipart/form-data'], response: { 200: IngestProgress } } },
      async (request) => {
        if (!request.isMultipart()) throw new UnsupportedMediaError('Send the files as multipart/form-data')
        requireBoundary(request.headers['content-type'])
        const job = await ingest.uploads.receive(toUploadParts(request.parts(), limits.max_upload_files))
        return ingest.settleUpload(job)
      },
    )

    app.post('/admin/crawl', { config: { access: 'editor' }, schema: { tags: ['ingest'], body: CrawlBody, response: { 200: IngestProgress } } }, async (request) => {
      const job = await ingest.crawls.start(request.body)
      return ingest.progress(job.id)
    })

    app.get('/admin/ingest_jobs/:task_id', { config: { access: 'editor' }, schema: { tags: ['ingest'], params: IngestJobParams, response: { 200: IngestProgress } } }, (request) =>
      ingest.progress(request.params.task_id),
    )

    app.post(
      '/admin/ingest_jobs/:task_id/stop',
      { config: { access: 'editor' }, schema: { tags: ['ingest'], params: IngestJobParams, response: { 200: IngestProgress } } },
      (request) => ingest.stopCrawl(request.params.task_id),
    )

    app.post('/admin/inject_youtube', { config: { access: 'editor' }, schema: { tags: ['ingest'], body: YoutubeBody, response: { 200: YoutubeImported } } }, (request) =>
      ingest.youtube.importVideo(request.body.url),
    )

    app.get('/admin/ingest_limits', { config: { access: 'editor' }, schema: { tags: ['ingest'], response: { 200: IngestLimits } } }, async () => ingest.limits())

    app.get('/download', { config: { access: 'user' }, schema: { tags: ['ingest'], querystring: DownloadQuery } }, async (request, reply) => {
      const { file, blob } = await ingest.uploads.download(request.query.s3_key)
      reply
        .header('content-type', file.contentType)
        .header('content-disposition', `attachment; filename="${file.fileName.replace(/[^\x20-\x7e]|["\\]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(file.fileName)}`)
        // An uploaded HTML file must never run as a page of this origin.
        .header('content-security-policy', "sandbox; default-src 'none'")
        .header('x-content-type-options', 'nosniff')
      if (blob.sizeBytes !== undefined) reply.header('content-length', blob.sizeBytes)
      return reply.send(blob.body)
    })
  }

// RFC 2046 §5.1.1: a boundary is 1 to 70 characters.
const MAX_BOUNDARY_LENGTH = 70

/** Refuses a multipart Content-Type whose boundary is missing, empty or too long, before any parsing. */
function requireBoundary(contentType: string | undefined): void {
  const match = /;\s*boundary\s*=\s*(?:"([^"]*)"|([^;\s]*))/i.exec(contentType ?? '')
  const boundary = match ? (match[1] ?? match[2]) : undefined
  if (boundary === undefined) throw new MalformedUploadError('The multipart/form-data Content-Type has no boundary parameter')
  if (boundary === '') throw new MalformedUploadError('The multipart/form-data Content-Type has an empty boundary')
  if (boundary.length > MAX_BOUNDARY_LENGTH) throw new MalformedUploadError(`The multipart/form-data boundary is longer than ${MAX_BOUNDARY_LENGTH} characters`)
}

/** A multipart body the parser could not read (cut short, missing its final boundary, damaged part headers). */
class MalformedUploadError extends AppError {
  constructor(message: string) {
    super(400, 'Bad Request', message)
  }
}

/** The parser's own errors carry a 4xx status already (limits, prototype keys); anything else it throws is malformed input. */
function asUploadError(error: unknown): unknown {
  if (error instanceof AppError) return error
  const statusCode = (error as { statusCode?: number }).statusCode
  if (statusCode !== undefined && statusCode >= 400 && statusCode < 500) return error
  const reason = (error as Error).message?.replace(/^Multipart: /, '') || 'it could not be parsed'
  const hint = /unexpected end/i.test(reason) ? ': the body ends before its final boundary' : ''
  return new MalformedUploadError(`The multipart/form-data body is malformed (${reason})${hint}`)
}

/** A file part's bytes, with a parse error met while reading them reported as malformed input. */
function readableFile(file: Readable): Readable {
  return Readable.from(
    (async function* () {
      try {
        for await (const chunk of file) yield chunk as Buffer
      } catch (error) {
        throw asUploadError(error)
      }
    })(),
    { objectMode: false },
  )
}

/**
 * A file name as its owner gave it: browsers and fetch's FormData write a `"` in a multipart file name as %22 (the
 * HTML form-data encoding), which the multipart parser leaves as it is. (Their %0D and %0A stay: no line breaks in names.)
 */
function fileNameAsGiven(name: string): string {
  return name.replace(/%22/g, '"')
}

/** Multipart parts as the upload service reads them; the plugin's file-count error becomes a 413 that says so. */
async function* toUploadParts(parts: AsyncIterableIterator<Multipart>, maxFiles: number): AsyncGenerator<UploadPart> {
  try {
    for await (const part of parts) {
      if (part.type === 'field') yield { kind: 'field', name: part.fieldname, value: String(part.value) }
      else yield { kind: 'file', fileName: fileNameAsGiven(part.filename), declaredType: part.mimetype, stream: readableFile(part.file), isTruncated: () => part.file.truncated }
    }
  } catch (error) {
    if ((error as { code?: string }).code === 'FST_FILES_LIMIT') throw new PayloadTooLargeError(`At most ${maxFiles} files can be uploaded at once`)
    throw asUploadError(error)
  }
}
