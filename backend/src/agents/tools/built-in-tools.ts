import type { Retriever } from '../../answering/retriever'
import type { AgentTool } from './agent-tool'
import { createArithmeticTool } from './arithmetic-tool'
import { createArticleLookupTool, type FindArticleByTitle } from './article-lookup-tool'
import { createDateTimeTool } from './date-time-tool'
import { createKnowledgeSearchTool } from './knowledge-search-tool'

/** The four tools of the default Agent settings, implemented without an LLM. */
export function createBuiltInTools(dependencies: { retriever: Pick<Retriever, 'retrieve'>; findArticle: FindArticleByTitle }): AgentTool[] {
  return [createKnowledgeSearchTool(dependencies.retriever), createArticleLookupTool(dependencies.findArticle), createDateTimeTool(), createArithmeticTool()]
}
