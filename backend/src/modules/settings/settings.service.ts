import { AgentSettings, BotSettings, USE_DEFAULT_MODEL, type BotInfo, type BotSettingsUpdate, type WhoAmI } from '../../../../contracts/settings'
import { AGENT_STATE_FIELDS, HIDDEN_STATE_FIELDS, buildWorkflowGraph, runnableVariantsOf, type WorkflowVariant } from '../../agents/workflow-definition'
import type { Database, Queryable } from '../../db/database'
import { InvalidInputError } from '../../errors'
import { promptSettingProblems } from '../../answering/prompt'
import { PRODUCT_GUIDE_QUERIES, defaultAgentSettings, defaultBotSettings } from './settings.defaults'

/** Crawled and transcribed URLs for Bot info; supplied by ingestion when it is present. */
export type UrlListsSource = () => Promise<{ visited_urls: string[]; excluded_links: string[]; errored_urls: string[]; tube_urls: string[] }>

const noUrlLists: UrlListsSource = async () => ({ visited_urls: [], excluded_links: [], errored_urls: [], tube_urls: [] })

export interface SettingsOptions {
  /** The configured embedding model (EMBEDDINGS_MODEL); without one, only keyword search can be chosen. */
  embeddingsModel?: string
  /** The configured language model (LLM_BASE_URL): its models are the choices of llm_model. Without one, none is. */
  llm?: { listModels(): Promise<string[]>; unavailableModels?(): Promise<{ missing: string[] } | undefined> }
}

/** Search types that compare vectors, and so need an embeddings model. */
const VECTOR_SEARCH_TYPES: ReadonlySet<BotSettings['search_type']> = new Set(['vector', 'hybrid', 'mmr'])

/**
 * How long Bot settings read from the database are reused. A change made through this process applies at once; one
 * made through another process on the same database (scale-out) applies within this time.
 */
export const BOT_SETTINGS_CACHE_MS = 1000

/** The assistant's and the agents' settings, each stored as one row; missing fields take their defaults. */
export class SettingsService {
  /** Bot settings as last read, and when: every question needs them, so they are not read for each one. */
  private cachedBotSettings: { settings: BotSettings; readAt: number } | undefined
  private readingBotSettings: Promise<BotSettings> | undefined
  /** Counts this process's writes of Bot settings: a read that started before one is not cached. */
  private botSettingsWrites = 0

  constructor(
    private readonly db: Database,
    private readonly llmModels: string[] = [],
    private readonly urlLists: UrlListsSource = noUrlLists,
    private readonly options: SettingsOptions = {},
  ) {}

  /** Whether a language model is configured: without one, answers quote the sources and the model settings wait. */
  get modelConfigured(): boolean {
    return this.options.llm !== undefined
  }

  /** Whether an embeddings model is configured: without one, only keyword search can be chosen. */
  get embeddingsConfigured(): boolean {
    return Boolean(this.options.embeddingsModel)
  }

  /**
   * SEED.md: the model list starts with 'Use default model'; the rest are LLM_MODELS, or else the models the endpoint
   * lists. An LLM_MODELS entry the endpoint's list lacks (a misspelt name) is not offered: every answer with it would
   * quote the sources. An endpoint that cannot be reached leaves LLM_MODELS (or nothing) beside the default.
   */
  async modelChoices(): Promise<string[]> {
    let models = this.llmModels
    if (this.options.llm) {
      try {
        models = await this.options.llm.listModels()
      } catch {
        models = this.llmModels
      }
      const missing: string[] =
        (await this.options.llm.unavailableModels?.().then(
          (found) => found?.missing ?? [],
          () => [],
        )) ?? []
      if (missing.length > 0) models = models.filter((model) => !missing.includes(model))
    }
    return [USE_DEFAULT_MODEL, ...models.filter((model) => model !== USE_DEFAULT_MODEL)]
  }

  private async checkModelChoice(model: string | undefined, stored: string): Promise<void> {
    // The stored choice stays acceptable (the endpoint may be down, or no longer list it): saving other fields works.
    if (model === undefined || model === stored) return
    const choices = await this.modelChoices()
    if (choices.includes(model)) return
    const why = this.modelConfigured ? `choose one of: ${choices.join(', ')}` : 'no language model is configured (LLM_BASE_URL), so only the default can be chosen'
    throw new InvalidInputError('llm_model', `Unknown model "${model}"; ${why}`)
  }

  /** Bot settings, as read at most BOT_SETTINGS_CACHE_MS ago (concurrent callers share one read). */
  async botSettings(): Promise<BotSettings> {
    const cached = this.cachedBotSettings
    if (cached && performance.now() - cached.readAt < BOT_SETTINGS_CACHE_MS) return cached.settings
    if (this.readingBotSettings) return this.readingBotSettings
    const writes = this.botSettingsWrites
    const readAt = performance.now()
    const reading = this.readBotSettings().finally(() => {
      if (this.readingBotSettings === reading) this.readingBotSettings = undefined
    })
    this.readingBotSettings = reading
    const settings = await reading
    if (writes === this.botSettingsWrites) this.cachedBotSettings = { settings, readAt }
    return settings
  }

  private async readBotSettings(): Promise<BotSettings> {
    const [row] = await this.db.query<{ settings: Partial<BotSettings> }>(`SELECT settings FROM bot_settings WHERE id = 1`)
    const merged = BotSettings.safeParse({ ...defaultBotSettings, ...row?.settings })
    return merged.success ? merged.data : defaultBotSettings
  }

  async updateBotSettings(update: BotSettingsUpdate): Promise<BotSettings> {
    // Checked against what is stored before the row is locked: the model list may come from the endpoint.
    await this.checkModelChoice(update.llm_model, (await this.readBotSettings()).llm_model)
    // Prompt templates must keep their placeholder, and bot_type must name an answer style.
    const [problem] = promptSettingProblems(update)
    if (problem) throw new InvalidInputError(problem.field, problem.message)
    const normalised = update.bot_type === undefined ? update : { ...update, bot_type: update.bot_type.trim().toLowerCase() }
    // What is stored now, not a cached copy, is merged with the update under the row's lock: two administrators
    // (in one process or two) saving different fields at once both keep theirs.
    const next = await this.db.transaction(async (tx) => {
      const stored = await lockedSettings<BotSettings>(tx, 'bot_settings')
      const parsed = BotSettings.safeParse({ ...defaultBotSettings, ...stored })
      const next = BotSettings.parse({ ...(parsed.success ? parsed.data : defaultBotSettings), ...normalised })
      const searchProblem = this.searchSettingProblem(update, next)
      if (searchProblem) throw new InvalidInputError(searchProblem.field, searchProblem.message)
      await tx.query(`UPDATE bot_settings SET settings = $1::jsonb, updated_at = now() WHERE id = 1`, [JSON.stringify(next)])
      return next
    })
    this.botSettingsWrites++
    this.cachedBotSettings = undefined
    this.readingBotSettings = undefined
    return next
  }

  /**
   * Refuses search settings that could not work: a vector search type without an embeddings model, a threshold
   * above the 0-to-1 scores of vector, hybrid and MMR search, and hybrid weights that are both 0. Only what the
   * update touches is judged, so a setting stored before the configuration changed does not block other changes.
   */
  private searchSettingProblem(update: BotSettingsUpdate, next: BotSettings): { field: string; message: string } | undefined {
    const isVectorType = VECTOR_SEARCH_TYPES.has(next.search_type)
    if (update.search_type !== undefined && isVectorType && !this.options.embeddingsModel) {
      return {
        field: 'search_type',
        message: `${next.search_type} search compares embeddings, and no embeddings model is configured: set EMBEDDINGS_MODEL (with EMBEDDINGS_BASE_URL, or LLM_BASE_URL) for the backend, or choose keyword search`,
      }
    }
    if ((update.search_type !== undefined || update.score_threshold !== undefined) && isVectorType && next.score_threshold > 1) {
      return {
        field: 'score_threshold',
        message: `${next.search_type} search scores passages from 0 to 1, so a score_threshold of ${next.score_threshold} would leave none: choose 1 or less`,
      }
    }
    if ((update.hybrid_keyword_weight !== undefined || update.hybrid_vector_weight !== undefined) && next.hybrid_keyword_weight + next.hybrid_vector_weight === 0) {
      return { field: update.hybrid_vector_weight !== undefined ? 'hybrid_vector_weight' : 'hybrid_keyword_weight', message: 'hybrid_keyword_weight and hybrid_vector_weight cannot both be 0' }
    }
    return undefined
  }

  /** Who the bot says it is, with the shortcuts of questions (`expert`) or of agent commands (`agent`). */
  async whoAmI(target: 'expert' | 'agent' = 'expert'): Promise<WhoAmI> {
    const settings = await this.botSettings()
    if (target === 'expert') {
      return {
        bot_who_am_i: settings.bot_who_am_i,
        query_shortcuts: settings.query_shortcuts.map((shortcut) => ({ ...shortcut, product_guide: PRODUCT_GUIDE_QUERIES.has(shortcut.query.trim()) })),
      }
    }
    const agent = await this.agentSettings()
    return {
      bot_who_am_i: settings.bot_who_am_i,
      query_shortcuts: ([1, 2, 3] as const).map((n) => ({ enabled: agent[`query_shortcut_${n}_enabled`], query: agent[`query_shortcut_${n}_query`], product_guide: false })),
      agent_variants: runnableVariantsOf(agent),
    }
  }

  async agentSettings(): Promise<AgentSettings> {
    const [row] = await this.db.query<{ settings: Partial<AgentSettings> }>(`SELECT settings FROM agent_settings WHERE id = 1`)
    const merged = AgentSettings.safeParse({ ...defaultAgentSettings, ...row?.settings })
    return merged.success ? merged.data : defaultAgentSettings
  }

  async updateAgentSettings(update: Partial<AgentSettings>): Promise<AgentSettings> {
    await this.checkModelChoice(update.llm_model, (await this.agentSettings()).llm_model)
    // Merged with what is stored under the row's lock, as bot settings are.
    return this.db.transaction(async (tx) => {
      const stored = await lockedSettings<AgentSettings>(tx, 'agent_settings')
      const parsed = AgentSettings.safeParse({ ...defaultAgentSettings, ...stored })
      const next = AgentSettings.parse({ ...(parsed.success ? parsed.data : defaultAgentSettings), ...update })
      const toolNames = new Set(next.tools.map((tool) => tool.name))
      for (const agent of next.agents) {
        for (const [field, value] of Object.entries(agent).filter(([key]) => key.endsWith('_tools'))) {
          const unknown = value.split(',').map((name) => name.trim()).filter((name) => name && !toolNames.has(name))
          if (unknown.length) throw new InvalidInputError(`agents.${agent.name}.${field}`, `Unknown tool ${unknown.join(', ')}`)
        }
      }
      await tx.query(`UPDATE agent_settings SET settings = $1::jsonb, updated_at = now() WHERE id = 1`, [JSON.stringify(next)])
      return next
    })
  }

  stateFields(): string[] {
    return AGENT_STATE_FIELDS.filter((field) => !HIDDEN_STATE_FIELDS.includes(field))
  }

  async workflowGraph(variant: WorkflowVariant) {
    return buildWorkflowGraph(variant, await this.agentSettings())
  }

  async botInfo(): Promise<BotInfo> {
    const titles = await this.db.query<{ title: string }>(`SELECT title FROM articles ORDER BY id`)
    const [chunks] = await this.db.query<{ count: number }>(`SELECT COUNT(*)::int AS count FROM chunks`)
    const lists = await this.urlLists()
    const listOfDocs = titles.map((row) => row.title)
    return {
      list_of_docs: listOfDocs,
      list_of_docs_length: listOfDocs.length,
      doc_chunks: chunks.count,
      excluded_links: lists.excluded_links,
      excluded_links_length: lists.excluded_links.length,
      visited_urls: lists.visited_urls,
      visited_urls_length: lists.visited_urls.length,
      tube_urls: lists.tube_urls,
      tube_urls_length: lists.tube_urls.length,
      errored_urls: lists.errored_urls,
      errored_urls_length: lists.errored_urls.length,
    }
  }
}

/**
 * The stored settings of a one-row settings table, its row locked until `tx` ends (made first, empty, if missing), so
 * that a read-merge-write in `tx` waits for any other one in flight and merges into its result.
 */
async function lockedSettings<T>(tx: Queryable, table: 'bot_settings' | 'agent_settings'): Promise<Partial<T> | undefined> {
  await tx.query(`INSERT INTO ${table} (id, settings) VALUES (1, '{}'::jsonb) ON CONFLICT (id) DO NOTHING`)
  const [row] = await tx.query<{ settings: Partial<T> }>(`SELECT settings FROM ${table} WHERE id = 1 FOR UPDATE`)
  return row?.settings
}
