import { expect, test, type Page } from '@playwright/test'
import { BACKEND_URL, backendSession, callWithKey, postedFields, whenHydrated } from './support/backend'
import { choose } from './support/select'

test.describe('API keys', () => {
  test('creates a key shown once, which a client uses alone with its role, until it is revoked', async ({ page }, testInfo) => {
    const isJs = testInfo.project.name === 'js'
    const name = `Reporting ${testInfo.project.name} ${Date.now().toString(36)}`
    await page.goto('/api-keys')
    await expect(page.getByRole('heading', { name: 'API keys', level: 1 })).toBeVisible()
    await whenHydrated(page.getByRole('button', { name: 'Create key' }), testInfo)
    await page.getByLabel('Name', { exact: true }).fill(name)
    await choose(page, 'Role', 'Editor', isJs)
    await choose(page, 'Organisation', 'Default organisation', isJs)
    await page.getByRole('button', { name: 'Create key' }).click()

    const secret = page.getByTestId('new-api-key')
    await expect(page.getByText('Copy it now: it won’t be shown again.')).toBeVisible()
    const key = await secret.inputValue()
    expect(key).toMatch(/^kbk_[A-Za-z0-9_-]{40,}$/)
    const row = page.getByRole('table', { name: 'API keys' }).getByRole('row').filter({ hasText: name })
    await expect(row).toContainText('Editor')
    await expect(row).toContainText('Default organisation')
    await expect(row).toContainText(key.slice(0, 12))
    await expect(row).toContainText('Never')
    // The list never holds the key itself.
    await expect(page.getByRole('table', { name: 'API keys' })).not.toContainText(key)

    // A client with only this key: an editor's calls work, an administrator's are refused.
    expect((await callWithKey(page.request, key, 'GET', '/admin/get_articles?first=0&rows=1')).status()).toBe(200)
    expect((await callWithKey(page.request, key, 'GET', '/admin/api_keys')).status()).toBe(403)
    expect((await callWithKey(page.request, key, 'GET', '/admin/users')).status()).toBe(403)

    // Shown once: the page opened again has no key in it, and says when it was last used.
    await page.goto('/api-keys')
    await expect(page.getByTestId('new-api-key')).toHaveCount(0)
    await expect(page.locator('body')).not.toContainText(key)
    await expect(row).not.toContainText('Never')

    await row.getByText('Revoke…').click()
    await row.getByRole('button', { name: 'Yes, revoke key' }).click()
    await expect(page.getByRole('status').filter({ hasText: 'revoked' })).toBeVisible()
    await expect(page.getByRole('table', { name: 'API keys' })).not.toContainText(name)
    expect((await callWithKey(page.request, key, 'GET', '/admin/get_articles?first=0&rows=1')).status()).toBe(401)
  })

  test('says beside the field what a key needs', async ({ page }, testInfo) => {
    await page.goto('/api-keys')
    await whenHydrated(page.getByRole('button', { name: 'Create key' }), testInfo)
    // Past the browser's own check of the required field: a name of spaces.
    await page.getByLabel('Name', { exact: true }).fill('   ')
    await page.getByRole('button', { name: 'Create key' }).click()
    await expect(page.getByLabel('Name', { exact: true })).toHaveAttribute('aria-invalid', 'true')
    await expect(page.getByTestId('new-api-key')).toHaveCount(0)
  })

  test('a refused key keeps its role and organisation, and says what is wrong in the form’s words', async ({ page }, testInfo) => {
    const isJs = testInfo.project.name === 'js'
    // An organisation besides the first, so keeping the choice shows.
    const organisation = `Keys ${testInfo.project.name} ${Date.now().toString(36)}`
    const admin = await backendSession(page.request, 'admin', process.env.E2E_ADMIN_PASSWORD ?? '')
    const created = await page.request.post(`${BACKEND_URL}/admin/organizations`, { headers: admin.headers, data: { name: organisation } })
    expect(created.status()).toBe(200)
    const organisationId = String((await created.json()).organization.id)

    await page.goto('/api-keys')
    await whenHydrated(page.getByRole('button', { name: 'Create key' }), testInfo)
    await page.getByLabel('Name', { exact: true }).fill('   ')
    await choose(page, 'Role', 'Editor', isJs)
    await choose(page, 'Organisation', organisation, isJs)
    await page.getByRole('button', { name: 'Create key' }).click()

    await expect(page.getByRole('alert').filter({ hasText: /is required/ })).toHaveText('Name is required')
    // The posted values: a native select without scripts, the select's hidden input with them.
    const form = page.getByRole('form', { name: 'Create a key' })
    await expect(form.locator('[name="role"]')).toHaveValue('editor')
    await expect(form.locator('[name="organization_id"]')).toHaveValue(organisationId)
  })

  test('a form posted again, as a reload of the answer showing the key does, creates no second key', async ({ page }, testInfo) => {
    const isJs = testInfo.project.name === 'js'
    const name = `Once ${testInfo.project.name} ${Date.now().toString(36)}`
    const admin = await backendSession(page.request, 'admin', process.env.E2E_ADMIN_PASSWORD ?? '')
    const keysNamed = async () => ((await (await page.request.get(`${BACKEND_URL}/admin/api_keys`, { headers: admin.headers })).json()) as { name: string }[]).filter((key) => key.name === name).length
    const repeated = 'This key was already created; its secret was shown once. Revoke it and create another if you did not copy it.'

    await page.goto('/api-keys')
    await whenHydrated(page.getByRole('button', { name: 'Create key' }), testInfo)
    await page.getByLabel('Name', { exact: true }).fill(name)
    const form = await postedFields(page.getByRole('form', { name: 'Create a key' }), 'Create key')
    await page.getByRole('button', { name: 'Create key' }).click()
    await expect(page.getByTestId('new-api-key')).toBeVisible()
    expect(await keysNamed()).toBe(1)

    if (!isJs) {
      // Without scripts the answer is the page of a post: reloading it posts the form again.
      await page.reload()
      await expect(page.getByRole('alert').filter({ hasText: repeated })).toBeVisible()
      await expect(page.getByTestId('new-api-key')).toHaveCount(0)
    }
    const again = await page.request.post('/api-keys', { form: { ...form, intent: 'create' } })
    expect(again.status()).toBe(409)
    expect(await again.text()).toContain(repeated)
    expect(await keysNamed()).toBe(1)

    // A new form (the page opened again) creates the next key.
    await page.goto('/api-keys')
    await whenHydrated(page.getByRole('button', { name: 'Create key' }), testInfo)
    await page.getByLabel('Name', { exact: true }).fill(name)
    await page.getByRole('button', { name: 'Create key' }).click()
    await expect(page.getByTestId('new-api-key')).toBeVisible()
    expect(await keysNamed()).toBe(2)
  })
})
