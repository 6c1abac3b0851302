import type { KnowledgeMatch } from '../../../../contracts/ingest'

/** Thrown by an ingestion job when the backend stops: the job goes back to the queue and resumes from its tables. */
export class JobInterruptedError extends Error {
  override readonly name = 'JobInterruptedError'
  constructor() {
    super('Interrupted because the backend stopped; the job resumes where it left off')
  }
}

/** Thrown inside a transaction to roll it back when another attempt already settled the same item. */
export class AlreadySettledError extends Error {
  override readonly name = 'AlreadySettledError'
}

/** Why a crawled page or a video made no draft when it was already in the knowledge base: `Already in the knowledge base: draft 12 "Frost dates"`. */
export function alreadyThereReason(match: KnowledgeMatch): string {
  return `Already in the knowledge base: ${match.kind} ${match.id} "${match.title}"`
}

export const UPLOAD_JOB = 'ingest_upload'
export const CRAWL_JOB = 'ingest_crawl'

export { formatBytes } from '../../ingest/extracted-document'
