import type { DuplicateDocument, IngestFileResult, IngestProgress } from '../../../contracts/ingest'

/** How many of a file's documents already in the knowledge base the screen names; the rest are counted. */
export const LISTED_DUPLICATES = 10

/** An uploaded file as the import screen shows it: its first duplicates named, all of them counted. */
export type FileOnScreen = Omit<IngestFileResult, 'duplicates'> & { duplicates: DuplicateDocument[]; duplicate_count: number }

/** Keeps what the screen shows of each file: a CSV of thousands of rows already imported sends ten of them, not all. */
export function filesForScreen(progress: IngestProgress): FileOnScreen[] {
  return progress.files.map((file) => ({
    ...file,
    duplicates: (file.duplicates ?? []).slice(0, LISTED_DUPLICATES),
    duplicate_count: file.duplicates?.length ?? 0,
  }))
}

const FILE_STATUS: Record<IngestFileResult['status'], string> = { pending: 'Waiting', imported: 'Imported', failed: 'Failed' }

/** An uploaded file's result in words: imported, failed and why, or (partly) already in the knowledge base. */
export function describeFileResult(file: Pick<FileOnScreen, 'status' | 'error' | 'draft_ids' | 'duplicates' | 'duplicate_count'>): string {
  if (file.status === 'failed') return `Failed: ${file.error}`
  const already = file.duplicate_count
  if (file.status !== 'imported' || already === 0) return FILE_STATUS[file.status]
  const made = file.draft_ids.length
  const isRows = file.duplicates.some((duplicate) => duplicate.row !== null)
  if (made === 0) return already === 1 && !isRows ? 'Already in the knowledge base' : `Already in the knowledge base: all ${already} ${isRows ? 'rows' : 'documents'}`
  return `Imported ${made} of ${made + already} ${isRows ? 'rows' : 'documents'}; ${already} already in the knowledge base`
}
