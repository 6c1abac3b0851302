import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import {
  AgentSettingsAnswer,
  AgentSettingsUpdate,
  BotInfo,
  BotSettingsAnswer,
  BotSettingsUpdate,
  StateFields,
  WhoAmI,
  WhoAmIQuery,
  WorkflowGraph,
  WorkflowGraphBody,
} from '../../../../contracts/settings'
import type { SettingsService } from './settings.service'

const tags = ['settings']

export const settingsRoutes =
  (settings: SettingsService): FastifyPluginAsyncZod =>
  async (app) => {
    app.get('/who_am_i', { config: { access: 'user' }, schema: { tags, querystring: WhoAmIQuery, response: { 200: WhoAmI } } }, (request) =>
      settings.whoAmI(request.query.target),
    )

    app.get('/admin/bot_setting', { config: { access: 'admin' }, schema: { tags, response: { 200: BotSettingsAnswer } } }, async () => ({
      ...(await settings.botSettings()),
      llm_models: await settings.modelChoices(),
      model_configured: settings.modelConfigured,
      embeddings_configured: settings.embeddingsConfigured,
    }))

    app.put('/admin/bot_setting', { config: { access: 'admin' }, schema: { tags, body: BotSettingsUpdate, response: { 200: BotSettingsAnswer } } }, async (request) => ({
      ...(await settings.updateBotSettings(request.body)),
      llm_models: await settings.modelChoices(),
      model_configured: settings.modelConfigured,
      embeddings_configured: settings.embeddingsConfigured,
    }))

    app.get('/admin/agent_setting', { config: { access: 'admin' }, schema: { tags, response: { 200: AgentSettingsAnswer } } }, async () => ({
      ...(await settings.agentSettings()),
      llm_models: await settings.modelChoices(),
      model_configured: settings.modelConfigured,
    }))

    app.put('/admin/agent_setting', { config: { access: 'admin' }, schema: { tags, body: AgentSettingsUpdate, response: { 200: AgentSettingsAnswer } } }, async (request) => ({
      ...(await settings.updateAgentSettings(request.body)),
      llm_models: await settings.modelChoices(),
      model_configured: settings.modelConfigured,
    }))

    // The Ask screen shows Bot info to editors and administrators (ADR 100): the crawled, excluded and failed
    // addresses are the curators' to read, not every user's.
    app.get('/admin/bot_info', { config: { access: 'editor' }, schema: { tags, response: { 200: BotInfo } } }, () => settings.botInfo())

    app.get('/admin/vis-network-agent-state-fields', { config: { access: 'admin' }, schema: { tags, response: { 200: StateFields } } }, () => ({
      success: true as const,
      result: settings.stateFields(),
    }))

    app.post('/admin/vis-network', { config: { access: 'admin' }, schema: { tags, body: WorkflowGraphBody, response: { 200: WorkflowGraph } } }, (request) =>
      settings.workflowGraph(request.body.variant),
    )
  }
