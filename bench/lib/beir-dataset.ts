import { createReadStream, existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { createInterface } from 'node:readline'
import type { Judgements } from './metrics'

export interface CorpusDocument {
  id: string
  title: string
  text: string
}

export interface BenchmarkQuery {
  id: string
  text: string
  /** Gold answers of a SQuAD-style query, when the dataset has them. */
  answers?: string[]
}

export interface BeirDataset {
  name: string
  directory: string
  split: string
  corpus: CorpusDocument[]
  /** Only the queries judged in qrels/<split>.tsv, in file order. */
  queries: BenchmarkQuery[]
  qrels: Map<string, Map<string, number>>
  /** Questions none of the documents answers (the optional unanswerable.jsonl): each should get the not-found answer. */
  unanswerable: string[]
}

async function readJsonLines(file: string): Promise<Record<string, unknown>[]> {
  const rows: Record<string, unknown>[] = []
  const lines = createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity })
  for await (const line of lines) {
    if (line.trim() !== '') rows.push(JSON.parse(line) as Record<string, unknown>)
  }
  return rows
}

/** SQuAD keeps answers as { text: [...] } or a list of strings or of { text } objects; BEIR variants differ. */
function readAnswers(value: unknown): string[] | undefined {
  const list = Array.isArray(value) ? value : typeof value === 'object' && value !== null ? (value as { text?: unknown }).text : value
  if (typeof list === 'string') return [list]
  if (!Array.isArray(list)) return undefined
  const answers = list.flatMap((entry) => (typeof entry === 'string' ? [entry] : typeof entry?.text === 'string' ? [entry.text as string] : []))
  return answers.length > 0 ? answers : undefined
}

/** Reads qrels/<split>.tsv (query-id, corpus-id, score, with or without a header). */
function readQrels(file: string): Map<string, Map<string, number>> {
  const qrels = new Map<string, Map<string, number>>()
  for (const line of readFileSync(file, 'utf8').split(/\r?\n/)) {
    const [queryId, documentId, grade] = line.split('\t')
    if (!queryId || !documentId || grade === undefined || !/^-?\d+$/.test(grade.trim())) continue
    let judgements = qrels.get(queryId)
    if (!judgements) {
      judgements = new Map()
      qrels.set(queryId, judgements)
    }
    judgements.set(documentId, Number(grade))
  }
  return qrels
}

/**
 * Loads a BEIR-format folder: corpus.jsonl, queries.<split>.jsonl or queries.jsonl, qrels/<split>.tsv, and the
 * optional unanswerable.jsonl (`{"_id", "text"}` per line).
 */
export async function loadBeirDataset(directory: string, split: string): Promise<BeirDataset> {
  const corpusFile = path.join(directory, 'corpus.jsonl')
  const qrelsFile = path.join(directory, 'qrels', `${split}.tsv`)
  const splitQueries = path.join(directory, `queries.${split}.jsonl`)
  const queriesFile = existsSync(splitQueries) ? splitQueries : path.join(directory, 'queries.jsonl')
  for (const file of [corpusFile, qrelsFile, queriesFile]) {
    if (!existsSync(file)) throw new Error(`${file} is missing: a BEIR folder has corpus.jsonl, queries.jsonl and qrels/${split}.tsv`)
  }
  const corpus = (await readJsonLines(corpusFile)).map((row) => ({
    id: String(row._id),
    title: typeof row.title === 'string' ? row.title : '',
    text: typeof row.text === 'string' ? row.text : '',
  }))
  const qrels = readQrels(qrelsFile)
  const queries = (await readJsonLines(queriesFile))
    .map((row) => ({ id: String(row._id), text: String(row.text ?? ''), answers: readAnswers(row.answers) }))
    .filter((query) => qrels.has(query.id))
  // Judgements of queries missing from the queries file cannot be scored fairly.
  const queryIds = new Set(queries.map((query) => query.id))
  for (const queryId of [...qrels.keys()]) if (!queryIds.has(queryId)) qrels.delete(queryId)
  const unanswerableFile = path.join(directory, 'unanswerable.jsonl')
  const unanswerable = existsSync(unanswerableFile)
    ? (await readJsonLines(unanswerableFile)).map((row) => String(row.text ?? '')).filter((question) => question.trim() !== '')
    : []
  return { name: path.basename(path.resolve(directory)), directory, split, corpus, queries, qrels, unanswerable }
}
