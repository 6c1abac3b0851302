import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { loadBeirDataset } from './beir-dataset'

const made: string[] = []
afterEach(() => {
  for (const directory of made.splice(0)) rmSync(directory, { recursive: true, force: true })
})

/** A BEIR folder of two documents and one judged question with its answer, and what else is given. */
function folder(extra: Record<string, string> = {}): string {
  const directory = mkdtempSync(path.join(tmpdir(), 'beir-'))
  made.push(directory)
  mkdirSync(path.join(directory, 'qrels'))
  writeFileSync(path.join(directory, 'corpus.jsonl'), '{"_id":"a","title":"Basil","text":"Basil needs six hours of light."}\n{"_id":"b","title":"Mint","text":"Mint spreads."}\n')
  writeFileSync(path.join(directory, 'queries.jsonl'), '{"_id":"q1","text":"How much light does basil need?","answers":["six hours"]}\n')
  writeFileSync(path.join(directory, 'qrels', 'test.tsv'), 'query-id\tcorpus-id\tscore\nq1\ta\t1\n')
  for (const [name, text] of Object.entries(extra)) writeFileSync(path.join(directory, name), text)
  return directory
}

describe('loadBeirDataset', () => {
  it('reads the questions no document answers from unanswerable.jsonl, skipping blank lines and empty questions', async () => {
    const dataset = await loadBeirDataset(folder({ 'unanswerable.jsonl': '{"_id":"u1","text":"How much does it cost?"}\n\n{"_id":"u2","text":"  "}\n{"_id":"u3","text":"Is there a Slack app?"}\n' }), 'test')
    expect(dataset.unanswerable).toEqual(['How much does it cost?', 'Is there a Slack app?'])
    expect(dataset.queries.map((query) => query.answers)).toEqual([['six hours']])
  })

  it('has none without the file', async () => {
    expect((await loadBeirDataset(folder(), 'test')).unanswerable).toEqual([])
  })

  it('reads the guide fixture of new questions whole', async () => {
    const dataset = await loadBeirDataset(path.join(import.meta.dirname, '..', 'fixtures', 'kb-guide-fresh'), 'test')
    expect(dataset.queries).toHaveLength(145)
    expect(dataset.queries.every((query) => (query.answers?.length ?? 0) > 0 && dataset.qrels.has(query.id))).toBe(true)
    expect(dataset.unanswerable).toHaveLength(27)
  })
})
