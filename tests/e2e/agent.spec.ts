import { expect, test, type Page, type TestInfo } from '@playwright/test'
import { backendSession, BACKEND_URL } from './support/backend'
import { withSettingsLock } from './support/settings-lock'

/** Adds a template of one section on Settings → Templates, the way an administrator does. */
async function addTemplate(page: Page, name: string, section: { title: string; instructions: string }) {
  await page.goto('/settings/templates/new')
  await page.getByLabel('Name', { exact: true }).fill(name)
  await page.getByLabel('Section 1 title').fill(section.title)
  await page.getByLabel('Section 1 instructions').fill(section.instructions)
  await page.getByRole('button', { name: 'Add template' }).click()
  await expect(page).toHaveURL(/\/settings\/templates$/)
}

test.describe('Agent', () => {
  test('warns when the command is blank', async ({ page }) => {
    await page.goto('/agent')
    await page.getByLabel('Command').fill('   ')
    await page.getByRole('button', { name: 'Run agent' }).click()
    const warning = page.getByRole('status').filter({ hasText: 'Hey' })
    await expect(warning).toContainText('You need to provide a command')
    await expect(page.getByLabel('Command')).toHaveAttribute('aria-invalid', 'true')
    // Said once: the field points at the warning (it is described by it) rather than repeating it.
    await expect(page.getByText('You need to provide a command')).toHaveCount(1)
    await expect(page.getByLabel('Command')).toHaveAccessibleDescription(/Hey\s*You need to provide a command/)
  })

  test('runs the general agent and shows its answer with sources once finished, logged with its steps', async ({ page }, testInfo) => {
    // Words of its own per project and retry, to find this run's log among the others.
    const command = `How do I add an article and how do I publish drafts, ${testInfo.project.name === 'js' ? 'jay' : 'nox'}${testInfo.retry}?`
    await page.goto('/agent')
    await page.getByLabel('Command').fill(command)
    await page.getByRole('button', { name: 'Run agent' }).click()
    const answer = page.getByRole('region', { name: 'Answer' })
    await expect(answer).toBeVisible({ timeout: 45_000 })
    await expect(answer.getByRole('list', { name: 'Sources' }).getByRole('listitem').first()).toBeVisible()
    await expect(page).toHaveURL(/\/agent\?task=/)

    await page.goto('/logs')
    await page.getByRole('table', { name: 'Query logs' }).getByRole('link', { name: command, exact: true }).click()
    await expect(page.getByRole('heading', { level: 1, name: /^Log \d+$/ })).toBeVisible()
    await expect(page.getByText('Agent (general agent)', { exact: true })).toBeVisible()
    await page.getByText(/steps of the agent run$/).click()
    await expect(page.getByRole('list', { name: 'Steps' }).getByRole('listitem').filter({ hasText: 'retrieve' }).first()).toBeVisible()
  })

  test('a long command over many lines runs, and is shown in part while it runs and above its answer', async ({ page }) => {
    // Thousands of characters: the run is remembered by its task alone (the session cookie has no room for them).
    const line = 'How do I add an article to the knowledge base, and where do I see it afterwards?'.padEnd(95, ' x')
    const command = Array.from({ length: 40 }, () => line).join('\n')
    expect(command.length).toBeLessThanOrEqual(4000)
    await page.goto('/agent')
    await page.getByLabel('Command').fill(command)
    await page.getByRole('button', { name: 'Run agent' }).click()
    const answer = page.getByRole('region', { name: 'Answer' })
    await expect(answer.getByRole('list', { name: 'Sources' })).toBeVisible({ timeout: 45_000 })
    await expect(page).toHaveURL(/\/agent\?task=/)
    await expect(answer.getByText(/^Command: How do I add an article [\s\S]*…$/)).toBeVisible()
    await expect(answer.getByText(/^The whole command \(3,\d{3} characters\)$/)).toBeVisible()
  })

  // The command form is a window high on a phone: the run, then its answer, open below it, in view.
  for (const viewport of [{ width: 390, height: 844 }, { width: 1366, height: 768 }]) {
    test(`the run and then its answer open in view at ${viewport.width}x${viewport.height}`, async ({ page }, testInfo) => {
      // The answer's first line is measured: not while the other project changes the agents (its answer would differ).
      await withSettingsLock('agent', () => runAndMeasure(page, testInfo, viewport))
    })
  }

  async function runAndMeasure(page: Page, testInfo: TestInfo, viewport: { width: number; height: number }) {
    await page.setViewportSize(viewport)
    await page.goto('/agent')
    await page.getByLabel('Command').fill('How do I add a group to an organisation?')
    await page.getByRole('button', { name: 'Run agent' }).click()
    const answer = page.getByRole('region', { name: 'Answer' })
    await expect(answer.getByRole('list', { name: 'Sources' })).toBeVisible({ timeout: 45_000 })
    await expect(page).toHaveURL(/\/agent\?task=[^#]+#answer$/)
    const heading = answer.getByRole('heading', { name: 'Answer', level: 2 })
    await expect(heading).toBeInViewport({ ratio: 1 })
    // The first line of the answer, under the command it answers, is inside the window too.
    const firstLine = answer.getByText('To create a group', { exact: false }).first()
    const box = await firstLine.boundingBox()
    expect(box && box.y >= 0 && box.y + Math.min(box.height, 32) <= viewport.height, `first line at ${JSON.stringify(box)}`).toBe(true)
    if (testInfo.project.name === 'js') await expect(heading).toBeFocused()
  }

  test('shows the agent query shortcuts of Agent settings and runs one with a press', async ({ page }) => {
    await page.goto('/agent')
    const shortcuts = page.getByRole('group', { name: 'Query shortcuts' })
    const shortcut = shortcuts.getByRole('button', { name: 'Summarise what the knowledge base says about publishing drafts' })
    await expect(shortcut).toBeVisible()
    // The disabled third shortcut of a new installation is not offered.
    await expect(shortcuts.getByRole('button')).toHaveCount(2)
    await shortcut.click()
    const answer = page.getByRole('region', { name: 'Answer' })
    await expect(answer).toBeVisible({ timeout: 45_000 })
    await expect(answer).toContainText('Command: Summarise what the knowledge base says about publishing drafts')
    // The summary quotes the article on its subject; its passages are told apart by what each says, under its title
    // (an article once, with each passage quoted from it).
    const sources = answer.getByRole('list', { name: 'Sources' }).getByRole('listitem')
    await expect(sources.getByRole('link', { name: 'How to review and publish drafts' })).toHaveCount(1)
    const passages = sources.getByRole('paragraph')
    expect(await passages.count()).toBeGreaterThan(1)
    for (const passage of await passages.all()) await expect(passage).toHaveText(/\w{3,}/)
    // Each citation leads to its source in the list.
    const citation = answer.locator('a[href="#agent-source-1"]').first()
    await expect(citation).toHaveText(/1/)
    await citation.click()
    await expect(page).toHaveURL(/#agent-source-1$/)
    // Not while the other project's run has the government agent turned off.
    await withSettingsLock('government-agent', async () => {
      await page.goto('/agent/government')
      await expect(page.getByRole('group', { name: 'Query shortcuts' }).getByRole('button', { name: 'Which settings change how answers are found?' })).toBeVisible()
    })
  })

  test('offers the starter template of a new installation, and says plainly when a run names no template', async ({ page }) => {
    await withSettingsLock('government-agent', async () => {
      await page.goto('/agent/government')
      await expect(page.getByLabel('Template').locator('option', { hasText: 'Starter briefing' })).toHaveCount(1)
      const refused = await page.request.post('/agent/government', { form: { intent: 'run', command: 'Brief me on drafts' }, maxRedirects: 0 })
      expect(refused.status()).toBe(400)
      expect(await refused.text()).toContain('Choose a template for the government agent.')
    })
  })

  test('a run refused by the backend keeps the chosen template as well as the command', async ({ page }, testInfo) => {
    const name = `Refusal kept ${testInfo.project.name} ${Date.now()}`
    await addTemplate(page, name, { title: 'Summary', instructions: 'A short summary.' })

    // Not while the other project's run has the government agent turned off.
    await withSettingsLock('government-agent', async () => {
      await page.goto('/agent/government')
      const template = page.getByLabel('Template')
      // The one added above makes two at least; the last is not the template the screen offers first (keeping
      // that one would prove nothing).
      await expect(template.locator('option', { hasText: name })).toHaveCount(1)
      const chosen = await template.locator('option').last().getAttribute('value')
      expect(chosen).toBeTruthy()
      await expect(template).not.toHaveValue(chosen as string)
      await template.selectOption(chosen as string)
      // A command over the length limit, as a browser that ignores maxlength would send it: the backend refuses it (400).
      const command = page.getByLabel('Command')
      await command.evaluate((field) => field.removeAttribute('maxlength'))
      const tooLong = Array(201).fill('Brief me on drafts.').join(' ')
      await command.fill(tooLong)
      await page.getByRole('button', { name: 'Run agent' }).click()
      await expect(page.getByText('command is at most 4000 characters')).toBeVisible()
      await expect(page.getByLabel('Command')).toHaveValue(tooLong)
      await expect(page.getByLabel('Template')).toHaveValue(chosen as string)
    })
  })

  test('a variant whose agent is removed in Agent settings is off: its screen says so and runs nothing', async ({ page }) => {
    test.setTimeout(150_000)
    await page.setViewportSize({ width: 390, height: 844 })
    const admin = await backendSession(page.request, 'admin', process.env.E2E_ADMIN_PASSWORD ?? '')
    await withSettingsLock('agent', () =>
      withSettingsLock('government-agent', async () => {
        const saved = await (await page.request.get(`${BACKEND_URL}/admin/agent_setting`, { headers: admin.headers })).json()
        try {
          await page.goto('/settings/agent')
          const form = page.locator('form#agent-settings')
          await expect(form.getByRole('group', { name: 'Agent 2' }).getByLabel('Name', { exact: true })).toHaveValue('government')
          await form.getByRole('button', { name: 'Remove agent 2' }).click()
          await expect(form.getByRole('group', { name: 'Agent 2' })).toHaveCount(0)
          await form.getByRole('button', { name: 'Save agent settings' }).click()
          await expect(page.getByRole('status').filter({ hasText: 'Agent settings saved' })).toBeVisible()
          await expect(page.getByRole('note').filter({ hasText: 'No agent is named “government”, so the government agent is off' })).toBeVisible()

          await page.goto('/agent/government')
          await expect(page.getByText('The government agent is off: Agent settings have no agent named “government”')).toBeVisible()
          await expect(page.getByRole('button', { name: 'Run agent' })).toHaveCount(0)
          await expect(page.getByLabel('Command')).toHaveCount(0)
          // A run posted all the same (from a screen shown before the agent was removed) is refused with the reason.
          const refused = await page.request.post('/agent/government', { form: { intent: 'run', command: 'Brief me on drafts', template_id: '1' }, maxRedirects: 0 })
          expect(refused.status()).toBe(409)
          expect(await refused.text()).toContain('The government agent is off')
          await page.goto('/agent')
          await expect(page.getByRole('button', { name: 'Run agent' })).toBeVisible()
        } finally {
          const restored = await page.request.put(`${BACKEND_URL}/admin/agent_setting`, { headers: admin.headers, data: { agents: saved.agents } })
          expect(restored.status()).toBe(200)
        }
        await page.goto('/agent/government')
        await expect(page.getByRole('button', { name: 'Run agent' })).toBeVisible()
      }),
    )
  })

  test('keeps each variant on its own screen', async ({ page }) => {
    await page.goto('/agent/government')
    await expect(page.getByRole('heading', { name: 'Government agent' })).toBeVisible()
    await page.getByRole('navigation', { name: 'Agent variants' }).getByRole('link', { name: 'General agent' }).click()
    await expect(page.getByRole('heading', { name: 'General agent' })).toBeVisible()
  })
})

test('the government agent fills a chosen template from the knowledge base and the answer downloads as Word', async ({ page }, testInfo) => {
  const name = `Guide summary ${testInfo.project.name} ${Date.now()}`
  await addTemplate(page, name, { title: 'Adding articles', instructions: 'How an article is added and published.' })

  const answer = page.getByRole('region', { name: 'Answer' })
  // Not while the other project's run has the government agent turned off.
  await withSettingsLock('government-agent', async () => {
    await page.goto('/agent/government')
    await page.getByLabel('Command').fill('How do I add an article and publish it?')
    await page.getByLabel('Template').selectOption({ label: name })
    await page.getByRole('button', { name: 'Run agent' }).click()
    await expect(answer).toBeVisible({ timeout: 45_000 })
  })
  await expect(answer).toContainText('Adding articles')
  await expect(answer.getByRole('list', { name: 'Sources' }).getByRole('listitem').first()).toBeVisible()
  const download = page.waitForEvent('download')
  await answer.getByRole('link', { name: 'Download as Word (.docx)' }).click()
  expect((await download).suggestedFilename()).toBe('answer.docx')
})

test('a briefing lists each article among its sources once, with every passage it quotes from it', async ({ page }) => {
  const answer = page.getByRole('region', { name: 'Answer' })
  await withSettingsLock('government-agent', async () => {
    await page.goto('/agent/government')
    await page.getByLabel('Command').fill('Write a briefing on user feedback')
    await page.getByLabel('Template').selectOption({ label: 'Starter briefing' })
    await page.getByRole('button', { name: 'Run agent' }).click()
    await expect(answer.getByRole('list', { name: 'Sources' })).toBeVisible({ timeout: 45_000 })
  })
  const articles = answer.getByRole('list', { name: 'Sources' }).getByRole('listitem')
  const titles = await articles.evaluateAll((items) => items.map((item) => item.querySelector('a')?.textContent ?? item.textContent ?? ''))
  expect(titles.length).toBeGreaterThan(0)
  expect(new Set(titles).size, titles.join(' | ')).toBe(titles.length)
  // Every number the briefing cites lands on its passage.
  const cited = await answer.locator('a[href^="#agent-source-"]').evaluateAll((links) => [...new Set(links.map((link) => link.getAttribute('href') as string))])
  for (const href of cited) await expect(answer.locator(href)).toHaveCount(1)
})
