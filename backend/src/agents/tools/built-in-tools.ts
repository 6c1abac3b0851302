import type { KnowledgeService } from '../../modules/knowledge/knowledge.service'
import type { AgentTool } from './agent-tool'
import { createArithmeticTool } from './arithmetic-tool'
import { createArticleLookupTool, type FindArticleByTitle } from './article-lookup-tool'
import { createDateTimeTool } from './date-time-tool'
import { createKnowledgeSearchTool } from './knowledge-search-tool'

/** The four tools of the default Agent settings, implemented without an LLM. */
export function createBuiltInTools(dependencies: { knowledge: Pick<KnowledgeService, 'search'>; findArticle: FindArticleByTitle }): AgentTool[] {
  return [createKnowledgeSearchTool(dependencies.knowledge), createArticleLookupTool(dependencies.findArticle), createDateTimeTool(), createArithmeticTool()]
}
