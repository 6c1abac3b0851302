import { createLocalAccount, expect, signInLocally, test } from './support'

// This suite's backend has a language model (the local OpenAI-compatible fixture, LLM_BASE_URL): the settings screens
// offer its models instead of saying that none is configured. The screens without a model are in tests/e2e/settings.spec.
// Nothing is saved here: other specs of this suite ask questions with the stored settings meanwhile.

test.describe('Settings with a language model', () => {
  test('Bot settings offer the configured models and the per-question choice, with no "no model" notice', async ({ page }, testInfo) => {
    const isJs = testInfo.project.name.endsWith('no-js') === false
    await signInLocally(page, await createLocalAccount('admin'), { from: '/settings' })
    await expect(page).toHaveURL(/\/settings$/)
    const form = page.locator('form#bot-settings')
    await expect(form.getByLabel('Bot prefix', { exact: true })).toBeVisible()
    await expect(page.getByText('No language model is configured')).toHaveCount(0)
    await expect(page.getByText('Takes effect with a language model.')).toHaveCount(0)
    await expect(form.getByText('Multiple models', { exact: true })).toBeVisible()
    if (isJs) {
      await form.getByRole('button', { name: 'LLM model' }).click()
      for (const model of ['Use default model', 'fixture-chat', 'fixture-mini']) await expect(page.getByRole('option', { name: model, exact: true })).toBeVisible()
      await page.keyboard.press('Escape')
    } else {
      const options = await form.getByLabel('LLM model', { exact: true }).locator('option').allTextContents()
      expect(options).toEqual(expect.arrayContaining(['Use default model', 'fixture-chat', 'fixture-mini']))
    }
  })

  test('Agent settings offer the configured models', async ({ page }) => {
    await signInLocally(page, await createLocalAccount('admin'), { from: '/settings/agent' })
    await expect(page).toHaveURL(/\/settings\/agent$/)
    await expect(page.getByText('No language model is configured')).toHaveCount(0)
    const form = page.locator('form#agent-settings')
    await expect(form.getByText('LLM model', { exact: true }).first()).toBeVisible()
  })
})
