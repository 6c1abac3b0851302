import type { AgentSettings, BotSettings } from '../../../../contracts/settings'

/** What a new installation starts with; every field can be changed in Settings. */
export const defaultBotSettings: BotSettings = {
  bot_description: 'A knowledge-base assistant that answers from your published articles and cites its sources.',
  bot_who_am_i:
    "I'm the knowledge-base assistant. Ask me anything about the articles in this knowledge base: I answer from them and show my sources.",
  num_sources_k: 4,
  sms_prompt_text: '',
  bot_type: 'qa',
  bot_prefix: '',
  bot_language: 'English',
  llm_model: 'Use default model',
  search_type: 'keyword',
  score_threshold: 0,
  // Hybrid search and MMR (ADR 086): equal say for both lists, and MMR leaning to relevance.
  hybrid_fusion: 'weighted',
  hybrid_keyword_weight: 0.5,
  hybrid_vector_weight: 0.5,
  mmr_lambda: 0.7,
  template_bot_prefix: '',
  template_bot_description: '',
  template_bot_language: '',
  template_context: '',
  template_query: '',
  semantic_firewall: false,
  multiple_model: false,
  query_shortcuts: [
    { enabled: true, query: 'How do I add an article?' },
    { enabled: true, query: 'What does the assistant do when it cannot find an answer?' },
    { enabled: true, query: 'How do I publish drafts?' },
  ],
}

/** The starting suggestions are about running this product: GET /who_am_i marks them so end users are not offered them. */
export const PRODUCT_GUIDE_QUERIES: ReadonlySet<string> = new Set(defaultBotSettings.query_shortcuts.map((shortcut) => shortcut.query))

/** The agents' starting configuration: the four built-in tools and the two agents of SEED.md. */
export const defaultAgentSettings: AgentSettings = {
  llm_model: 'Use default model',
  max_iteration: 0,
  toggle_debug: false,
  semantic_firewall: false,
  query_shortcut_1_query: 'Summarise what the knowledge base says about publishing drafts',
  query_shortcut_1_enabled: true,
  query_shortcut_2_query: 'Which settings change how answers are found?',
  query_shortcut_2_enabled: true,
  query_shortcut_3_query: '',
  query_shortcut_3_enabled: false,
  tools: [
    { name: 'knowledge_search', description: 'Searches the published articles (BM25) and returns the best passages with their sources.' },
    { name: 'article_lookup', description: 'Finds a published article by its title and returns its content.' },
    { name: 'date_time', description: 'Tells the current date and time in the asker’s time zone.' },
    { name: 'arithmetic', description: 'Evaluates an arithmetic expression exactly (+ − × ÷, parentheses, percentages).' },
  ],
  agents: [
    {
      name: 'general',
      description: 'Answers a command from the knowledge base, step by step, with sources.',
      instructions: 'Split the command into questions, find evidence for each in the knowledge base, and answer only from it.',
      general_tools: 'knowledge_search, article_lookup, date_time, arithmetic',
    },
    {
      name: 'government',
      description: 'Fills a chosen template section by section from the knowledge base, each section with its sources.',
      instructions: 'Follow the template’s sections in order; for each, gather evidence and write only what the sources support.',
      government_tools: 'knowledge_search, article_lookup, date_time',
    },
  ],
}
