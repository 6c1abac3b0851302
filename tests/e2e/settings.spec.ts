import { expect, test, type Page } from '@playwright/test'
import { withSettingsLock } from './support/settings-lock'

/** Picks an option: a native <select> without scripts, the react-aria listbox with them. */
async function choose(page: Page, label: string, option: string, isJs: boolean) {
  if (isJs) {
    await page.getByRole('button', { name: label }).click()
    await page.getByRole('option', { name: option, exact: true }).click()
  } else {
    await page.getByLabel(label, { exact: true }).selectOption({ label: option })
  }
}

const toast = (page: Page, text: string) => page.getByRole('status').filter({ hasText: text })

test.describe('Settings', () => {
  test('moves between the settings screens, each with its own address', async ({ page }) => {
    await page.goto('/settings')
    const nav = page.getByRole('navigation', { name: 'Settings' })
    for (const [name, address] of [
      ['Agent settings', /\/settings\/agent$/],
      ['Templates', /\/settings\/templates$/],
      ['Workflow graph', /\/settings\/graph$/],
      ['Bot settings', /\/settings$/],
    ] as const) {
      await nav.getByRole('link', { name }).click()
      await expect(page).toHaveURL(address)
      await expect(nav.getByRole('link', { name })).toHaveAttribute('aria-current', 'page')
    }
  })

  test('saves the bot settings form and shows the saved values again', async ({ page }, testInfo) => {
    test.setTimeout(120_000)
    const isJs = testInfo.project.name === 'js'
    const stamp = `${testInfo.project.name}-${Date.now()}`
    await withSettingsLock('bot', async () => {
      await page.goto('/settings')
      const form = page.locator('form#bot-settings')
      // Every field of SEED.md §3 is on the form.
      for (const label of [
        'Bot language',
        'Bot description',
        'Who am I',
        'Bot prefix',
        'SMS prompt text',
        'Number of sources',
        'Score threshold',
        'Template bot language',
        'Template bot prefix',
        'Template bot description',
        'Template context',
        'Template query',
        'Shortcut 1 query',
        'Shortcut 3 query',
      ]) {
        await expect(form.getByLabel(label, { exact: true })).toBeVisible()
      }
      await expect(form.getByText('Semantic firewall', { exact: true })).toBeVisible()
      // This installation has no language model: the screen says so and offers no model choice.
      await expect(page.getByRole('note').filter({ hasText: 'No language model is configured' })).toBeVisible()
      await expect(form.getByLabel('LLM model', { exact: true })).toHaveCount(0)
      await expect(form.getByRole('switch', { name: 'Multiple models' })).toHaveCount(0)
      await expect(form.getByText('Takes effect with a language model.').first()).toBeVisible()
      const original = {
        prefix: await form.getByLabel('Bot prefix', { exact: true }).inputValue(),
        context: await form.getByLabel('Template context', { exact: true }).inputValue(),
      }

      await form.getByLabel('Bot prefix', { exact: true }).fill(`Answer briefly (${stamp}).`)
      await form.getByLabel('Template context', { exact: true }).fill(`Context ${stamp}: {context}`)
      // The search type stays keyword (other specs ask questions meanwhile), but it goes through the select.
      await choose(page, 'Search type', 'Keyword (BM25)', isJs)
      await form.getByRole('button', { name: 'Save bot settings' }).click()

      await expect(toast(page, 'Bot settings saved')).toBeVisible()
      await page.goto('/settings')
      await expect(form.getByLabel('Bot prefix', { exact: true })).toHaveValue(`Answer briefly (${stamp}).`)
      await expect(form.getByLabel('Template context', { exact: true })).toHaveValue(`Context ${stamp}: {context}`)

      // Put things back as they were.
      await form.getByLabel('Bot prefix', { exact: true }).fill(original.prefix)
      await form.getByLabel('Template context', { exact: true }).fill(original.context)
      await form.getByRole('button', { name: 'Save bot settings' }).click()
      await expect(toast(page, 'Bot settings saved')).toBeVisible()
      await page.goto('/settings')
      await expect(form.getByLabel('Bot prefix', { exact: true })).toHaveValue(original.prefix)
    })
  })

  test('without an embeddings model, search is offered by keyword only, and the screen says why', async ({ page }, testInfo) => {
    await page.goto('/settings')
    const form = page.locator('form#bot-settings')
    await expect(form.getByText('no embeddings model is configured (EMBEDDINGS_MODEL), so search is by keyword')).toBeVisible()
    await expect(form.getByText('None is configured: these are kept for when one is.')).toBeVisible()
    if (testInfo.project.name === 'js') {
      await page.getByRole('button', { name: 'Search type' }).click()
      await expect(page.getByRole('listbox', { name: 'Search type' }).getByRole('option')).toHaveText(['Keyword (BM25)'])
      await page.keyboard.press('Escape')
    } else {
      await expect(form.getByLabel('Search type', { exact: true }).locator('option')).toHaveText(['Keyword (BM25)'])
    }
  })

  test('saves the hybrid and MMR search settings, and refuses two zero weights', async ({ page }, testInfo) => {
    test.setTimeout(120_000)
    const isJs = testInfo.project.name === 'js'
    await withSettingsLock('bot', async () => {
      await page.goto('/settings')
      const form = page.locator('form#bot-settings')
      const keyword = form.getByLabel('Keyword weight', { exact: true })
      const vector = form.getByLabel('Vector weight', { exact: true })
      const lambda = form.getByLabel('MMR relevance (λ)', { exact: true })
      const original = { keyword: await keyword.inputValue(), vector: await vector.inputValue(), lambda: await lambda.inputValue() }
      const fusionShown = async (label: string, value: string) => {
        if (isJs) await expect(page.getByRole('button', { name: 'Hybrid fusion' })).toContainText(label)
        else await expect(form.getByLabel('Hybrid fusion', { exact: true })).toHaveValue(value)
      }

      // Both weights at 0 would rank nothing: refused beside the field, nothing saved.
      await keyword.fill('0')
      await vector.fill('0')
      await form.getByRole('button', { name: 'Save bot settings' }).click()
      await expect(form.getByText('The keyword and vector weights cannot both be 0', { exact: true })).toBeVisible()
      await expect(vector).toHaveAttribute('aria-invalid', 'true')
      await page.goto('/settings')
      await expect(keyword).toHaveValue(original.keyword)

      await choose(page, 'Hybrid fusion', 'Reciprocal rank fusion (RRF)', isJs)
      await keyword.fill('0.3')
      await vector.fill('0.7')
      await lambda.fill('0.4')
      await form.getByRole('button', { name: 'Save bot settings' }).click()
      await expect(toast(page, 'Bot settings saved')).toBeVisible()
      await page.goto('/settings')
      await fusionShown('Reciprocal rank fusion (RRF)', 'rrf')
      await expect(keyword).toHaveValue('0.3')
      await expect(vector).toHaveValue('0.7')
      await expect(lambda).toHaveValue('0.4')

      // Put things back as they were.
      await choose(page, 'Hybrid fusion', 'Weighted scores', isJs)
      await keyword.fill(original.keyword)
      await vector.fill(original.vector)
      await lambda.fill(original.lambda)
      await form.getByRole('button', { name: 'Save bot settings' }).click()
      await expect(toast(page, 'Bot settings saved')).toBeVisible()
      await page.goto('/settings')
      await fusionShown('Weighted scores', 'weighted')
      await expect(lambda).toHaveValue(original.lambda)
    })
  })

  test('offers the bot types by name and says what is wrong at the top of the refused form, in its own words', async ({ page }, testInfo) => {
    test.setTimeout(120_000)
    const isJs = testInfo.project.name === 'js'
    await withSettingsLock('bot', async () => {
      await page.goto('/settings')
      const form = page.locator('form#bot-settings')
      // A choice among the answer styles the backend knows, not a box to type one in.
      if (isJs) {
        await page.getByRole('button', { name: 'Bot type' }).click()
        await expect(page.getByRole('option')).toHaveText(['Complete answer', 'Short text message'])
        await page.keyboard.press('Escape')
      } else {
        await expect(form.getByLabel('Bot type', { exact: true }).locator('option')).toHaveText(['Complete answer', 'Short text message'])
      }

      // Refused by this form and by the backend: each problem is listed at the top, linked to its field.
      const keyword = form.getByLabel('Keyword weight', { exact: true })
      const original = await keyword.inputValue()
      await keyword.fill('0')
      await form.getByLabel('Vector weight', { exact: true }).fill('0')
      await form.getByLabel('Template context', { exact: true }).fill('Sources without their placeholder')
      await form.getByRole('button', { name: 'Save bot settings' }).click()
      const summary = form.getByRole('alert').first()
      await expect(summary.getByRole('link', { name: 'Vector weight: The keyword and vector weights cannot both be 0' })).toBeVisible()
      // Without scripts the page reloads at its top, where the summary is; with them the field in error takes the focus.
      if (isJs) await expect(form.getByLabel('Vector weight', { exact: true })).toBeFocused()
      else await expect(summary).toBeInViewport()
      await summary.getByRole('link', { name: /^Vector weight:/ }).click()
      await expect(page).toHaveURL(/#bot-settings-hybrid_vector_weight$/)
      await expect(form.getByLabel('Vector weight', { exact: true })).toBeInViewport()

      await form.getByLabel('Vector weight', { exact: true }).fill('0.5')
      await form.getByRole('button', { name: 'Save bot settings' }).click()
      const backendRefusal = summary.getByRole('link', { name: /^Template context: Template context must contain \{context\}/ })
      await expect(backendRefusal).toBeVisible()
      await expect(summary).not.toContainText('template_context')
      await expect(form.getByLabel('Template context', { exact: true })).toHaveValue('Sources without their placeholder')

      await page.goto('/settings')
      await expect(keyword).toHaveValue(original)
    })
  })

  test('refuses a number of sources out of range and keeps the stored one', async ({ page }, testInfo) => {
    await page.goto('/settings')
    const field = page.getByLabel('Number of sources', { exact: true })
    const stored = await field.inputValue()
    await field.fill('25')
    await page.getByRole('button', { name: 'Save bot settings' }).click()
    if (testInfo.project.name === 'js') {
      await expect(page.getByText('Please enter a whole number from 1 to 20', { exact: true })).toBeVisible()
    } else {
      // Without scripts the browser's own check (max=20) stops the form.
      await expect(page.locator('input[name="num_sources_k"]:invalid')).toHaveCount(1)
    }
    await page.goto('/settings')
    await expect(page.getByLabel('Number of sources', { exact: true })).toHaveValue(stored)
  })

  test('agent settings: a tool added in a new row, used by an agent, shown in the graph, then removed', async ({ page }, testInfo) => {
    test.setTimeout(150_000)
    const tool = `lookup_${testInfo.project.name.replace('-', '_')}_${Date.now()}`
    await withSettingsLock('agent', async () => {
      await page.goto('/settings/agent')
      const form = page.locator('form#agent-settings')
      // No language model here: the screen says so and offers no model to choose.
      await expect(page.getByRole('note').filter({ hasText: 'No language model is configured' })).toBeVisible()
      await expect(form.getByLabel('LLM model', { exact: true })).toHaveCount(0)
      await expect(form.getByLabel('Max iterations')).toHaveValue(/^\d+$/)
      await expect(form.getByRole('switch', { name: 'Debug trace' })).toBeAttached()
      await expect(form.getByLabel('Shortcut 3 query')).toBeAttached()

      const toolRows = await form.getByLabel(/^Tool \d+ name$/).count()
      const blank = toolRows // the last row is the empty one
      await form.getByLabel(`Tool ${blank} name`).fill(tool)
      await form.getByLabel(`Tool ${blank} description`).fill('Looks things up for the end-to-end test.')
      await form.getByRole('button', { name: 'Add tool row' }).click()
      await expect(form.getByLabel(`Tool ${blank + 1} name`)).toHaveValue('')
      await expect(form.getByLabel(`Tool ${blank} name`)).toHaveValue(tool)

      const agent = form.getByRole('group', { name: 'Agent 1' })
      const agentTools = agent.getByLabel('General tools (comma-separated)')
      const originalTools = await agentTools.inputValue()
      await agentTools.fill(`${originalTools}, teleport`)
      await form.getByRole('button', { name: 'Save agent settings' }).click()
      await expect(agent.getByText(/Unknown tool teleport/)).toBeVisible()
      // The refused form keeps what was typed.
      await expect(form.getByLabel(`Tool ${blank} name`)).toHaveValue(tool)

      await agent.getByLabel('General tools (comma-separated)').fill(`${originalTools}, ${tool}`)
      await form.getByRole('button', { name: 'Save agent settings' }).click()
      await expect(toast(page, 'Agent settings saved')).toBeVisible()

      await page.goto('/settings/graph')
      await expect(page.getByRole('list', { name: 'Tools' })).toContainText(tool)
      await expect(page.getByRole('list', { name: 'Connections' })).toContainText(`general → ${tool} (uses)`)

      await page.goto('/settings/agent')
      await form.getByRole('group', { name: 'Agent 1' }).getByLabel('General tools (comma-separated)').fill(originalTools)
      await form.getByRole('button', { name: `Remove tool ${blank}` }).click()
      await expect(form.getByLabel(`Tool ${blank} name`)).toHaveValue('')
      await form.getByRole('button', { name: 'Save agent settings' }).click()
      await expect(toast(page, 'Agent settings saved')).toBeVisible()
      await page.goto('/settings/graph')
      await expect(page.getByRole('list', { name: 'Tools' })).not.toContainText(tool)
    })
  })

  test('agent settings: agents are added and removed while one is still blank, with scripts as without', async ({ page }) => {
    // Row edits save nothing: no settings lock.
    await page.goto('/settings/agent')
    const form = page.locator('form#agent-settings')
    const agents = form.getByRole('button', { name: 'Remove agent' })
    const saved = await agents.count()
    await form.getByRole('button', { name: 'Add agent' }).click()
    await expect(agents).toHaveCount(saved + 1)
    // A second while the first added has no name yet: a row edit is not a save, so the blank name holds nothing up.
    await form.getByRole('button', { name: 'Add agent' }).click()
    await expect(agents).toHaveCount(saved + 2)
    await agents.last().click()
    await expect(agents).toHaveCount(saved + 1)
    await agents.last().click()
    await expect(agents).toHaveCount(saved)
    await expect(form.getByRole('alert').filter({ hasText: 'Nothing was saved' })).toHaveCount(0)
  })

  test('agent settings: a refused save lists its problems at the top, each a link to its field', async ({ page }) => {
    await withSettingsLock('agent', async () => {
      await page.goto('/settings/agent')
      const form = page.locator('form#agent-settings')
      const first = await form.getByLabel('Tool 1 name', { exact: true }).inputValue()
      const second = form.getByLabel('Tool 2 name', { exact: true })
      const secondName = await second.inputValue()
      await second.fill(first)
      await form.getByRole('button', { name: 'Save agent settings' }).click()
      const summary = form.getByRole('alert').filter({ hasText: 'Nothing was saved. Please correct:' })
      await expect(summary).toBeVisible()
      const link = summary.getByRole('link', { name: `Tool 2 name: Another tool is already named "${first}"` })
      await expect(link).toHaveAttribute('href', '#agent-tool_1_name')
      await expect(form.locator('#agent-tool_1_name')).toHaveValue(first)
      await link.click()
      await expect(second).toBeInViewport()
      // Nothing was saved: the stored name is still there.
      await page.goto('/settings/agent')
      await expect(form.getByLabel('Tool 2 name', { exact: true })).toHaveValue(secondName)
    })
  })

  test('agent settings: a refused new field stays in its boxes with the reason, and nothing half-added', async ({ page }) => {
    test.setTimeout(120_000)
    await withSettingsLock('agent', async () => {
      await page.goto('/settings/agent')
      const form = page.locator('form#agent-settings')
      const agent = form.getByRole('group', { name: 'Agent 1' })
      const boxes = await agent.getByRole('textbox').count()
      await agent.getByLabel('New field name').fill('Bad Name!')
      await agent.getByLabel('New field value').fill('some value')
      await form.getByRole('button', { name: 'Save agent settings' }).click()
      await expect(agent.getByText('A field name is lower-case letters, digits and _ and starts with a letter')).toBeVisible()
      await expect(agent.getByLabel('New field name')).toHaveValue('Bad Name!')
      await expect(agent.getByLabel('New field name')).toHaveAttribute('aria-invalid', 'true')
      await expect(agent.getByLabel('New field value')).toHaveValue('some value')
      await expect(agent.getByRole('textbox')).toHaveCount(boxes)

      // Corrected, it is added; cleared, it is removed again.
      await agent.getByLabel('New field name').fill('tone')
      await form.getByRole('button', { name: 'Save agent settings' }).click()
      await expect(toast(page, 'Agent settings saved')).toBeVisible()
      await expect(agent.getByLabel('Tone', { exact: true })).toHaveValue('some value')
      await expect(agent.getByLabel('New field name')).toHaveValue('')
      await agent.getByLabel('Tone', { exact: true }).fill('')
      await form.getByRole('button', { name: 'Save agent settings' }).click()
      await expect(toast(page, 'Agent settings saved')).toBeVisible()
      await expect(agent.getByLabel('Tone', { exact: true })).toHaveCount(0)
    })
  })

  test('creates a template with ordered sections, edits it and deletes it', async ({ page }, testInfo) => {
    const name = `Briefing note ${testInfo.project.name} ${Date.now()}`
    await page.goto('/settings/templates')
    await page.getByRole('link', { name: 'New template' }).click()
    await expect(page).toHaveURL(/\/settings\/templates\/new$/)
    await page.getByLabel('Name', { exact: true }).fill(name)
    await page.getByLabel('Description', { exact: true }).fill('A one-page note for a minister.')
    await page.getByLabel('Section 1 title').fill('Summary')
    await page.getByLabel('Section 1 instructions').fill('Three sentences at most.')
    await page.getByRole('button', { name: 'Add section' }).click()
    await page.getByLabel('Section 2 title').fill('Background')
    await page.getByRole('button', { name: 'Add section' }).click()
    await page.getByLabel('Section 3 title').fill('Recommendation')
    await page.getByRole('button', { name: 'Move section 3 up' }).click()
    await expect(page.getByLabel('Section 2 title')).toHaveValue('Recommendation')
    await expect(page.getByLabel('Section 3 title')).toHaveValue('Background')
    await expect(page.getByLabel('Section 1 instructions')).toHaveValue('Three sentences at most.')
    await page.getByRole('button', { name: 'Add template' }).click()

    await expect(page).toHaveURL(/\/settings\/templates$/)
    await expect(toast(page, 'Template added')).toBeVisible()
    const row = page.getByRole('row').filter({ hasText: name })
    await expect(row).toContainText('Summary · Recommendation · Background')

    await row.getByRole('link', { name, exact: true }).click()
    await expect(page.getByRole('heading', { name: 'Edit template' })).toBeVisible()
    await expect(page.getByLabel('Section 2 title')).toHaveValue('Recommendation')
    await page.getByLabel('Description', { exact: true }).fill('A two-page note for a minister.')
    await page.getByRole('button', { name: 'Remove section 3' }).click()
    await expect(page.getByLabel('Section 3 title')).toHaveValue('')
    await page.getByRole('button', { name: 'Save template' }).click()
    await expect(toast(page, 'Template updated')).toBeVisible()
    await expect(row).toContainText('A two-page note for a minister.')
    await expect(row).toContainText('Summary · Recommendation')
    await expect(row).not.toContainText('Background')

    await row.getByRole('link', { name: `Delete ${name}` }).click()
    const confirm = page.getByRole('alertdialog', { name: `Delete template “${name}”?` })
    await expect(confirm).toBeVisible()
    await confirm.getByRole('button', { name: 'Delete template' }).click()
    await expect(toast(page, 'Template deleted')).toBeVisible()
    await expect(page.getByRole('table', { name: 'Templates' })).not.toContainText(name)
  })

  test('shows why a template is refused beside its fields', async ({ page }, testInfo) => {
    const name = `Press release ${testInfo.project.name} ${Date.now()}`
    await page.goto('/settings/templates/new')
    await page.getByLabel('Name', { exact: true }).fill(name)
    await page.getByLabel('Section 1 title').fill('Headline')
    await page.getByRole('button', { name: 'Add template' }).click()
    await expect(toast(page, 'Template added')).toBeVisible()

    // Same name again, in another case: the backend refuses it, and says so beside the name.
    await page.goto('/settings/templates/new')
    await page.getByLabel('Name', { exact: true }).fill(name.toUpperCase())
    await page.getByLabel('Section 1 title').fill('Headline')
    await page.getByRole('button', { name: 'Add section' }).click()
    await page.getByLabel('Section 2 title').fill('headline')
    await page.getByRole('button', { name: 'Add template' }).click()
    await expect(page.getByText('Another section is already titled "headline"')).toBeVisible()
    await page.getByLabel('Section 2 title').fill('Body')
    await page.getByRole('button', { name: 'Add template' }).click()
    await expect(page.getByText(`A template named "${name.toUpperCase()}" already exists`)).toBeVisible()
    await expect(page.getByLabel('Name', { exact: true })).toHaveAttribute('aria-invalid', 'true')

    await page.goto('/settings/templates')
    await page.getByRole('link', { name: `Delete ${name}` }).click()
    await page.getByRole('button', { name: 'Delete template' }).click()
    await expect(toast(page, 'Template deleted')).toBeVisible()
  })

  test('refuses a template without sections beside the sections, on a phone, keeping what was typed', async ({ page }, testInfo) => {
    await page.setViewportSize({ width: 390, height: 844 })
    const name = `Sectionless ${testInfo.project.name} ${Date.now()}`
    const sections = page.getByRole('group', { name: 'Sections' })
    const refusal = sections.getByRole('alert').filter({ hasText: 'Add at least one section: the government agent writes the document section by section.' })

    // A new template whose only section row is blank is not added.
    await page.goto('/settings/templates/new')
    await page.getByLabel('Name', { exact: true }).fill(name)
    await page.getByLabel('Description', { exact: true }).fill('Kept when refused.')
    await page.getByRole('button', { name: 'Add template' }).click()
    await expect(refusal).toBeVisible()
    await expect(page).toHaveURL(/\/settings\/templates\/new$/)
    await expect(page.getByLabel('Name', { exact: true })).toHaveValue(name)
    await expect(page.getByLabel('Description', { exact: true })).toHaveValue('Kept when refused.')
    await page.getByLabel('Section 1 title').fill('Summary')
    await page.getByRole('button', { name: 'Add template' }).click()
    await expect(toast(page, 'Template added')).toBeVisible()

    // Every section removed on the edit screen: the save is refused and the template keeps its section.
    const row = page.getByRole('row').filter({ hasText: name })
    await row.getByRole('link', { name, exact: true }).click()
    await expect(page.getByRole('heading', { name: 'Edit template' })).toBeVisible()
    await page.getByLabel('Description', { exact: true }).fill('Changed, then refused.')
    for (let rows = await page.getByLabel(/^Section \d+ title$/).count(); rows > 0; rows--) {
      await page.getByRole('button', { name: 'Remove section 1' }).click()
      await expect(page.getByLabel(/^Section \d+ title$/)).toHaveCount(rows - 1)
    }
    await page.getByRole('button', { name: 'Save template' }).click()
    await expect(refusal).toBeVisible()
    await expect(page.getByRole('heading', { name: 'Edit template' })).toBeVisible()
    await expect(page.getByLabel('Description', { exact: true })).toHaveValue('Changed, then refused.')
    await expect(page.getByLabel('Name', { exact: true })).toHaveValue(name)
    // Fits the phone's width: nothing scrolls sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)

    await page.goto('/settings/templates')
    await expect(row).toContainText('Summary')
    await expect(row).not.toContainText('Changed, then refused.')
    await row.getByRole('link', { name: `Delete ${name}` }).click()
    await page.getByRole('button', { name: 'Delete template' }).click()
    await expect(toast(page, 'Template deleted')).toBeVisible()
  })

  test('goes back to the list with the reason when a template does not exist', async ({ page }) => {
    await page.goto('/settings/templates/987654')
    await expect(page).toHaveURL(/\/settings\/templates$/)
    await expect(toast(page, 'No template with id 987654')).toContainText('Something went wrong')
  })

  test('draws the agent workflow: SVG without scripts, interactive with them', async ({ page }, testInfo) => {
    await page.goto('/settings/graph')
    await expect(page.getByRole('list', { name: 'Steps' })).toContainText('retrieve')
    await expect(page.getByRole('list', { name: 'Connections' })).toContainText('grade → plan (grade too low)')
    const stateFields = page.getByRole('list', { name: 'State fields' })
    await expect(stateFields).toContainText('command')
    await expect(stateFields).not.toContainText('current_answer')
    await expect(stateFields).not.toContainText('current_grade')
    if (testInfo.project.name === 'js') {
      const network = page.getByTestId('workflow-graph-interactive')
      await expect(network).toHaveAttribute('data-status', 'interactive')
      await expect(network.locator('canvas')).toBeVisible()
      await expect(page.getByTestId('workflow-graph-svg')).toHaveCount(0)
    } else {
      const svg = page.getByRole('img', { name: 'Workflow of the general agent' })
      await expect(svg).toBeVisible()
      await expect(svg.locator('[data-node="step:plan"]')).toHaveCount(1)
      await expect(svg.locator('[data-edge="step:grade->step:plan"]')).toHaveCount(1)
    }
    await page.getByRole('navigation', { name: 'Workflow variant' }).getByRole('link', { name: 'Government agent' }).click()
    await expect(page).toHaveURL(/variant=government/)
    await expect(page.getByRole('list', { name: 'Steps' })).toContainText('fill_template')
  })
})
