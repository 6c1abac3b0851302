import { z } from 'zod'
import { AgentVariant } from './agents'

export const QueryShortcut = z.object({ enabled: z.boolean(), query: z.string() })

export const WhoAmI = z.object({
  bot_who_am_i: z.string(),
  query_shortcuts: z
    .array(
      QueryShortcut.extend({
        /** One of the product's own starting suggestions (questions about running this product), not the sponsor's. */
        product_guide: z.boolean().default(false),
      }),
    )
    .length(3),
  /** With target=agent: the agent variants that run, each having an agent named after it in Agent settings. */
  agent_variants: z.array(AgentVariant).optional(),
})
export type WhoAmI = z.infer<typeof WhoAmI>

/**
 * Query of GET /who_am_i: which way of asking the shortcuts are for (SEED.md's modes): `expert` (questions, the bot
 * settings' shortcuts, the default) or `agent` (commands, the agent settings' query_shortcut_N).
 */
export const WhoAmIQuery = z.object({ target: z.enum(['expert', 'agent'], { error: 'target is expert or agent' }).default('expert') })

export const SearchType = z.enum(['keyword', 'vector', 'hybrid', 'mmr'])
/** The answer styles a bot_type may name: `qa` a complete answer, `sms` one short text message. */
export const BotType = z.enum(['qa', 'sms'])
export type BotType = z.infer<typeof BotType>
/** How hybrid search (and MMR's candidates) merge the keyword and vector lists: weighted normalised scores, or RRF. */
export const HybridFusion = z.enum(['weighted', 'rrf'])

/** Bot settings of SEED.md §3. */
export const BotSettings = z.object({
  bot_description: z.string(),
  bot_who_am_i: z.string(),
  num_sources_k: z.number().int().min(1).max(20),
  sms_prompt_text: z.string(),
  bot_type: z.string(),
  bot_prefix: z.string(),
  bot_language: z.string(),
  llm_model: z.string(),
  search_type: SearchType,
  score_threshold: z.number().min(0),
  hybrid_fusion: HybridFusion,
  hybrid_keyword_weight: z.number().min(0).max(1),
  hybrid_vector_weight: z.number().min(0).max(1),
  mmr_lambda: z.number().min(0).max(1),
  template_bot_prefix: z.string(),
  template_bot_description: z.string(),
  template_bot_language: z.string(),
  template_context: z.string(),
  template_query: z.string(),
  semantic_firewall: z.boolean(),
  multiple_model: z.boolean(),
  query_shortcuts: z.array(QueryShortcut).length(3),
})
export type BotSettings = z.infer<typeof BotSettings>

const BooleanLike = z.union([z.boolean(), z.enum(['true', 'false'])]).transform((value) => value === true || value === 'true')
const NumberLike = z.union([z.number(), z.string().trim().min(1)]).pipe(z.coerce.number())

/** Body of PUT /admin/bot_setting: any subset of the fields; 'true'/'false' strings accepted (SEED.md §5). */
export const BotSettingsUpdate = z
  .object({
    bot_description: z.string().max(5000),
    bot_who_am_i: z.string().max(5000),
    num_sources_k: NumberLike.pipe(z.number().int('num_sources_k is a whole number').min(1, 'num_sources_k is at least 1').max(20, 'num_sources_k is at most 20')),
    sms_prompt_text: z.string().max(5000),
    bot_type: z.string().max(100),
    bot_prefix: z.string().max(5000),
    bot_language: z.string().max(100),
    llm_model: z.string().max(200),
    search_type: SearchType,
    score_threshold: NumberLike.pipe(z.number().min(0, 'score_threshold is at least 0')),
    hybrid_fusion: HybridFusion,
    hybrid_keyword_weight: NumberLike.pipe(z.number().min(0, 'hybrid_keyword_weight is from 0 to 1').max(1, 'hybrid_keyword_weight is from 0 to 1')),
    hybrid_vector_weight: NumberLike.pipe(z.number().min(0, 'hybrid_vector_weight is from 0 to 1').max(1, 'hybrid_vector_weight is from 0 to 1')),
    mmr_lambda: NumberLike.pipe(z.number().min(0, 'mmr_lambda is from 0 (most diverse) to 1 (most relevant)').max(1, 'mmr_lambda is from 0 (most diverse) to 1 (most relevant)')),
    template_bot_prefix: z.string().max(5000),
    template_bot_description: z.string().max(5000),
    template_bot_language: z.string().max(100),
    template_context: z.string().max(10000),
    template_query: z.string().max(10000),
    semantic_firewall: BooleanLike,
    multiple_model: BooleanLike,
    query_shortcuts: z.array(z.object({ enabled: BooleanLike, query: z.string().max(500) })).length(3, 'query_shortcuts has exactly three entries'),
  })
  .partial()
  .strict()
export type BotSettingsUpdate = z.infer<typeof BotSettingsUpdate>

export const USE_DEFAULT_MODEL = 'Use default model'

/**
 * llm_models: the choices of llm_model; model_configured: whether a language model is configured (LLM_BASE_URL);
 * embeddings_configured: whether an embeddings model is (EMBEDDINGS_MODEL), which vector, hybrid and MMR search need.
 */
export const BotSettingsAnswer = BotSettings.extend({ llm_models: z.array(z.string()), model_configured: z.boolean(), embeddings_configured: z.boolean() })

export const BotInfo = z.object({
  list_of_docs: z.array(z.string()),
  list_of_docs_length: z.number().int(),
  doc_chunks: z.number().int(),
  excluded_links: z.array(z.string()),
  excluded_links_length: z.number().int(),
  visited_urls: z.array(z.string()),
  visited_urls_length: z.number().int(),
  tube_urls: z.array(z.string()),
  tube_urls_length: z.number().int(),
  errored_urls: z.array(z.string()),
  errored_urls_length: z.number().int(),
})
export type BotInfo = z.infer<typeof BotInfo>

export const AgentTool = z.object({ name: z.string().trim().min(1, 'a tool needs a name').max(100), description: z.string().max(2000) })
/** An agent: its fields as strings; fields ending in _tools are comma-separated tool names (SEED.md §3). */
export const AgentDefinition = z
  .record(z.string().regex(/^[a-z][a-z0-9_]*$/, 'agent field names are snake_case'), z.string().max(10000))
  .refine((agent) => Boolean(agent.name?.trim()), 'an agent needs a name')

export const AgentSettings = z.object({
  llm_model: z.string(),
  max_iteration: z.number().int().min(0),
  toggle_debug: z.boolean(),
  semantic_firewall: z.boolean(),
  query_shortcut_1_query: z.string(),
  query_shortcut_1_enabled: z.boolean(),
  query_shortcut_2_query: z.string(),
  query_shortcut_2_enabled: z.boolean(),
  query_shortcut_3_query: z.string(),
  query_shortcut_3_enabled: z.boolean(),
  tools: z.array(AgentTool),
  agents: z.array(AgentDefinition),
})
export type AgentSettings = z.infer<typeof AgentSettings>

export const AgentSettingsUpdate = z
  .object({
    llm_model: z.string().max(200),
    max_iteration: NumberLike.pipe(z.number().int('max_iteration is a whole number').min(0, 'max_iteration is at least 0').max(50, 'max_iteration is at most 50')),
    toggle_debug: BooleanLike,
    semantic_firewall: BooleanLike,
    query_shortcut_1_query: z.string().max(500),
    query_shortcut_1_enabled: BooleanLike,
    query_shortcut_2_query: z.string().max(500),
    query_shortcut_2_enabled: BooleanLike,
    query_shortcut_3_query: z.string().max(500),
    query_shortcut_3_enabled: BooleanLike,
    tools: z.array(AgentTool).max(50),
    agents: z.array(AgentDefinition).max(20),
  })
  .partial()
  .strict()

export const AgentSettingsAnswer = AgentSettings.extend({ llm_models: z.array(z.string()), model_configured: z.boolean() })

export const GraphNode = z.object({ id: z.string(), label: z.string(), group: z.enum(['start', 'end', 'step', 'agent', 'tool']), title: z.string() })
export const GraphEdge = z.object({ from: z.string(), to: z.string(), label: z.string().optional(), dashes: z.boolean().optional() })
export const WorkflowGraph = z.object({ nodes: z.array(GraphNode), edges: z.array(GraphEdge) })
export type WorkflowGraph = z.infer<typeof WorkflowGraph>
export const WorkflowGraphBody = z.object({ variant: z.enum(['general', 'government']).default('general') }).default({ variant: 'general' })
export const StateFields = z.object({ success: z.literal(true), result: z.array(z.string()) })
