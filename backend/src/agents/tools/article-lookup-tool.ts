import type { CitableChunk } from '../../answering/citations'
import type { AgentTool } from './agent-tool'
import { describePassages } from './knowledge-search-tool'

/** Finds the published article whose title matches best, and returns up to `limit` of its passages in order. */
export type FindArticleByTitle = (title: string, limit: number) => Promise<CitableChunk[]>

// A title is named in quotes ("…", “…”, '…') or after "article titled/called/named".
const DOUBLE_QUOTED = /["“”«»]([^"“”«»]{3,200})["“”«»]/
const SINGLE_QUOTED = /(?:^|[\s(])['‘]([^'‘’]{3,200})['’](?=[\s?.!,;:)]|$)/
const NAMED_TITLE = /\b(?:article|page|guide)\s+(?:titled|called|named)\s+(.{3,200}?)\s*(?:[?.!,;]|$)/i

/** The article title a question names, if it names one. */
export function findNamedTitle(question: string): string | undefined {
  const match = DOUBLE_QUOTED.exec(question) ?? SINGLE_QUOTED.exec(question) ?? NAMED_TITLE.exec(question)
  return match?.[1].trim() || undefined
}

/** article_lookup: reads a published article named by its title. */
export function createArticleLookupTool(findArticle: FindArticleByTitle): AgentTool {
  return {
    name: 'article_lookup',
    kind: 'knowledge',
    inputFor: findNamedTitle,
    async run(title, context) {
      const chunks = await findArticle(title, context.limit)
      return { chunks, statement: null, summary: chunks.length ? describePassages(chunks) : `No published article is titled like “${title}”` }
    },
  }
}
