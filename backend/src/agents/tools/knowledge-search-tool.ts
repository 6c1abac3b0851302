import { toCitableChunk } from '../../modules/ask/cited-answer'
import type { KnowledgeService } from '../../modules/knowledge/knowledge.service'
import { tokenize } from '../../retrieval/text'
import type { AgentTool } from './agent-tool'

/** Lists the distinct titles of passages, for a one-line trace. */
export const describePassages = (chunks: { title: string }[]) =>
  `${chunks.length} passage${chunks.length === 1 ? '' : 's'} from ${[...new Set(chunks.map((chunk) => `“${chunk.title}”`))].join(', ')}`

/** knowledge_search: the BM25 search of the published articles, the agents' main source of evidence. */
export function createKnowledgeSearchTool(knowledge: Pick<KnowledgeService, 'search'>): AgentTool {
  return {
    name: 'knowledge_search',
    kind: 'knowledge',
    // Any question with a searchable word can be searched for.
    inputFor: (question) => (tokenize(question).length > 0 ? question : undefined),
    async run(input, context) {
      const found = (await knowledge.search(input, context.limit)).filter((chunk) => chunk.score >= context.scoreThreshold).map(toCitableChunk)
      return { chunks: found, statement: null, summary: found.length ? describePassages(found) : 'No published passage matches' }
    },
  }
}
