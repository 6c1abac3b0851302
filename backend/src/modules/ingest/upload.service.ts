import { randomUUID } from 'node:crypto'
import type { Readable } from 'node:stream'
import { UPLOAD_FIELDS, type DuplicateDocument } from '../../../../contracts/ingest'
import type { Database } from '../../db/database'
import { InvalidInputError, NotFoundError, PayloadTooLargeError, UnsupportedMediaError } from '../../errors'
import { extractDocuments } from '../../ingest/extract-documents'
import { ExtractionError, type DocumentFormat, type ExtractionLimits } from '../../ingest/extracted-document'
import { sniffFormat } from '../../ingest/sniff-format'
import type { CsvColumns } from '../../ingest/text-extractors'
import type { Job, JobContext, JobQueue } from '../../jobs/job-queue'
import { makeUploadKey, type BlobStore, type StoredBlob } from '../../storage/blob-store'
import { articlesRepository } from '../articles/articles.repository'
import { AlreadySettledError, formatBytes, JobInterruptedError, UPLOAD_JOB } from './ingest-job'
import { ingestRepository as repository, type StoredFileRecord, type UploadFileRecord } from './ingest.repository'

/** A part of a multipart upload, as the route hands it over. */
export type UploadPart =
  | { kind: 'field'; name: string; value: string }
  | { kind: 'file'; fileName: string; declaredType: string; stream: Readable; isTruncated: () => boolean }

interface UploadPayload {
  files: UploadFileRecord[]
  csvColumns: CsvColumns
}

interface UploadSummary {
  imported: number
  failed: number
}

export interface UploadOptions {
  maxUploadBytes: number
  extraction: ExtractionLimits
}

/** Uploaded files: checked at the door (size, type), kept as originals, read into drafts by a persisted job. */
export class UploadService {
  constructor(
    private readonly db: Database,
    private readonly jobs: JobQueue,
    private readonly blobs: BlobStore,
    private readonly options: UploadOptions,
    private readonly stopping: AbortSignal,
  ) {
    jobs.register<UploadPayload, UploadSummary>(UPLOAD_JOB, (job, context) => this.runUpload(job, context))
  }

  /**
   * Reads the parts of an upload, refusing the whole upload when one file is too large (413) or of a type we
   * cannot read (415), naming the file; then stores the originals and starts the job that reads them.
   */
  async receive(parts: AsyncIterable<UploadPart>): Promise<Job> {
    const uploadId = randomUUID()
    const accepted: UploadFileRecord[] = []
    const csvColumns: CsvColumns = {}
    try {
      for await (const part of parts) {
        if (part.kind === 'field') {
          if (part.name === UPLOAD_FIELDS.csvTitleColumn && part.value.trim()) csvColumns.titleColumn = part.value.trim()
          if (part.name === UPLOAD_FIELDS.csvContentColumn && part.value.trim()) csvColumns.contentColumn = part.value.trim()
          continue
        }
        const bytes = await readStream(part.stream)
        // A form's empty file input still sends a part, without a name and without bytes.
        if (!part.fileName && bytes.length === 0) continue
        const fileName = part.fileName || 'unnamed file'
        if (part.isTruncated()) {
          throw new PayloadTooLargeError(`${fileName} is larger than the limit of ${formatBytes(this.options.maxUploadBytes)}`, { file_name: fileName })
        }
        if (bytes.length === 0) throw new InvalidInputError('files', `${fileName} is empty`)
        const sniffed = await sniffFormat(bytes, { fileName, declaredType: part.declaredType })
        if (!sniffed.isSupported) {
          throw new UnsupportedMediaError(`${fileName} is ${sniffed.description}, which cannot be imported: upload PDF, DOCX, HTML, Markdown, plain text or CSV`, {
            file_name: fileName,
          })
        }
        const s3Key = makeUploadKey(`${uploadId}-${accepted.length + 1}`, fileName)
        await this.blobs.put(s3Key, bytes, sniffed.contentType)
        accepted.push({ position: accepted.length + 1, fileName, s3Key, format: sniffed.format, contentType: sniffed.contentType, sizeBytes: bytes.length })
      }
    } catch (error) {
      // Nothing of a refused upload is kept.
      await Promise.all(accepted.map((file) => this.blobs.delete(file.s3Key).catch(() => undefined)))
      throw error
    }
    if (accepted.length === 0) throw new InvalidInputError('files', 'Choose at least one file to upload')
    for (const file of accepted) await repository.insertStoredFile(this.db, file)
    const job = await this.jobs.enqueue(UPLOAD_JOB, { files: accepted, csvColumns } satisfies UploadPayload, { total: accepted.length })
    await repository.insertUploadFiles(this.db, job.id, accepted)
    return job
  }

  /** An original by its key, with the name and type it was uploaded with. */
  async download(s3Key: string): Promise<{ file: StoredFileRecord; blob: StoredBlob }> {
    const file = await repository.findStoredFile(this.db, s3Key)
    const blob = file ? await this.blobs.get(s3Key) : undefined
    if (!file || !blob) throw new NotFoundError(`No stored file with s3_key ${s3Key}`)
    return { file, blob }
  }

  private async runUpload(job: Job<UploadPayload, UploadSummary>, context: JobContext<UploadSummary>): Promise<UploadSummary> {
    // The worker may claim the job before the request that created it has recorded its files.
    await repository.insertUploadFiles(this.db, job.id, job.payload.files)
    const total = job.payload.files.length
    const pending = await repository.pendingUploadFiles(this.db, job.id)
    const summary: UploadSummary = job.result ?? { imported: 0, failed: 0 }
    let done = total - pending.length
    for (const file of pending) {
      if (this.stopping.aborted) throw new JobInterruptedError()
      await this.importFile(job.id, file, job.payload.csvColumns, summary)
      done++
      await context.reportProgress(done, total, summary)
    }
    return summary
  }

  /**
   * Reads one file into drafts; the drafts and the file's outcome are written in one transaction. A document already in
   * the knowledge base (the same title and content as a draft or an article, ADR 311) makes no draft: the file's outcome
   * names what it matched.
   */
  private async importFile(jobId: string, file: UploadFileRecord, csvColumns: CsvColumns, summary: UploadSummary): Promise<void> {
    const bytes = await this.blobs.read(file.s3Key)
    let documents
    try {
      if (!bytes) throw new ExtractionError('The stored original is missing')
      documents = await extractDocuments(bytes, file.format as DocumentFormat, file.fileName, this.options.extraction, csvColumns)
    } catch (error) {
      const message = error instanceof ExtractionError ? error.message : `The file could not be read: ${(error as Error).message}`
      if (await repository.settleUploadFile(this.db, jobId, file.position, { error: message })) summary.failed++
      return
    }
    try {
      await this.db.transaction(async (tx) => {
        await repository.lockIdentityCheck(tx)
        const draftIds: number[] = []
        const duplicates: DuplicateDocument[] = []
        for (const [index, document] of documents.entries()) {
          const row = documents.length > 1 ? index + 1 : null
          // Rows of this file saved just before count too: a row repeated in a CSV makes one draft.
          const match = await repository.findIdenticalDocument(tx, { titles: [document.title], content: document.content })
          if (match) {
            duplicates.push({ row, duplicate_of: match })
            continue
          }
          const metadata = {
            source: file.fileName,
            file_name: file.fileName,
            s3_key: file.s3Key,
            content_type: file.contentType,
            format: file.format,
            ingest_task_id: jobId,
            ...(row ? { row } : {}),
          }
          draftIds.push(await articlesRepository.insertDraft(tx, { title: document.title, content: document.content, metadata }))
        }
        if (!(await repository.settleUploadFile(tx, jobId, file.position, { draftIds, duplicates }))) throw new AlreadySettledError()
      })
      summary.imported++
    } catch (error) {
      if (!(error instanceof AlreadySettledError)) throw error
    }
  }
}

async function readStream(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const chunk of stream) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}
