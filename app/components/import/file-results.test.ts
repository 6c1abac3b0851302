import { describe, expect, it } from 'vitest'
import type { IngestFileResult, IngestProgress } from '../../../contracts/ingest'
import { describeFileResult, filesForScreen, LISTED_DUPLICATES } from './file-results'

const file = (changes: Partial<IngestFileResult>): IngestFileResult => ({
  file_name: 'jobs.csv',
  s3_key: 'uploads/1/jobs.csv',
  content_type: 'text/csv',
  size_bytes: 120,
  status: 'imported',
  draft_ids: [],
  error: null,
  duplicates: [],
  ...changes,
})
const sameAs = (row: number | null, id: number) => ({ row, duplicate_of: { kind: 'draft' as const, id, title: `Job ${id}` } })
const onScreen = (result: IngestFileResult) => filesForScreen({ files: [result] } as IngestProgress)[0]

describe('an uploaded file’s result on the import screen', () => {
  it('says imported, waiting or failed as before when nothing was already there', () => {
    expect(describeFileResult(onScreen(file({ draft_ids: [4] })))).toBe('Imported')
    expect(describeFileResult(onScreen(file({ status: 'pending', duplicates: null })))).toBe('Waiting')
    expect(describeFileResult(onScreen(file({ status: 'failed', error: 'Not a readable PDF', duplicates: null })))).toBe('Failed: Not a readable PDF')
  })

  it('says a file of one document was already in the knowledge base', () => {
    expect(describeFileResult(onScreen(file({ duplicates: [sameAs(null, 12)] })))).toBe('Already in the knowledge base')
  })

  it('counts the rows of a CSV already there beside those imported', () => {
    expect(describeFileResult(onScreen(file({ draft_ids: [20], duplicates: [sameAs(1, 7), sameAs(3, 9)] })))).toBe(
      'Imported 1 of 3 rows; 2 already in the knowledge base',
    )
    expect(describeFileResult(onScreen(file({ duplicates: [sameAs(1, 7), sameAs(2, 8)] })))).toBe('Already in the knowledge base: all 2 rows')
  })

  it('keeps the first matches of a long CSV for the screen, counting them all', () => {
    const duplicates = Array.from({ length: 25 }, (_, index) => sameAs(index + 1, index + 100))
    const shown = onScreen(file({ duplicates }))
    expect(shown.duplicates).toEqual(duplicates.slice(0, LISTED_DUPLICATES))
    expect(shown.duplicate_count).toBe(25)
    expect(describeFileResult(shown)).toBe('Already in the knowledge base: all 25 rows')
  })
})
