import type { Source, SourceMetadata } from '../../../contracts/ask'

type SourceKind = NonNullable<SourceMetadata['kind']>

/** A passage that can be quoted and cited: what an answer's sources are made of. */
export interface CitableChunk {
  chunkId: number
  articleId: number
  title: string
  text: string
  /** Where the article came from (its URL or file name), else its title. */
  source: string
  score: number
  /** The kind of source the article came from (ingest/source-of.ts), when the retriever knows its metadata. */
  kind?: SourceKind
}

export const toSource = (chunk: CitableChunk): Source => ({
  page_content: chunk.text,
  metadata: { source: chunk.source, id: chunk.chunkId, doc_id: chunk.articleId, is_deleted: false, title: chunk.title, score: chunk.score, ...(chunk.kind ? { kind: chunk.kind } : {}) },
})

/**
 * The sources of one answer, numbered in the order they are first cited, so that "[n]" in the text points at
 * the n-th source. Several parts of one answer (an agent's sub-questions or template sections) share one list.
 */
export class CitationList {
  private readonly numbers = new Map<number, number>()
  readonly sources: Source[] = []

  /** The number of a passage in this list, adding it when it is cited for the first time. */
  cite(chunk: CitableChunk): number {
    const known = this.numbers.get(chunk.chunkId)
    if (known !== undefined) return known
    this.sources.push(toSource(chunk))
    this.numbers.set(chunk.chunkId, this.sources.length)
    return this.sources.length
  }

  /** Forgets the sources first cited after the list had `size` of them: a part that failed is taken back. */
  rollback(size: number): void {
    for (const source of this.sources.splice(Math.max(0, size))) this.numbers.delete(source.metadata.id)
  }

  numberOf(chunkId: number): number | undefined {
    return this.numbers.get(chunkId)
  }

  get size(): number {
    return this.sources.length
  }
}
