import { expect, it } from 'vitest'
import { forEachStorage } from '../../testing/test-backend'

forEachStorage('settings, bot info and the workflow graph', ({ server }) => {
  it('reads the bot settings with the model list, default model first', async () => {
    const response = await server().call('/admin/bot_setting')
    expect(response.status).toBe(200)
    expect(response.body).toMatchObject({ num_sources_k: 4, search_type: 'keyword', semantic_firewall: false })
    // No language model is configured here: the default is the only choice, and the answer says why.
    expect(response.body).toMatchObject({ llm_models: ['Use default model'], model_configured: false, embeddings_configured: false })
    const agents = await server().call('/admin/agent_setting')
    expect(agents.body).toMatchObject({ llm_models: ['Use default model'], model_configured: false })
    const refused = await server().call('/admin/bot_setting', { method: 'PUT', body: { llm_model: 'gpt-4o' } })
    expect(refused.status).toBe(400)
    expect(refused.body.details[0]).toMatchObject({ field: 'llm_model', message: expect.stringContaining('no language model is configured') })
    for (const field of ['bot_description', 'bot_who_am_i', 'sms_prompt_text', 'bot_type', 'bot_prefix', 'bot_language', 'template_bot_prefix', 'template_bot_description', 'template_bot_language', 'template_context', 'template_query', 'multiple_model']) {
      expect(response.body).toHaveProperty(field)
    }
  })

  it("updates bot settings, taking 'true'/'false' strings as booleans, and who_am_i follows", async () => {
    const response = await server().call('/admin/bot_setting', {
      method: 'PUT',
      body: { semantic_firewall: 'true', multiple_model: 'false', num_sources_k: '6', bot_who_am_i: 'I answer questions about gardening.' },
    })
    expect(response.body).toMatchObject({ semantic_firewall: true, multiple_model: false, num_sources_k: 6 })
    const whoAmI = await server().call('/who_am_i', { as: await server().createUser('user') })
    expect(whoAmI.body.bot_who_am_i).toBe('I answer questions about gardening.')
    expect(whoAmI.body.query_shortcuts).toHaveLength(3)
  })

  it("marks the product's own starting suggestions in who_am_i, and not a sponsor's", async () => {
    const user = await server().createUser('user')
    const before = await server().call('/who_am_i', { as: user })
    expect(before.body.query_shortcuts.map((shortcut: { product_guide: boolean }) => shortcut.product_guide)).toEqual([true, true, true])
    const shortcuts = before.body.query_shortcuts.map(({ enabled, query }: { enabled: boolean; query: string }) => ({ enabled, query }))
    shortcuts[1] = { enabled: true, query: 'When does the pool open?' }
    expect((await server().call('/admin/bot_setting', { method: 'PUT', body: { query_shortcuts: shortcuts } })).status).toBe(200)
    const after = await server().call('/who_am_i', { as: user })
    expect(after.body.query_shortcuts.map((shortcut: { product_guide: boolean }) => shortcut.product_guide)).toEqual([true, false, true])
    const agent = await server().call('/who_am_i?target=agent', { as: user })
    expect(agent.body.query_shortcuts.every((shortcut: { product_guide: boolean }) => shortcut.product_guide === false)).toBe(true)
    await server().call('/admin/bot_setting', { method: 'PUT', body: { query_shortcuts: before.body.query_shortcuts.map(({ enabled, query }: { enabled: boolean; query: string }) => ({ enabled, query })) } })
  })

  it('refuses bad settings without changing the stored ones', async () => {
    const before = await server().call('/admin/bot_setting')
    const badNumber = await server().call('/admin/bot_setting', { method: 'PUT', body: { num_sources_k: 0, bot_language: 'French' } })
    expect(badNumber.status).toBe(400)
    expect(badNumber.body.details[0].field).toBe('num_sources_k')
    expect((await server().call('/admin/bot_setting', { method: 'PUT', body: { llm_model: 'gpt-imaginary' } })).body.details[0].field).toBe('llm_model')
    expect((await server().call('/admin/bot_setting', { method: 'PUT', body: { unknown_field: 1 } })).status).toBe(400)
    expect((await server().call('/admin/bot_setting')).body).toEqual(before.body)
  })

  it('refuses a search type that needs embeddings when none are configured, saying why', async () => {
    const before = await server().call('/admin/bot_setting')
    expect(before.body).toMatchObject({ search_type: 'keyword', hybrid_fusion: 'weighted', hybrid_keyword_weight: 0.5, hybrid_vector_weight: 0.5, mmr_lambda: 0.7 })
    for (const searchType of ['vector', 'hybrid', 'mmr']) {
      const refused = await server().call('/admin/bot_setting', { method: 'PUT', body: { search_type: searchType, bot_language: 'French' } })
      expect(refused.status).toBe(400)
      expect(refused.body.details[0].field).toBe('search_type')
      expect(refused.body.message).toBe(
        `${searchType} search compares embeddings, and no embeddings model is configured: set EMBEDDINGS_MODEL (with EMBEDDINGS_BASE_URL, or LLM_BASE_URL) for the backend, or choose keyword search`,
      )
    }
    expect((await server().call('/admin/bot_setting')).body).toEqual(before.body)
    // Keyword search takes any threshold (BM25 scores have no upper bound), and the fusion settings can be prepared.
    const keyword = await server().call('/admin/bot_setting', { method: 'PUT', body: { search_type: 'keyword', score_threshold: '2.5', hybrid_fusion: 'rrf', mmr_lambda: '0.3' } })
    expect(keyword.status).toBe(200)
    expect(keyword.body).toMatchObject({ search_type: 'keyword', score_threshold: 2.5, hybrid_fusion: 'rrf', mmr_lambda: 0.3 })
    const check = await server().call('/admin/check_embeddings')
    expect(check.body.embeddings).toMatchObject({ status: 'off', model: null, message: 'No embeddings model is configured (EMBEDDINGS_MODEL): search is by keyword only' })
    await server().call('/admin/bot_setting', { method: 'PUT', body: { score_threshold: 0, hybrid_fusion: 'weighted', mmr_lambda: 0.7 } })
  })

  it('reads and updates agent settings, refusing an agent that uses an unknown tool', async () => {
    const current = await server().call('/admin/agent_setting')
    expect(current.body).toMatchObject({ max_iteration: 0, toggle_debug: false })
    expect(current.body.tools.map((tool: { name: string }) => tool.name)).toEqual(['knowledge_search', 'article_lookup', 'date_time', 'arithmetic'])
    const updated = await server().call('/admin/agent_setting', { method: 'PUT', body: { max_iteration: '3', toggle_debug: 'true' } })
    expect(updated.body).toMatchObject({ max_iteration: 3, toggle_debug: true })
    const bad = await server().call('/admin/agent_setting', {
      method: 'PUT',
      body: { agents: [{ name: 'helper', description: '', helper_tools: 'knowledge_search, teleport' }] },
    })
    expect(bad.status).toBe(400)
    expect(bad.body.message).toContain('teleport')
  })

  it('lists bot info with a length for every list, to editors and administrators only', async () => {
    expect((await server().call('/admin/bot_info', { as: await server().createUser('user') })).status).toBe(403)
    const info = await server().call('/admin/bot_info', { as: await server().createUser('editor') })
    expect(info.status).toBe(200)
    for (const list of ['list_of_docs', 'excluded_links', 'visited_urls', 'tube_urls', 'errored_urls']) {
      expect(info.body[`${list}_length`]).toBe(info.body[list].length)
    }
    expect(typeof info.body.doc_chunks).toBe('number')
  })

  it('lists the agent state fields without current_answer and current_grade', async () => {
    const fields = await server().call('/admin/vis-network-agent-state-fields')
    expect(fields.body.result).toContain('command')
    expect(fields.body.result).not.toContain('current_answer')
    expect(fields.body.result).not.toContain('current_grade')
  })

  it('draws the configured workflow: steps, agents and the tools they use', async () => {
    const graph = await server().call('/admin/vis-network', { method: 'POST', body: { variant: 'general' } })
    const ids = graph.body.nodes.map((node: { id: string }) => node.id)
    expect(ids).toEqual(expect.arrayContaining(['start', 'step:plan', 'step:retrieve', 'step:grade', 'step:compose', 'end', 'agent:general', 'tool:knowledge_search']))
    expect(graph.body.edges).toContainEqual({ from: 'agent:general', to: 'tool:arithmetic', label: 'uses' })
    expect(graph.body.edges).toContainEqual(expect.objectContaining({ from: 'step:grade', to: 'step:plan' }))
    const government = await server().call('/admin/vis-network', { method: 'POST', body: { variant: 'government' } })
    expect(government.body.nodes.map((node: { id: string }) => node.id)).toContain('step:fill_template')
  })
})
