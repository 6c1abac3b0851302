import { expect, test, type Page, type TestInfo } from '@playwright/test'
import { BACKEND_URL, backendSession, whenHydrated } from './support/backend'
import { choose } from './support/select'
import { expectToast, watchToasts } from './support/toasts'

/** A name of its own per project and run, so runs never see each other's organisations. */
const uniqueName = (prefix: string, project: string) => `${prefix} ${project} ${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`

async function createOrganisation(page: Page, name: string, testInfo: TestInfo) {
  await page.goto('/organisations')
  await whenHydrated(page.getByRole('button', { name: 'Create organisation' }), testInfo)
  await page.getByLabel('Organisation name', { exact: true }).fill(name)
  await page.getByRole('button', { name: 'Create organisation' }).click()
  await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible()
  await expectToast(page, `Organisation "${name}" created`)
}

test.describe('Organisations', () => {
  // Toasts live 2 s with scripts on: each page notes them, so a check on a busy machine still finds them.
  test.beforeEach(({ page }) => watchToasts(page))

  test('creates and renames an organisation, and manages its groups with a role', async ({ page }, testInfo) => {
    const isJs = testInfo.project.name === 'js'
    const name = uniqueName('Harbour', testInfo.project.name)
    await createOrganisation(page, name, testInfo)
    await whenHydrated(page.getByRole('button', { name: 'Create group' }), testInfo)
    const groups = page.getByRole('table', { name: 'Groups' })
    await expect(groups.getByRole('textbox')).toHaveCount(3)
    for (const [index, group] of ['Administrators', 'Editors', 'Users'].entries()) await expect(groups.getByRole('textbox').nth(index)).toHaveValue(group)

    await page.getByLabel('Group name', { exact: true }).fill('Reviewers')
    await choose(page, 'Role', 'Editor', isJs)
    await page.getByRole('button', { name: 'Create group' }).click()
    await expectToast(page, 'Group "Reviewers" created')
    await expect(page.getByLabel('Role of group Reviewers')).toHaveValue('editor')

    await page.getByLabel('Name of group Reviewers').fill('Proofreaders')
    await page.getByRole('form', { name: 'Edit group Reviewers' }).getByRole('button', { name: 'Save group' }).click()
    await expectToast(page, 'Group "Proofreaders" saved')

    // A role group keeps its role: the refusal is said beside its row.
    await page.getByLabel('Role of group Users').selectOption('admin')
    await page.getByRole('form', { name: 'Edit group Users' }).getByRole('button', { name: 'Save group' }).click()
    await expect(page.getByRole('alert').filter({ hasText: 'its role cannot change' })).toBeVisible()

    // The group's own controls: without scripts the rest of the page may still be arriving, so "the last one" is not
    // yet the last.
    await page.locator('summary[aria-label="Delete group Proofreaders…"]').click()
    await page.getByRole('form', { name: 'Delete group Proofreaders' }).getByRole('button', { name: 'Yes, delete group' }).click()
    await expectToast(page, 'Group "Proofreaders" deleted')
    await expect(page.getByLabel('Name of group Proofreaders')).toHaveCount(0)

    const renamed = `${name} renamed`
    await page.getByLabel('Organisation name', { exact: true }).fill(renamed)
    await page.getByRole('button', { name: 'Rename' }).click()
    await expect(page.getByRole('heading', { name: renamed, level: 1 })).toBeVisible()
    await page.getByRole('link', { name: '← Organisations' }).click()
    await expect(page.getByRole('table', { name: 'Organisations' }).getByRole('link', { name: renamed, exact: true })).toBeVisible()
  })

  test('refuses to delete an organisation that still has users, saying what remains, and deletes an empty one', async ({ page }, testInfo) => {
    const name = uniqueName('Inland', testInfo.project.name)
    await createOrganisation(page, name, testInfo)
    const organisationPath = new URL(page.url()).pathname
    const organizationId = Number(organisationPath.split('/').pop())
    const admin = await backendSession(page.request, 'admin', process.env.E2E_ADMIN_PASSWORD ?? '')
    const member = `member.${testInfo.project.name}.${Date.now().toString(36)}`
    const created = await page.request.post(`${BACKEND_URL}/admin/users`, {
      headers: admin.headers,
      data: { username: member, email: `${member}@example.org`, role: 'user', organization_id: organizationId, password: 'garden-path-42' },
    })
    expect(created.status()).toBe(200)

    await page.getByLabel(`Yes, delete “${name}”`).check()
    await page.getByRole('button', { name: 'Delete organisation' }).click()
    await expect(page.getByRole('alert').filter({ hasText: 'Not deleted.' })).toContainText(
      `Organisation "${name}" still has 1 user: move or delete them before deleting the organisation`,
    )
    await expect(page).toHaveURL(new RegExp(`${organisationPath}$`))

    const empty = uniqueName('Empty', testInfo.project.name)
    await createOrganisation(page, empty, testInfo)
    await page.getByLabel(`Yes, delete “${empty}”`).check()
    await page.getByRole('button', { name: 'Delete organisation' }).click()
    await expect(page).toHaveURL(/\/organisations$/)
    await expectToast(page, `Organisation "${empty}" deleted`)
    await expect(page.getByRole('table', { name: 'Organisations' })).not.toContainText(empty)
    await expect(page.getByRole('table', { name: 'Organisations' })).toContainText(name)
  })

  test('a refused group or new name keeps what was typed and chosen', async ({ page }, testInfo) => {
    const isJs = testInfo.project.name === 'js'
    const other = uniqueName('Elsewhere', testInfo.project.name)
    await createOrganisation(page, other, testInfo)
    const name = uniqueName('Keeping', testInfo.project.name)
    await createOrganisation(page, name, testInfo)
    await whenHydrated(page.getByRole('button', { name: 'Create group' }), testInfo)

    // A role group's name is taken: the name and the role chosen stay.
    await page.getByLabel('Group name', { exact: true }).fill('Editors')
    await choose(page, 'Role', 'Editor', isJs)
    await page.getByRole('button', { name: 'Create group' }).click()
    await expect(page.getByRole('form', { name: 'Create a group' }).getByRole('alert')).toBeVisible()
    await expect(page.getByLabel('Group name', { exact: true })).toHaveValue('Editors')
    await expect(page.getByRole('form', { name: 'Create a group' }).locator('[name="role"]')).toHaveValue('editor')

    // Another organisation's name: the box keeps the name typed, not the saved one.
    await whenHydrated(page.getByRole('button', { name: 'Rename' }), testInfo)
    await page.getByLabel('Organisation name', { exact: true }).fill(other)
    await page.getByRole('button', { name: 'Rename' }).click()
    await expect(page.getByRole('form', { name: 'Rename the organisation' }).getByRole('alert')).toBeVisible()
    await expect(page.getByLabel('Organisation name', { exact: true })).toHaveValue(other)
    await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible()
  })

  test('a blank name (only spaces) is refused with a reason, for a new organisation, a rename and a new group', async ({ page }, testInfo) => {
    const name = uniqueName('Blanks', testInfo.project.name)
    await createOrganisation(page, name, testInfo)
    await whenHydrated(page.getByRole('button', { name: 'Rename' }), testInfo)
    await page.getByLabel('Organisation name', { exact: true }).fill('   ')
    await page.getByRole('button', { name: 'Rename' }).click()
    // Only spaces is asked for in the words an empty name is.
    await expect(page.getByRole('form', { name: 'Rename the organisation' }).getByRole('alert')).toHaveText('Please enter a name')
    await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible()
    await whenHydrated(page.getByRole('button', { name: 'Create group' }), testInfo)
    await page.getByLabel('Group name', { exact: true }).fill('   ')
    await page.getByRole('button', { name: 'Create group' }).click()
    await expect(page.getByRole('form', { name: 'Create a group' }).getByRole('alert')).toHaveText('Please enter a name')

    await page.goto('/organisations')
    await whenHydrated(page.getByRole('button', { name: 'Create organisation' }), testInfo)
    await page.getByLabel('Organisation name', { exact: true }).fill('   ')
    await page.getByRole('button', { name: 'Create organisation' }).click()
    await expect(page.getByLabel('Organisation name', { exact: true })).toHaveAttribute('aria-invalid', 'true')
    await expect(page.getByText('Please enter a name', { exact: true }).and(page.locator('[id$="-error"]'))).toBeVisible()
  })

  test('says beside the field that the name is taken', async ({ page }, testInfo) => {
    const name = uniqueName('Twin', testInfo.project.name)
    await createOrganisation(page, name, testInfo)
    await page.goto('/organisations')
    await whenHydrated(page.getByRole('button', { name: 'Create organisation' }), testInfo)
    await page.getByLabel('Organisation name', { exact: true }).fill(name.toUpperCase())
    await page.getByRole('button', { name: 'Create organisation' }).click()
    await expect(page.getByText(`An organisation named "${name}" already exists`)).toBeVisible()
    await expect(page.getByLabel('Organisation name', { exact: true })).toHaveAttribute('aria-invalid', 'true')
  })
})
