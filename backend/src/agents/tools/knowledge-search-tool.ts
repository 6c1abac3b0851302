import type { Retriever } from '../../answering/retriever'
import { tokenize } from '../../retrieval/text'
import type { AgentTool } from './agent-tool'

/** Lists the distinct titles of passages, for a one-line trace. */
export const describePassages = (chunks: { title: string }[]) =>
  `${chunks.length} passage${chunks.length === 1 ? '' : 's'} from ${[...new Set(chunks.map((chunk) => `“${chunk.title}”`))].join(', ')}`

/** knowledge_search: the retriever's search of the published articles, the agents' main source of evidence. */
export function createKnowledgeSearchTool(retriever: Pick<Retriever, 'retrieve'>): AgentTool {
  return {
    name: 'knowledge_search',
    kind: 'knowledge',
    // Any question with a searchable word can be searched for.
    inputFor: (question) => (tokenize(question).length > 0 ? question : undefined),
    async run(input, context) {
      const found = await retriever.retrieve(input, { limit: context.limit, scoreThreshold: context.scoreThreshold })
      return { chunks: found, statement: null, summary: found.length ? describePassages(found) : 'No published passage matches' }
    },
  }
}
